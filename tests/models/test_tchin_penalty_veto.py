"""Penalties, the pot and the veto (rules page: how the device referees)."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, kinds, named, press, referee, say, tick, win_card


def test_penalty_uninvited_press_gives_back_one_won_card_to_the_pot():
    ref = referee(FOUR, ["D24", "D05", "D11"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)  # 3 has D24
    press(ref, 6.0, 3)  # D05: 1 and 4 invited; 3 is not
    ev = press(ref, 6.5, 3)
    assert ev == [{"event": "penalty", "station": 3, "to_pot": True, "card": "D24", "pot": ["D24"]}]
    assert ref.piles[3] == [] and ref.pot == ["D24"]


def test_penalty_with_no_won_card_gives_nothing():
    ref = referee(FOUR, ["D24"])
    press(ref, 0.5, 1)
    ev = press(ref, 1.0, 2)
    assert ev == [{"event": "penalty", "station": 2, "to_pot": False, "pot": []}]


def test_the_pot_goes_to_the_winner_of_the_next_won_card_with_that_card():
    ref = referee(FOUR, ["D24", "D05", "D11"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)
    press(ref, 6.0, 3)
    press(ref, 6.5, 3)  # penalty: D24 to the pot
    tick(ref, 30.0)  # D05 unwon: the pot waits
    assert ref.pot == ["D24"]
    press(ref, 31.0, 3)  # D11: 1, 2, 3 invited
    ev = win_card(ref, 2, "kanpai", 31.5)
    assert named(ev, "win")[0]["pot"] == ["D24"] and named(ev, "win")[0]["card"] == "D11"
    assert sorted(ref.piles[2]) == ["D11", "D24"] and ref.pot == []


def test_presses_during_a_lock_are_ignored_not_penalized():
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)
    press(ref, 6.0, 3)
    press(ref, 6.5, 4)  # 4 claims D05
    ev = press(ref, 6.7, 3)  # not invited, but the card is locked
    assert ev == [{"event": "ignored", "station": 3, "reason": "locked"}] and ref.piles[3] == ["D24"]


def test_presses_between_cards_other_than_the_revealer_are_ignored():
    ref = referee(FOUR, ["D24"])
    ev = press(ref, 0.5, 2)
    assert ev == [{"event": "ignored", "station": 2, "reason": "between cards"}]
    assert ref.phase == "between"


def test_veto_threshold_is_half_the_uninvited_players_rounded_up():
    ref = referee("DE EN FR JP MX RU", ["D24"])  # invited 2, 5, 6; voters 1, 3, 4: 2 needed
    press(ref, 0.5, 1)
    ev = press(ref, 1.0, 5) + say(ref, 1.1, 1.5, "na zdorovie") + tick(ref, 1.5)
    assert named(ev, "veto_window")[0]["needed"] == 2
    assert named(ev, "veto_window")[0]["voters"] == [1, 3, 4]
    ev = press(ref, 2.0, 1)
    assert kinds(ev) == ["veto_vote"] and ref.phase == "veto"
    ev = press(ref, 2.5, 4)
    assert kinds(ev) == ["veto_vote", "vetoed", "mistake"]
    assert named(ev, "mistake")[0] == {"event": "mistake", "station": 5, "reason": "vetoed"}


def test_veto_window_closes_early_at_the_threshold():
    ref = referee(FOUR, ["D24"])  # voters 1 and 2: one vote is enough
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    say(ref, 1.1, 1.5, "na zdorovie")
    tick(ref, 1.5)
    ev = press(ref, 1.6, 2)
    assert kinds(ev) == ["veto_vote", "vetoed", "mistake"]
    assert ref.phase == "open"  # 4 may still claim


def test_vetoed_counts_as_a_mistake():
    ref = referee(FOUR, ["D24"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    say(ref, 1.1, 1.5, "na zdorovie")
    tick(ref, 1.5)
    press(ref, 1.6, 2)
    assert press(ref, 2.0, 3) == [{"event": "ignored", "station": 3, "reason": "mistaken"}]


def test_veto_not_reached_within_veto_s_the_claimant_wins():
    ref = referee("DE EN FR JP MX RU", ["D24"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 5)
    say(ref, 1.1, 1.5, "na zdorovie")
    tick(ref, 1.5)
    press(ref, 2.0, 1)  # one vote of two
    assert tick(ref, 4.49) == []
    ev = tick(ref, 4.5)
    assert named(ev, "win")[0]["station"] == 5


def test_during_a_veto_window_other_presses_are_ignored_and_a_voter_counts_once():
    ref = referee("DE EN FR JP MX RU", ["D24"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 5)
    say(ref, 1.1, 1.5, "na zdorovie")
    tick(ref, 1.5)
    ev = press(ref, 2.0, 6) + press(ref, 2.1, 1) + press(ref, 2.2, 1)
    assert [e.get("reason", e["event"]) for e in ev] == ["veto window", "veto_vote", "already voted"]
    assert ref.phase == "veto"


def test_with_no_uninvited_players_there_is_no_veto_window():
    from models.tchin_tchin import Options, Referee, Table

    # 1 and 2 are the only players not invited and their buzzers are disabled: nobody can veto
    ref = Referee(Table({1: "FR", 2: "JP", 3: "MX", 4: "RU"}, ("D24",), 3), Options(),
                  disabled=frozenset({1, 2}))
    ref.start()
    press(ref, 0.5, 3)
    ev = press(ref, 1.0, 4) + say(ref, 1.1, 1.5, "na zdorovie") + tick(ref, 1.5)
    assert kinds(ev) == ["claim", "heard", "correct", "win", "game_over"]


def test_only_the_live_claim_can_be_vetoed():
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    tick(ref, 3.5)  # 3: no toast
    press(ref, 4.0, 4)
    say(ref, 4.1, 4.5, "na zdorovie")
    ev = tick(ref, 4.5) + press(ref, 5.0, 1)
    assert named(ev, "vetoed") == [{"event": "vetoed", "station": 4, "voters": [1]}]


def test_house_rule_penalty_gives_back_the_last_card_won():
    ref = referee(FOUR, ["D24", "D11", "D05"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)  # 3 wins D24
    press(ref, 6.0, 3)  # D11: 1, 2, 3 invited
    win_card(ref, 3, "kanpai", 6.5)  # 3 wins D11
    press(ref, 11.0, 3)  # D05: 1 and 4 invited
    ev = press(ref, 11.5, 3)
    assert ev[0]["card"] == "D11" and ref.piles[3] == ["D24"]


def test_house_rule_without_speech_a_claim_is_judged_by_the_veto_vote_alone():
    ref = referee(FOUR, ["D24", "D05"], speech=False)
    press(ref, 0.5, 1)
    ev = press(ref, 1.0, 3)
    assert kinds(ev) == ["claim", "correct", "veto_window"]
    assert named(ev, "correct")[0]["word"] is None
    ev = press(ref, 1.5, 1)  # one of the two players not invited: half, rounded up
    assert kinds(ev) == ["veto_vote", "vetoed", "mistake"]
    press(ref, 2.0, 4)
    ev = tick(ref, 5.0)
    assert named(ev, "win")[0]["station"] == 4


def test_house_rule_the_microphone_lost_during_a_claim_sends_it_to_the_veto_vote():
    from models.tchin_tchin.actions import Hearing

    ref = referee(FOUR, ["D24"])
    press(ref, 0.5, 1)
    press(ref, 1.0, 3)
    ev = [h.as_dict() for h in ref.apply(Hearing(1.5, False))]
    assert [e["event"] for e in ev] == ["hearing", "correct", "veto_window"]
    assert ref.hearing is False
    ev = [h.as_dict() for h in ref.apply(Hearing(2.0, True))]
    assert ev == [{"event": "hearing", "available": True}]


def test_house_rule_veto_needs_half_the_voters_rounded_up():
    from models.tchin_tchin.rules import veto_needed

    assert [veto_needed(frozenset(range(n))) for n in range(1, 8)] == [1, 1, 2, 2, 3, 3, 4]
