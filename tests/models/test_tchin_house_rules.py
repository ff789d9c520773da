"""Tchin Tchin: house rules of docs/rules/tchin-tchin.md, each pinned by a test."""

from __future__ import annotations

from tchin_engine_helpers import FOUR, kinds, named, press, referee, tick, win_card

from models.tchin_tchin import Options, Referee, Table


def test_house_rule_a_pot_left_when_the_deck_runs_out_counts_for_nobody() -> None:
    ref = referee(FOUR, ["D24", "D05"])
    press(ref, 0.5, 1)
    win_card(ref, 3, "na zdorovie", 1.0)  # 3 wins D24
    press(ref, 6.0, 3)  # 3 reveals D05: 1 and 4 invited, 3 is not
    press(ref, 6.5, 3)  # penalty: D24 to the pot
    ev = tick(ref, 40.0)  # D05 times out unwon: the deck is empty
    assert kinds(ev) == ["unwon", "game_over"]
    over = named(ev, "game_over")[0]
    assert over["pot"] == ["D24"]
    assert over["scores"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    assert over["winners"] == [1, 2, 3, 4]


def test_house_rule_a_switched_off_invited_player_keeps_the_card_open_until_the_timeout() -> None:
    # D24 (Russian, tequila, Big Ben) invites MX (3) and RU (4); buzzer 4 is switched off
    ref = Referee(Table({1: "FR", 2: "JP", 3: "MX", 4: "RU"}, ("D24", "D05"), 1), Options(),
                  disabled=frozenset({4}))
    ref.start()
    ev = press(ref, 0.5, 1)
    assert named(ev, "reveal")[0]["invited"] == [3, 4]
    ev = press(ref, 1.0, 3) + tick(ref, 4.0)  # 3 claims and says nothing: a mistake
    assert kinds(ev) == ["claim", "mistake"]
    assert ref.phase == "open"  # 4 is still invited: the card is not unwon yet
    assert kinds(tick(ref, 20.4)) == []
    ev = tick(ref, 20.6)
    assert named(ev, "unwon") == [{"event": "unwon", "card": "D24", "reason": "timeout"}]
