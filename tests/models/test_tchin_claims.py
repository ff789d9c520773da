"""Claims, the lock and the listening window (rules page: how the device referees)."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, kinds, named, press, referee, say, tick


def opened(deck=("D24", "D05"), **opts):
    """D24 on the table: 3 (Mexican) and 4 (Russian) invited, 1 and 2 not; the word is na zdorovie."""
    ref = referee(FOUR, deck, **opts)
    press(ref, 0.5, 1)
    return ref


def test_first_claim_by_an_invited_player_locks_the_other_buzzers():
    ref = opened()
    ev = press(ref, 1.0, 3)
    assert named(ev, "claim") == [{"event": "claim", "station": 3, "reaction_ms": 500,
                                   "window_ends": 3.5}]
    ev = press(ref, 1.2, 4) + press(ref, 1.3, 1)
    assert [(e["station"], e["reason"]) for e in ev] == [(4, "locked"), (1, "locked")]
    assert ref.pot == [] and not named(ev, "penalty")


def test_toast_starting_pre_s_before_the_press_counts():
    ref = opened()
    say(ref, 1.0, 1.3, "na zdorovie")  # starts exactly pre_s = 1.0 before the press
    ev = press(ref, 2.0, 3)
    assert kinds(ev) == ["claim", "heard", "correct", "veto_window"]


def test_toast_starting_earlier_than_pre_s_before_the_press_does_not_count():
    ref = opened()
    say(ref, 0.9, 1.3, "na zdorovie")
    ev = press(ref, 2.0, 3) + tick(ref, 4.5)
    assert named(ev, "mistake") == [{"event": "mistake", "station": 3, "reason": "no toast"}]


def test_toast_ending_exactly_at_the_end_of_the_window_counts():
    ref = opened()
    press(ref, 1.25, 3)
    say(ref, 3.3, 3.75, "na zdorovie")  # press + window_s = 3.75
    ev = tick(ref, 3.75)
    assert kinds(ev) == ["heard", "correct", "veto_window"]


def test_toast_ending_after_the_window_is_a_no_toast_mistake_at_the_window_end():
    ref = opened()
    press(ref, 1.25, 3)
    say(ref, 3.3, 3.8, "na zdorovie")
    ev = tick(ref, 3.75)
    assert named(ev, "mistake") == [{"event": "mistake", "station": 3, "reason": "no toast"}]


def test_toast_decides_at_the_later_of_its_end_and_the_press():
    ref = opened()
    say(ref, 1.0, 1.4, "na zdorovie")
    assert kinds(press(ref, 1.5, 3))[:2] == ["claim", "heard"]  # ended before the press: decided at it
    ref = opened()
    press(ref, 1.0, 3)
    say(ref, 1.2, 2.0, "na zdorovie")
    assert tick(ref, 1.99) == []
    assert ref.next_deadline() == 2.0
    assert kinds(tick(ref, 2.0)) == ["heard", "correct", "veto_window"]


def test_first_toast_that_counts_decides():
    ref = opened()
    press(ref, 1.0, 3)
    say(ref, 1.1, 1.5, "salud")
    say(ref, 1.6, 2.0, "na zdorovie")
    ev = tick(ref, 2.5)
    assert named(ev, "heard") == [{"event": "heard", "station": 3, "word": "salud"}]
    assert named(ev, "mistake")[0]["reason"] == "wrong word"


def test_one_toast_decides_at_most_one_claim():
    ref = opened()
    press(ref, 1.0, 3)
    say(ref, 1.1, 1.4, "salud")
    tick(ref, 1.4)  # 3 mistaken by "salud"
    ev = press(ref, 1.5, 4) + tick(ref, 4.0)  # "salud" is within 4's window too, but used up
    assert named(ev, "mistake") == [{"event": "mistake", "station": 4, "reason": "no toast"}]


def test_wrong_word_is_a_mistake_not_penalized():
    ref = opened()
    ev = press(ref, 1.0, 3) + say(ref, 1.1, 1.5, "kanpai") + tick(ref, 1.5)
    assert kinds(ev) == ["claim", "heard", "mistake"]
    assert ref.pot == [] and ref.phase == "open"


def test_after_a_mistake_that_players_later_presses_on_the_card_are_ignored():
    ref = opened()
    press(ref, 1.0, 3)
    tick(ref, 3.5)
    ev = press(ref, 4.0, 3)
    assert ev == [{"event": "ignored", "station": 3, "reason": "mistaken"}]
    assert ref.phase == "open"


def test_after_a_mistake_the_other_invited_players_may_claim():
    ref = opened()
    press(ref, 1.0, 3)
    tick(ref, 3.5)
    ev = press(ref, 4.0, 4) + say(ref, 4.1, 4.5, "na zdorovie") + tick(ref, 8.0)
    assert named(ev, "win")[0]["station"] == 4


def test_no_toast_by_the_end_of_the_window_is_a_mistake_at_that_moment():
    ref = opened(window_s=2.0)
    press(ref, 1.0, 3)
    assert tick(ref, 2.99) == []
    assert named(tick(ref, 3.0), "mistake") == [{"event": "mistake", "station": 3,
                                                 "reason": "no toast"}]


def test_exact_ties_go_to_the_lower_station_and_name_the_others():
    ref = opened()
    ev = press(ref, 1.0, 4, 3)
    assert named(ev, "claim")[0]["station"] == 3 and named(ev, "claim")[0]["tied"] == [4]


def test_earliest_edge_timestamp_wins():
    ref = opened()
    ev = press(ref, 1.0001, 4) + press(ref, 1.0002, 3)
    assert named(ev, "claim")[0]["station"] == 4
    assert "tied" not in named(ev, "claim")[0]


def test_house_rule_presses_of_the_same_instant_are_taken_in_station_order():
    ref = opened(deck=("D24", "D05", "D01"))
    tick(ref, 30.0)  # D24 unwon
    press(ref, 31.0, 1)  # D05: 1 (FR) and 4 (RU) invited
    ev = press(ref, 32.0, 1, 2)  # same instant: 1 claims first, 2 (not invited) meets the lock
    assert kinds(ev) == ["claim", "ignored"] and ev[-1]["reason"] == "locked"


def test_house_rule_same_instant_a_lower_uninvited_station_is_penalized_before_the_claim():
    ref = opened(deck=("D24", "D05", "D01"))
    ev = press(ref, 1.0, 2, 3)  # D24 invites 3 and 4; 2 is not invited and goes first
    assert kinds(ev) == ["penalty", "claim"]


def test_toasts_that_are_not_toast_words_are_refused_by_the_referee():
    import pytest

    from models.base import IllegalAction

    ref = opened()
    with pytest.raises(IllegalAction, match="not a toast"):
        say(ref, 1.0, 1.2, "hello")


def test_a_toast_with_no_claim_changes_nothing():
    ref = opened()
    assert say(ref, 1.0, 1.4, "na zdorovie") == []
    assert tick(ref, 10.0) == [] and ref.phase == "open"
