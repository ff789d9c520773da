"""The Tchin Tchin cards are exactly the rules page's tables."""

from __future__ import annotations

import pytest

from models.tchin_tchin.cards import (
    CARDS,
    CHARACTERS,
    DRINK_CARDS,
    EVENT_CARDS,
    TOURISTS,
    Combination,
    card,
    combinations_of,
    is_invited_by,
)
from models.toasts import TOASTS

RULES_PAGE = {
    "W1": ("DE", "beer", "big_ben"), "W2": ("DE", "tea", "brandenburg_gate"),
    "W3": ("DE", "tea", "big_ben"), "W4": ("EN", "beer", "brandenburg_gate"),
    "W5": ("EN", "beer", "big_ben"), "W6": ("EN", "tea", "brandenburg_gate"),
    "D01": ("DE", "champagne", "himeji_castle"), "D02": ("DE", "champagne", "mayan_pyramid"),
    "D03": ("EN", "tequila", "himeji_castle"), "D04": ("EN", "vodka", "eiffel_tower"),
    "D05": ("FR", "beer", "red_square"), "D06": ("FR", "sake", "brandenburg_gate"),
    "D07": ("FR", "tequila", "brandenburg_gate"), "D08": ("FR", "tequila", "red_square"),
    "D09": ("FR", "vodka", "mayan_pyramid"), "D10": ("JP", "tea", "mayan_pyramid"),
    "D11": ("JP", "champagne", "mayan_pyramid"), "D12": ("JP", "tequila", "red_square"),
    "D13": ("JP", "vodka", "big_ben"), "D14": ("JP", "vodka", "eiffel_tower"),
    "D15": ("MX", "tea", "himeji_castle"), "D16": ("MX", "champagne", "red_square"),
    "D17": ("MX", "sake", "eiffel_tower"), "D18": ("MX", "sake", "red_square"),
    "D19": ("MX", "vodka", "himeji_castle"), "D20": ("RU", "beer", "eiffel_tower"),
    "D21": ("RU", "champagne", "himeji_castle"), "D22": ("RU", "sake", "eiffel_tower"),
    "D23": ("RU", "sake", "mayan_pyramid"), "D24": ("RU", "tequila", "big_ben"),
}


def test_thirty_drink_cards_exactly_as_the_rules_page_table():
    assert len(DRINK_CARDS) == 30
    for cid, (drinker, drink, location) in RULES_PAGE.items():
        c = DRINK_CARDS[cid]
        assert (c.drinker, c.drink, c.location) == (drinker, drink, location), cid
        assert c.walking_man == cid.startswith("W")


def test_walking_man_cards_hold_only_german_and_english_elements():
    de, en = CHARACTERS["DE"], CHARACTERS["EN"]
    for c in DRINK_CARDS.values():
        if c.walking_man:
            assert c.drinker in ("DE", "EN")
            assert c.drink in (de.drink, en.drink) and c.location in (de.location, en.location)


def test_characters_words_gestures_and_locations():
    assert {c: ch.word for c, ch in CHARACTERS.items()} == {
        "DE": "prost", "EN": "cheers", "FR": "tchin tchin", "JP": "kanpai", "MX": "salud",
        "RU": "na zdorovie"}
    assert CHARACTERS["MX"].gesture == "knock on the table"
    assert CHARACTERS["RU"].gesture == "throw the glass over the shoulder"
    assert all(ch.word in TOASTS for ch in CHARACTERS.values())


def test_tourists_locations():
    assert set(TOURISTS["TM"].locations) == {"eiffel_tower", "big_ben", "brandenburg_gate"}
    assert set(TOURISTS["TW"].locations) == {"himeji_castle", "mayan_pyramid", "red_square"}


def test_six_event_cards():
    assert {cid: e.kind for cid, e in EVENT_CARDS.items()} == {
        "R1": "my_round", "R2": "my_round", "S1": "same_again", "S2": "same_again",
        "M1": "middleman", "M2": "middleman"}
    assert len(CARDS) == 36


def test_seed_example_russian_drinking_tequila_at_big_ben_is_d24():
    d24 = DRINK_CARDS["D24"]
    assert d24.combination == Combination("na zdorovie", "tequila")
    invited = {code for code in CHARACTERS if is_invited_by(code, d24)}
    assert invited == {"MX", "EN", "RU"}


def test_tourist_man_accepts_any_combination_of_his_locations_nations():
    assert {c.word for c in combinations_of("TM")} == {"tchin tchin", "cheers", "prost"}
    assert {c.word for c in combinations_of("TW")} == {"kanpai", "salud", "na zdorovie"}


def test_unknown_card_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown card 'X9'"):
        card("X9")
