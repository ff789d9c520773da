"""Scripted Tchin Tchin games (tests/replays/tchin/rules_*.jsonl) checked against the rules page.

Every golden replay is replayed by an independent referee written from the rules page
(``tchin_rules_checker``) and must print the same decisions; no card is ever created or
lost (pot included). The targeted tests below read the printed games for one rule each.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tchin_rules_checker as rules  # noqa: E402

HERE = Path(__file__).resolve().parents[1] / "replays" / "tchin"
GAMES = sorted(p for p in HERE.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
# scripts that lean on the buttons' contact-bounce filter, outside the checker's scope
BOUNCE = {"ties_locks_buttons"}


def played(name: str) -> list[dict[str, Any]]:
    return rules.load(HERE / f"{name}.jsonl")[1]


def named(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == kind]


def deck_of(script: list[dict[str, Any]], events: list[dict[str, Any]]) -> list[str]:
    deck = script[0].get("deck")
    return list(deck) if deck is not None else list(dict.fromkeys(e["card"] for e in named(events, "reveal")))


@pytest.mark.parametrize("path", [p for p in GAMES if p.stem not in BOUNCE], ids=lambda p: p.stem)
def test_golden_replays_agree_with_a_referee_written_from_the_rules_page(path: Path) -> None:
    script, events = rules.load(path)
    dealt = named(events, "dealt")[0]
    reveals = [e["card"] for e in named(events, "reveal")]
    assert rules.decisions(events) == rules.referee(script, dealt, reveals)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_card_is_created_or_lost_in_any_golden_replay(path: Path) -> None:
    script, events = rules.load(path)
    rules.conservation(events, deck_of(script, events))


def test_there_is_a_rules_scenario_for_every_part_of_the_rules_page() -> None:
    names = {p.stem for p in GAMES}
    assert {"rules_drink_cards", "rules_listening_window", "rules_ties_veto", "rules_events",
            "rules_timeouts", "rules_tourists_7", "rules_tourists_8", "rules_tourist_duel",
            "rules_setup_4p", "rules_setup_5p", "rules_setup_7p"} <= names


def test_rules_drink_card_invites_any_element_and_asks_the_drinkers_word() -> None:
    ev = played("rules_drink_cards")  # 1 FR, 2 RU, 3 DE, 4 MX, 5 JP, 6 EN
    seen = {e["card"]: (e["invited"], e["word"]) for e in named(ev, "reveal")}
    assert seen["D24"] == ([2, 4, 6], "na zdorovie")  # Russian drinker, tequila, Big Ben
    assert seen["D06"] == ([1, 3, 5], "tchin tchin")  # French drinker, sake, Brandenburg Gate
    assert seen["W1"] == ([3, 6], "prost")  # German drinker and beer, Big Ben


def test_rules_mistakes_are_not_penalized_and_lock_out_only_that_player() -> None:
    ev = played("rules_drink_cards")
    first_card = [e for e in ev if 0.5 <= e["t"] < 10.0]
    assert ("mistake", 4, "wrong word") in [(e["event"], e.get("station"), e.get("reason")) for e in first_card]
    assert {"t": 2.5, "event": "ignored", "station": 4, "reason": "mistaken"} in ev
    assert [e["station"] for e in named(first_card, "penalty")] == [5]  # the uninvited press only
    assert named(first_card, "win")[0]["station"] == 2


def test_rules_penalty_card_goes_to_the_pot_and_with_the_next_won_card() -> None:
    ev = played("rules_drink_cards")
    pen = named(ev, "penalty")
    assert [(p["station"], p["to_pot"], p.get("card")) for p in pen] == [
        (5, False, None), (2, True, "D24"), (2, False, None)]
    assert named(ev, "win")[1] == {**named(ev, "win")[1], "station": 1, "card": "D06", "pot": ["D24"]}


def test_rules_unwon_card_is_revealed_again_by_the_same_revealer() -> None:
    ev = played("rules_drink_cards")
    assert named(ev, "unwon")[0]["reason"] == "all invited mistaken"
    reveals = named(ev, "reveal")
    assert [r["revealer"] for r in reveals] == [3, 2, 1, 1, 6]  # first, winners, same after D16


def test_rules_veto_threshold_is_half_the_uninvited_rounded_up_and_vetoed_is_a_mistake() -> None:
    ev = played("rules_ties_veto")
    assert named(ev, "veto_window")[0]["voters"] == [1, 3, 4]
    assert named(ev, "veto_window")[0]["needed"] == 2
    assert named(ev, "vetoed")[0] == {"t": 2.5, "event": "vetoed", "station": 5, "voters": [1, 3]}
    assert {"t": 2.5, "event": "mistake", "station": 5, "reason": "vetoed"} in ev


def test_rules_exact_ties_go_to_the_lower_station_and_name_the_others() -> None:
    claims = named(played("rules_ties_veto"), "claim")
    assert (claims[0]["station"], claims[0]["tied"]) == (5, [6])
    assert (claims[2]["t"], claims[2]["station"]) == (8.49, 2)  # earliest edge
    assert (claims[3]["station"], claims[3]["tied"]) == (1, [3, 6])


def test_rules_equal_top_scores_share_the_victory() -> None:
    over = named(played("rules_ties_veto"), "game_over")[0]
    assert over["winners"] == [2, 3, 6]


def test_rules_listening_window_boundaries() -> None:
    ev = played("rules_listening_window")
    # a toast starting exactly pre_s before the press counts, decided at the press
    assert {"t": 2.0, "event": "heard", "station": 3, "word": "tchin tchin"} in ev
    # starting 1.01 s before: no toast, a mistake at press + window_s
    assert {"t": 10.0, "event": "mistake", "station": 2, "reason": "no toast"} in ev
    # ending exactly at press + window_s counts
    assert {"t": 13.0, "event": "correct", "station": 4, "word": "kanpai"} in ev
    # ending 0.01 s after: a mistake at the end of the window
    assert {"t": 20.0, "event": "mistake", "station": 1, "reason": "no toast"} in ev
    # one toast decides at most one claim
    assert {"t": 29.5, "event": "mistake", "station": 1, "reason": "no toast"} in ev
    # the first toast that counts (the one that ends first) decides
    assert {"t": 35.0, "event": "heard", "station": 2, "word": "kanpai"} in ev
    assert {"t": 35.5, "event": "correct", "station": 1, "word": "na zdorovie"} in ev


def test_rules_event_cards() -> None:
    ev = played("rules_events")  # 1 FR, 2 JP, 3 MX, 4 RU, 5 EN
    reveals = {e["card"]: e for e in named(ev, "reveal") if e["invited"]}
    assert named(ev, "requeued")[0]["card"] == "S1"  # nothing to repeat: bottom of the deck
    assert reveals["M1"]["words"] == {"2": "na zdorovie", "4": "kanpai"}  # the OTHER's combination
    assert (reveals["R2"]["invited"], reveals["R2"]["word"]) == ([1, 3, 4, 5], "kanpai")
    assert (reveals["S2"]["invited"], reveals["S2"]["word"]) == ([2, 3, 4, 5], "kanpai")
    assert named(ev, "win")[-1]["combination"]["drink"] == "sake"  # the same again: kanpai + sake
    assert named(ev, "discarded")[0]["card"] == "S1"  # the last card, nothing to repeat
    assert named(ev, "game_over")[0]["scores"]["1"] == 2  # event cards count (R2 + M1 from the pot)


def test_rules_tourists_are_invited_by_their_places() -> None:
    seven = {e["card"]: e for e in named(played("rules_tourists_7"), "reveal")}  # 7 TW
    assert 7 not in seven["D13"]["invited"] and 7 in seven["D12"]["invited"]
    assert seven["R1"]["word"] == ["kanpai", "na zdorovie", "salud"]  # a tourist revealer
    eight = {e["card"]: e for e in named(played("rules_tourists_8"), "reveal")}  # 1 TM, 3 TW
    assert 1 in eight["D04"]["invited"] and 3 not in eight["D04"]["invited"]
    assert 3 in eight["D23"]["invited"] and 1 not in eight["D23"]["invited"]
    duel = {e["card"]: e for e in named(played("rules_tourist_duel"), "reveal")}
    assert duel["M1"]["words"] == {"1": ["kanpai", "na zdorovie", "salud"],
                                   "3": ["cheers", "prost", "tchin tchin"]}


def test_rules_card_timeout_waits_for_a_live_claim_or_veto() -> None:
    ev = played("rules_timeouts")
    assert named(ev, "win")[0]["card"] == "D12"  # the claim that outlived the timeout won
    unwon = [(e["t"], e["card"], e["reason"]) for e in named(ev, "unwon")]
    assert unwon == [(29.0, "D05", "timeout"), (42.5, "D16", "timeout"), (54.5, "D21", "timeout"),
                     (72.5, "D09", "timeout")]
    assert all(e.get("by") == "box" for e in named(ev, "reveal"))  # auto_reveal_s


@pytest.mark.parametrize("name, players", [("rules_setup_4p", 4), ("rules_setup_5p", 5), ("rules_setup_7p", 7)])
def test_rules_setup_dealt_from_the_seed(name: str, players: int) -> None:
    ev = played(name)
    dealt = named(ev, "dealt")[0]
    codes = sorted(dealt["characters"].values())
    cards = set(e["card"] for e in named(ev, "reveal"))
    drink = {c for c in cards if c[0] in "DW"}
    if players == 4:
        assert codes == ["FR", "JP", "MX", "RU"] and dealt["cards"] == 24 and drink == {
            f"D{i:02}" for i in range(1, 25)}
    elif players == 5:
        assert len(set(codes)) == 5 and set(codes) < {"DE", "EN", "FR", "JP", "MX", "RU"}
        assert dealt["cards"] == 36 and len(drink) == 30 and len(cards) == 36  # events on
    else:
        assert len([c for c in codes if c in ("TM", "TW")]) == 1 and len(codes) == 7
        assert dealt["cards"] == 30 and len(drink) == 30


def test_toast_heard_at_the_very_end_of_the_window_counts() -> None:
    """A toast that ends no later than press + window_s counts, even one reported at that instant."""
    from tchin_flow_helpers import named as named_in
    from tchin_flow_helpers import run

    ev = run([{"t": 0.5, "press": 1}, {"t": 1.0, "press": 3}, {"t": 3.5, "say": "Na Zdorovie!"}])
    assert {"t": 3.5, "event": "heard", "station": 3, "word": "na zdorovie"} in ev
    assert named_in(ev, "win")[0]["station"] == 3
    late = run([{"t": 0.5, "press": 1}, {"t": 1.0, "press": 3}, {"t": 3.5, "say": "Na Zdorovie!", "end": 3.51}])
    assert {"t": 3.5, "event": "mistake", "station": 3, "reason": "no toast"} in late
    again = run([{"t": 0.5, "press": 1}, {"t": 1.0, "press": 3}, {"t": 3.5, "press": 4},
                 {"t": 3.5, "say": "Na Zdorovie!"}])
    # the toast decides the live claim first; a press of that instant meets the veto window
    assert [(e["event"], e.get("station")) for e in again if e["t"] == 3.5] == [
        ("heard", 3), ("correct", 3), ("veto_window", 3), ("ignored", 4)]
