"""The Tchin Tchin flow driven by replay lines: timing, ties, toasts, bad input (replay contract)."""

from __future__ import annotations

import pytest
from tchin_flow_helpers import decisions, named, run

from controller.flow import HeaderError
from controller.replay import ReplayError

REVEAL = [{"t": 0.5, "press": 1}, {"t": 0.55, "release": 1}]  # D24: 3 and 4 invited


def test_the_game_waits_for_the_first_revealers_press():
    ev = run([])
    assert [e["event"] for e in ev] == ["start", "dealt"]
    ev = run(REVEAL)
    assert named(ev, "reveal") == [{"t": 0.5, "event": "reveal", "card": "D24", "revealer": 1,
                                    "invited": [3, 4], "word": "na zdorovie", "kind": "drink"}]


def test_a_full_card_claim_heard_correct_veto_window_win():
    ev = run(REVEAL + [{"t": 1.25, "press": 3}, {"t": 1.3, "say": "Na Zdorovie!", "end": 1.7}])
    assert decisions(ev) == [(1.25, "claim", 3), (1.7, "heard", 3), (1.7, "correct", 3),
                             (1.7, "veto_window", 3), (4.7, "win", 3)]
    assert named(ev, "win")[0]["reaction_ms"] == 750 and named(ev, "win")[0]["pot"] == []


def test_toast_starting_before_the_press_is_delivered_first_and_still_counts():
    ev = run(REVEAL + [{"t": 1.0, "say": "na zdorovie", "end": 1.4}, {"t": 1.9, "press": 4}])
    assert decisions(ev)[:3] == [(1.9, "claim", 4), (1.9, "heard", 4), (1.9, "correct", 4)]


def test_toast_ending_exactly_at_press_plus_window_s_counts_though_the_window_timer_fires_then():
    ev = run(REVEAL + [{"t": 1.25, "press": 3}, {"t": 3.0, "say": "na zdorovie", "end": 3.75}])
    assert decisions(ev)[1:3] == [(3.75, "heard", 3), (3.75, "correct", 3)]
    assert not named(ev, "mistake")


def test_toast_ending_after_the_window_is_a_mistake_when_the_window_ends():
    ev = run(REVEAL + [{"t": 1.25, "press": 3}, {"t": 3.0, "say": "na zdorovie", "end": 3.76}])
    assert named(ev, "mistake") == [{"t": 3.75, "event": "mistake", "station": 3, "reason": "no toast"}]


def test_exact_ties_in_the_file_in_any_order_go_to_the_lower_station():
    ev = run(REVEAL + [{"t": 2.0, "press": 4}, {"t": 2.0, "press": 3}])
    claim = named(ev, "claim")[0]
    assert (claim["t"], claim["station"], claim["tied"]) == (2.0, 3, [4])


@pytest.mark.parametrize("lines", [
    [{"t": 2.0, "do": {"type": "buzz", "stations": [4]}}, {"t": 2.0, "do": {"type": "buzz", "stations": [3]}}],
    [{"t": 2.0, "press": 4}, {"t": 2.0, "do": {"type": "buzz", "stations": [3]}}],
    [{"t": 2.0, "do": {"type": "buzz", "stations": [4]}}, {"t": 2.0, "press": 3}],
], ids=["two buzz actions", "press then buzz action", "buzz action then press"])
def test_exact_ties_between_buzz_actions_and_presses_go_to_the_lower_station(lines):
    ev = run(REVEAL + lines)
    claim = named(ev, "claim")[0]
    assert (claim["t"], claim["station"], claim["tied"]) == (2.0, 3, [4])
    assert {"t": 2.0, "event": "ignored", "station": 4, "reason": "tied, lower station claims"} in ev


def test_a_buzz_action_from_an_unseated_station_is_rejected_and_the_presses_of_its_instant_stand():
    ev = run(REVEAL + [{"t": 2.0, "press": 4}, {"t": 2.0, "do": {"type": "buzz", "stations": [3, 9]}}])
    assert "station 9 has no player" in named(ev, "rejected")[0]["reason"]
    assert (named(ev, "claim")[0]["station"], named(ev, "claim")[0].get("tied")) == (4, None)


def test_a_toast_action_names_its_word_as_a_said_toast_is_named():
    ev = run(REVEAL + [{"t": 1.0, "do": {"type": "buzz", "stations": [4]}},
                       {"t": 1.1, "do": {"type": "toast", "end": 1.5, "word": "Na Zdorovie!"}}])
    assert decisions(ev)[:3] == [(1.0, "claim", 4), (1.5, "heard", 4), (1.5, "correct", 4)]


def test_presses_a_millisecond_apart_are_ordered():
    ev = run(REVEAL + [{"t": 2.0, "press": 4}, {"t": 2.001, "press": 3}])
    assert named(ev, "claim")[0]["station"] == 4
    assert named(ev, "ignored")[-1] == {"t": 2.001, "event": "ignored", "station": 3, "reason": "locked"}


def test_a_toast_with_no_claim_is_ignored():
    ev = run(REVEAL + [{"t": 5.0, "say": "salud", "end": 5.3}])
    assert [e["event"] for e in ev][-1] == "unwon"  # nothing else happened to the card


def test_other_speech_is_ignored():
    ev = run(REVEAL + [{"t": 1.25, "press": 3}, {"t": 1.3, "say": "hello there", "end": 1.6}])
    assert {"t": 1.3, "event": "ignored", "said": "hello there", "reason": "not a toast"} in ev
    assert named(ev, "mistake")[0]["reason"] == "no toast"


def test_unknown_station_is_ignored():
    ev = run(REVEAL + [{"t": 1.0, "press": 7}, {"t": 1.2, "press": 42}])
    assert [(e["station"], e["reason"]) for e in named(ev, "ignored")] == [
        (7, "unknown station"), (42, "unknown station")]
    assert not named(ev, "penalty")


def test_disabled_station_is_ignored():
    from tchin_flow_helpers import header

    from controller.session import GameSession

    out: list[dict] = []
    s = GameSession(header(), sink=out.append, disabled=frozenset({2}))
    from controller.flow import Input

    s.feed(Input(0.5, "press", station=1), record=False)
    s.feed(Input(1.0, "press", station=2), record=False)
    assert out[-1] == {"t": 1.0, "event": "ignored", "station": 2, "reason": "disabled station"}


def test_a_button_held_down_when_a_card_opens_claims_only_with_a_new_press():
    # held since 0.3 through the reveal: no edge, no claim
    ev = run([{"t": 0.3, "press": 4}] + REVEAL)
    assert named(ev, "claim") == []
    # a press line with no release before it is a new press (the release went unrecorded)
    ev = run([{"t": 0.3, "press": 4}] + REVEAL + [{"t": 2.0, "press": 4}])
    assert named(ev, "claim")[0]["station"] == 4 and named(ev, "claim")[0]["t"] == 2.0


def test_the_press_that_reveals_does_not_hold_the_revealers_button():
    ev = run([{"t": 0.5, "press": 4}, {"t": 1.0, "press": 4}], first=4)
    assert named(ev, "claim")[0]["station"] == 4


def test_bounce_a_second_press_within_bounce_s_is_ignored():
    ev = run(REVEAL + [{"t": 1.0, "press": 2}, {"t": 1.005, "release": 2}, {"t": 1.015, "press": 2}])
    assert [e["reason"] for e in named(ev, "ignored")] == ["bounce"]
    assert len(named(ev, "penalty")) == 1


def test_uninvited_press_while_open_is_a_penalty():
    ev = run(REVEAL + [{"t": 1.0, "press": 1}])
    assert named(ev, "penalty") == [{"t": 1.0, "event": "penalty", "station": 1, "to_pot": False,
                                     "pot": []}]


def test_same_again_first_in_the_deck_is_requeued_and_the_next_card_revealed():
    ev = run(REVEAL, deck=["S1", "D24"], options={"events": True})
    assert [e["event"] for e in ev][2:5] == ["reveal", "requeued", "reveal"]


def test_timers_run_on_after_the_last_input_to_the_end_of_the_game():
    ev = run(REVEAL + [{"t": 1.0, "press": 3}, {"t": 1.1, "say": "na zdorovie", "end": 1.3}],
             deck=["D24"])
    assert ev[-1]["event"] == "game_over" and ev[-1]["t"] == 4.3
    assert ev[-1]["scores"] == {"1": 0, "2": 0, "3": 1, "4": 0} and ev[-1]["winners"] == [3]


def test_auto_reveal_s_reveals_by_itself():
    ev = run([], options={"auto_reveal_s": 2.0}, deck=["D24"])
    assert ev[-1]["event"] == "game_over"  # revealed at 2.0, unwon at 22.0
    assert named(ev, "reveal")[0]["t"] == 2.0 and named(ev, "unwon")[0]["t"] == 22.0


def test_missing_characters_deck_and_first_are_dealt_from_the_seed():
    a = run([], characters=None, deck=None, first=None, players=5)
    b = run([], characters=None, deck=None, first=None, players=5)
    assert a == b and len(a[1]["characters"]) == 5 and a[1]["cards"] == 30


def test_do_lines_carry_referee_actions():
    ev = run(REVEAL + [{"t": 1.0, "do": {"type": "buzz", "stations": [4]}},
                       {"t": 1.1, "do": {"type": "toast", "end": 1.5, "word": "na zdorovie"}}])
    assert decisions(ev)[:2] == [(1.0, "claim", 4), (1.5, "heard", 4)]


def test_a_bad_do_line_is_rejected_and_loses_nothing():
    ev = run(REVEAL + [{"t": 1.0, "do": {"type": "fly"}}, {"t": 1.2, "press": 3}])
    assert named(ev, "rejected")[0]["reason"].startswith("unknown Tchin Tchin action 'fly'")
    assert named(ev, "claim")[0]["station"] == 3


@pytest.mark.parametrize("over, message", [
    ({"players": 3, "characters": None}, "4 to 8 players"),
    ({"characters": {"1": "FR", "2": "FR", "3": "MX", "4": "RU"}}, "dealt twice"),
    ({"deck": ["D24", "Q7"]}, "unknown card 'Q7'"),
    ({"first": 6}, "first revealer 6"),
    ({"options": {"window_s": -1}}, "window_s"),
    ({"options": {"events": "yes"}}, "events"),
    ({"charaters": {"1": "FR"}}, "unknown header field 'charaters'"),
    ({"bots": [4]}, "unknown header field 'bots'"),
    ({"options": {"colour": "red"}}, "unknown option 'colour'"),
])
def test_a_bad_header_is_a_clear_error(over, message):
    with pytest.raises((HeaderError, ReplayError), match=message):
        run([], **over)


def test_house_rule_a_veto_press_exactly_at_veto_s_is_too_late():
    ev = run(REVEAL + [{"t": 1.0, "press": 3}, {"t": 1.1, "say": "na zdorovie", "end": 1.5},
                       {"t": 4.5, "press": 1}])
    assert named(ev, "win")[0]["t"] == 4.5 and not named(ev, "vetoed")
    assert named(ev, "ignored")[-1] == {"t": 4.5, "event": "ignored", "station": 1,
                                         "reason": "between cards"}


def test_house_rule_a_claim_pressed_exactly_at_card_timeout_s_is_too_late():
    ev = run(REVEAL + [{"t": 20.5, "press": 3}])
    assert named(ev, "unwon")[0]["t"] == 20.5 and not named(ev, "claim")
