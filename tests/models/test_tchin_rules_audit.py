"""Tchin Tchin: rules-page sentences audited against the referee, one test each.

Each test quotes the sentence of /work/shared/rules/tchin-tchin.md it pins.
"""

from __future__ import annotations

import json
from typing import Any

from tchin_engine_helpers import FOUR, kinds, named, press, referee, say, tick, win_card


def opened(deck: tuple[str, ...] = ("D24", "D05"), **opts: Any):
    """D24 on the table since 0.5: 3 (Mexican) and 4 (Russian) invited, 1 and 2 not."""
    ref = referee(FOUR, deck, **opts)
    press(ref, 0.5, 1)
    return ref


# "A toast counts for the claimant when it [...] ends no later than `window_s` (default 2.5 s)
# after it": with times as the table reads them, 15.26 + 2.5 is 17.76, though in binary
# floating point it comes out a hair earlier (17.759999999999998).
def test_the_listening_window_ends_at_press_plus_window_s_as_the_table_reads_the_times():
    ref = opened()
    press(ref, 15.26, 3)
    due = ref.next_deadline()
    assert due is not None and due >= 17.76  # not a hair before the window's end
    say(ref, 17.3, 17.76, "na zdorovie")  # ends exactly at press + window_s: it counts
    ev = tick(ref, due)
    assert kinds(ev) == ["heard", "correct", "veto_window"]


def test_a_toast_ending_exactly_at_press_plus_window_s_counts_in_a_scripted_game():
    from controller import replay

    header = {"game": "tchin-tchin", "seed": 7, "players": 4,
              "options": {"pre_s": 1.0, "window_s": 2.5, "veto_s": 3.0, "card_timeout_s": 20.0},
              "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"},
              "deck": ["D24", "D05"], "first": 1}
    lines = [{"t": 0.5, "press": 1}, {"t": 14.51, "press": 3},
             {"t": 17.01, "say": "Na Zdorovie!", "end": 17.01}]  # 14.51 + 2.5 = 17.01
    h, inputs = replay.load([json.dumps(header)] + [json.dumps(x) for x in lines], "audit.jsonl")
    out: list[dict[str, Any]] = []
    replay.run(h, inputs, lambda ev: out.append(json.loads(replay.dumps(ev))))
    assert [(e["event"], e.get("station")) for e in out if 14 < e["t"] < 18] == [
        ("claim", 3), ("heard", 3), ("correct", 3), ("veto_window", 3)]
    assert named(out, "win")[0]["station"] == 3


# "A toast counts for the claimant when it starts no earlier than `pre_s` [...] before the
# press": the same with decimal times (15.26 - 1.0 is 14.26).
def test_a_toast_starting_exactly_pre_s_before_a_decimal_press_counts():
    ref = opened()
    say(ref, 14.26, 14.6, "na zdorovie")
    ev = press(ref, 15.26, 3)
    assert kinds(ev) == ["claim", "heard", "correct", "veto_window"]


# "[...] and has not already decided an earlier claim: one toast decides at most one claim"
# (an earlier claim on an earlier card included).
def test_a_toast_that_decided_a_claim_on_the_previous_card_decides_no_other():
    ref = opened(("D24", "D11"))
    press(ref, 1.0, 3)
    say(ref, 1.1, 1.4, "kanpai")  # wrong for D24: 3 mistaken
    tick(ref, 1.4)
    tick(ref, 21.0)  # D24 unwon by timeout; 1 reveals D11 (Japanese word) at once
    press(ref, 21.1, 1)
    ev = press(ref, 21.2, 2) + tick(ref, 24.0)  # "kanpai" would be in 2's window, but is used up
    assert named(ev, "mistake") == [{"event": "mistake", "station": 2, "reason": "no toast"}]


# "during a veto window a press by a player not invited is a veto vote and any other press is
# ignored; none of these is penalized" (a mistaken invited player's press included).
def test_during_a_veto_window_a_mistaken_invited_players_press_is_ignored_not_penalized():
    ref = opened(("D24", "D11", "D05"))
    win_card(ref, 3, "na zdorovie", 1.0)  # 3 holds D24
    press(ref, 6.0, 3)  # D11 (Japanese, champagne, Mayan pyramid): 1, 2, 3 invited, 4 not
    press(ref, 6.5, 3)
    tick(ref, 9.0)  # 3: no toast, mistaken
    press(ref, 9.5, 1)
    say(ref, 9.6, 9.9, "kanpai")
    tick(ref, 9.9)  # veto window for 1: 4 alone votes
    assert ref.phase == "veto"
    ev = press(ref, 10.0, 3) + press(ref, 10.1, 2)
    assert [e["reason"] for e in ev] == ["veto window", "veto window"]
    assert ref.piles[3] == ["D24"] and ref.pot == []


# "Middleman!": "each must perform the OTHER duellist's character combination (a tourist
# opponent: any combination of one of that tourist's locations)": two tourists side by side.
def test_middleman_between_the_two_tourists_each_accepts_the_others_places():
    ref = referee("DE EN FR JP MX RU TM TW", ["M1"], first=7)  # neighbours 6 (RU) and 8 (TW)
    r = named(press(ref, 0.5, 7), "reveal")[0]
    assert r["invited"] == [6, 8]
    assert r["words"] == {"6": ["kanpai", "na zdorovie", "salud"], "8": "na zdorovie"}
    ref = referee("DE EN FR JP MX RU TW TM", ["M1"], first=1)  # neighbours 8 (TM) and 2 (EN)
    r = named(press(ref, 0.5, 1), "reveal")[0]
    assert r["words"] == {"2": ["cheers", "prost", "tchin tchin"], "8": "cheers"}


# "With no previous winning combination (first card, or the previous card was not won), the
# card goes to the bottom of the deck": a card discarded unwon because every invited player
# made a mistake leaves nothing to repeat either.
def test_same_again_after_a_card_everyone_invited_got_wrong_goes_to_the_bottom():
    ref = opened(("D24", "S1", "D05"))
    press(ref, 1.0, 3)
    tick(ref, 3.5)
    press(ref, 4.0, 4)
    say(ref, 4.1, 4.4, "salud")
    ev = tick(ref, 4.4)
    assert named(ev, "unwon")[0]["reason"] == "all invited mistaken"
    ev = press(ref, 5.0, 1)
    assert kinds(ev) == ["reveal", "requeued", "reveal"] and ref.deck == ["S1"]


# "End: when the deck is empty. [...] Equal top scores share the victory": the last card's
# winner takes the pot with it.
def test_the_last_card_takes_the_pot_and_ends_the_game():
    ref = opened(("D24", "D05"))
    win_card(ref, 3, "na zdorovie", 1.0)  # 3 holds D24
    press(ref, 6.0, 3)  # D05: 1 and 4 invited
    press(ref, 6.2, 3)  # 3 not invited: D24 to the pot
    ev = win_card(ref, 4, "tchin tchin", 6.5)
    assert named(ev, "win")[0]["pot"] == ["D24"]
    over = named(ev, "game_over")[0]
    assert over["scores"] == {"1": 0, "2": 0, "3": 0, "4": 2} and over["winners"] == [4]
    assert over["pot"] == []
