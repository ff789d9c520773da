"""Revealers, cards nobody wins, the end, scores and reaction times (rules page)."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, kinds, named, press, referee, say, tick, win_card


def test_only_the_revealers_press_reveals_the_first_card():
    ref = referee(FOUR, ["D24"], first=2)
    assert press(ref, 0.3, 1) == [{"event": "ignored", "station": 1, "reason": "between cards"}]
    assert named(press(ref, 0.5, 2), "reveal")[0]["revealer"] == 2


def test_the_winner_of_the_last_card_reveals_the_next():
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    win_card(ref, 4, "na zdorovie", 1.0)
    assert ref.revealer == 4
    assert kinds(press(ref, 6.0, 1)) == ["ignored"]
    assert named(press(ref, 6.1, 4), "reveal")[0]["revealer"] == 4


def test_a_card_nobody_won_is_followed_by_the_same_revealer():
    ref = referee(FOUR, ["D24", "D05"], first=2)
    press(ref, 0.5, 2)
    tick(ref, 25.0)
    assert ref.revealer == 2 and ref.phase == "between"


def test_card_is_unwon_when_every_invited_player_has_made_a_mistake():
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    tick(ref, 3.5)
    press(ref, 4.0, 4)
    ev = say(ref, 4.1, 4.4, "salud") + tick(ref, 4.4)
    assert kinds(ev) == ["heard", "mistake", "unwon"]
    assert named(ev, "unwon")[0] == {"event": "unwon", "card": "D24", "reason": "all invited mistaken"}


def test_card_is_unwon_after_card_timeout_s_since_the_reveal():
    ref = referee(FOUR, ["D24", "D05"], card_timeout_s=10.0)
    press(ref, 0.5, 1)
    assert tick(ref, 10.49) == []
    assert named(tick(ref, 10.5), "unwon") == [{"event": "unwon", "card": "D24", "reason": "timeout"}]


def test_a_timeout_during_a_live_claim_waits_for_it():
    ref = referee(FOUR, ["D24", "D05"], card_timeout_s=2.0)
    press(ref, 0.5, 1)
    press(ref, 2.0, 3)  # the claim runs until 4.5, past the timeout at 2.5
    assert tick(ref, 3.0) == []
    ev = tick(ref, 4.5)
    assert kinds(ev) == ["mistake", "unwon"]


def test_a_timeout_during_a_claim_that_ends_in_a_win_does_not_apply():
    ref = referee(FOUR, ["D24", "D05"], card_timeout_s=2.0)
    press(ref, 0.5, 1)
    press(ref, 2.0, 3)
    say(ref, 2.1, 2.8, "na zdorovie")
    ev = tick(ref, 9.0)
    assert kinds(ev) == ["heard", "correct", "veto_window", "win"]


def test_a_timeout_during_a_veto_window_that_ends_in_a_veto_discards_the_card():
    ref = referee(FOUR, ["D24", "D05"], card_timeout_s=2.0)
    press(ref, 0.5, 1)
    press(ref, 2.0, 3)
    say(ref, 2.1, 2.4, "na zdorovie")
    tick(ref, 2.4)
    ev = press(ref, 3.0, 1)
    assert kinds(ev) == ["veto_vote", "vetoed", "mistake", "unwon"]


def test_the_game_ends_when_the_deck_is_empty():
    ref = referee(FOUR, ["D24"])
    press(ref, 0.5, 1)
    ev = win_card(ref, 3, "na zdorovie", 1.0)
    assert ev[-1]["event"] == "game_over" and ref.phase == "over"
    assert ev[-1]["scores"] == {"1": 0, "2": 0, "3": 1, "4": 0} and ev[-1]["winners"] == [3]


def test_an_empty_deck_ends_the_game_at_once():
    from models.tchin_tchin import Referee, Table

    ref = Referee(Table({1: "FR", 2: "JP", 3: "MX", 4: "RU"}, (), 1))
    assert kinds([h.as_dict() for h in ref.start()]) == ["dealt", "game_over"]


def test_score_counts_every_card_in_the_pile_event_cards_included():
    ref = referee(FOUR, ["D24", "R1"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)
    press(ref, 6.0, 3)  # It's my round, revealed by the Mexican: salud
    ev = win_card(ref, 1, "salud", 6.5)
    assert ev[-1]["scores"] == {"1": 1, "2": 0, "3": 1, "4": 0}
    assert ev[-1]["winners"] == [1, 3]  # equal top scores share the victory


def test_reaction_times_are_press_minus_reveal_with_mean_and_fastest_correct():
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    tick(ref, 3.5)  # 3 mistaken after 500 ms
    win_card(ref, 4, "na zdorovie", 4.0)  # 4 wins after 3500 ms
    press(ref, 8.0, 4)
    ev = win_card(ref, 4, "tchin tchin", 9.0)  # after 1000 ms
    r = ev[-1]["reactions"]
    assert r["3"] == {"claims": 1, "mean_ms": 500, "fastest_correct_ms": None}
    assert r["4"] == {"claims": 2, "mean_ms": 2250, "fastest_correct_ms": 1000}
    assert named(ev, "win")[0]["reaction_ms"] == 1000


def test_auto_reveal_after_auto_reveal_s():
    ref = referee(FOUR, ["D24", "D05"], auto_reveal_s=4.0)
    assert ref.next_deadline() == 4.0
    ev = tick(ref, 4.0)
    assert named(ev, "reveal")[0]["by"] == "box" and named(ev, "reveal")[0]["revealer"] == 1


def test_the_game_never_loses_or_creates_a_card():
    deck = ["D24", "S1", "D05", "M1", "D11"]
    ref = referee(FOUR, deck)
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)
    press(ref, 6.0, 3)
    press(ref, 6.2, 2)
    say(ref, 6.3, 6.6, "salud")
    tick(ref, 30.0)
    assert ref.all_cards() == sorted(deck)
