"""Setting the table for 4 to 8 players (rules page: player counts)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from models.tchin_tchin.setup import SetupError, deal


def test_four_players_play_without_german_english_and_walking_man_cards():
    t = deal(4, random.Random(1))
    assert sorted(t.characters.values()) == ["FR", "JP", "MX", "RU"]
    assert len(t.deck) == 24 and not any(c.startswith("W") for c in t.deck)


def test_five_players_withdraw_one_character_at_random():
    withdrawn = Counter()
    for seed in range(60):
        t = deal(5, random.Random(seed))
        codes = set(t.characters.values())
        assert len(codes) == 5 and codes < {"DE", "EN", "FR", "JP", "MX", "RU"}
        assert len(t.deck) == 30
        withdrawn.update({"DE", "EN", "FR", "JP", "MX", "RU"} - codes)
    assert len(withdrawn) == 6  # every character can be the one withdrawn


def test_six_players_play_every_character_and_thirty_cards():
    t = deal(6, random.Random(2))
    assert sorted(t.characters.values()) == ["DE", "EN", "FR", "JP", "MX", "RU"]
    assert sorted(t.deck) == sorted([f"W{i}" for i in range(1, 7)] + [f"D{i:02}" for i in range(1, 25)])


def test_seven_players_add_one_tourist_drawn_at_random():
    tourists = Counter()
    for seed in range(40):
        codes = list(deal(7, random.Random(seed)).characters.values())
        extra = [c for c in codes if c in ("TM", "TW")]
        assert len(codes) == 7 and len(extra) == 1
        tourists.update(extra)
    assert set(tourists) == {"TM", "TW"}


def test_eight_players_add_both_tourists():
    assert {"TM", "TW"} <= set(deal(8, random.Random(3)).characters.values())


def test_events_variant_shuffles_the_six_event_cards_into_the_deck():
    deck = deal(6, random.Random(4), events=True).deck
    assert len(deck) == 36 and {"R1", "R2", "S1", "S2", "M1", "M2"} <= set(deck)
    assert not {"R1", "S1", "M1"} & set(deal(6, random.Random(4)).deck)


def test_characters_dealt_at_random_and_first_revealer_drawn_at_random():
    firsts = {deal(6, random.Random(s)).first for s in range(40)}
    deals = {tuple(deal(6, random.Random(s)).characters.values()) for s in range(40)}
    assert firsts == {1, 2, 3, 4, 5, 6}
    assert len(deals) > 20


def test_same_seed_same_table():
    assert deal(7, random.Random(9), events=True) == deal(7, random.Random(9), events=True)


def test_seats_are_stations_in_order():
    t = deal(4, random.Random(0), characters={5: "FR", 2: "JP", 7: "MX", 3: "RU"})
    assert t.seats == (2, 3, 5, 7)


@pytest.mark.parametrize("players", [3, 9])
def test_player_count_outside_four_to_eight_is_refused(players):
    with pytest.raises(SetupError, match="4 to 8 players"):
        deal(players, random.Random(0))


@pytest.mark.parametrize("chars, message", [
    ({1: "FR", 2: "FR", 3: "MX", 4: "RU"}, "dealt twice"),
    ({1: "FR", 2: "XX", 3: "MX", 4: "RU"}, "unknown character 'XX'"),
    ({1: "FR", 2: "TM", 3: "MX", 4: "RU"}, "tourists play only"),
    ({1: "FR", 2: "JP", 3: "MX"}, "4 players but 3 characters"),
])
def test_a_picked_table_that_breaks_the_rules_is_refused(chars, message):
    with pytest.raises(SetupError, match=message):
        deal(4, random.Random(0), characters=chars)


@pytest.mark.parametrize("players, chars, message", [
    (4, {1: "DE", 2: "EN", 3: "FR", 4: "JP"}, "4-player table plays FR JP MX RU, not DE EN"),
    (6, {1: "FR", 2: "JP", 3: "MX", 4: "RU", 5: "DE", 6: "DE"}, "dealt twice"),
    (7, {1: "FR", 2: "JP", 3: "MX", 4: "DE", 5: "EN", 6: "TM", 7: "TW"}, "all six characters; RU missing"),
    (8, {1: "FR", 2: "JP", 3: "MX", 4: "DE", 5: "EN", 6: "TM", 7: "TW", 8: "XX"}, "unknown character"),
])
def test_a_picked_table_must_hold_its_player_counts_characters(players, chars, message):
    with pytest.raises(SetupError, match=message):
        deal(players, random.Random(0), characters=chars)


@pytest.mark.parametrize("players, chars", [
    (4, {1: "RU", 2: "MX", 3: "JP", 4: "FR"}),
    (5, {1: "DE", 2: "EN", 3: "FR", 4: "JP", 5: "MX"}),
    (7, {1: "FR", 2: "JP", 3: "MX", 4: "RU", 5: "DE", 6: "EN", 7: "TW"}),
])
def test_a_picked_table_of_the_player_counts_characters_is_dealt(players, chars):
    assert dict(deal(players, random.Random(0), characters=chars).characters) == chars


def test_a_scripted_deck_with_an_unknown_or_repeated_card_is_refused():
    with pytest.raises(SetupError, match="unknown card 'Z1'"):
        deal(4, random.Random(0), deck=["D01", "Z1"])
    with pytest.raises(SetupError, match="twice"):
        deal(4, random.Random(0), deck=["D01", "D01"])


def test_first_revealer_must_be_seated():
    with pytest.raises(SetupError, match="first revealer 9"):
        deal(4, random.Random(0), first=9)
