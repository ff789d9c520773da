"""The 50 ingredient cards: five ingredients, every ordered pair twice, stable ids."""

from collections import Counter

import pytest

from models.cheers.cards import CARD_IDS, CARDS, INGREDIENTS, Ingredient, card, ingredient
from models.cheers.scenario import B, G, L, M, P, cid


def test_fifty_cards_every_ordered_pair_twice() -> None:
    assert len(CARDS) == 50
    pairs = Counter((c.big, c.small) for c in CARDS.values())
    assert len(pairs) == 25 and set(pairs.values()) == {2}


def test_ten_cards_per_big_icon_same_colour_pairs_included() -> None:
    bigs = Counter(c.big for c in CARDS.values())
    assert all(bigs[i] == 10 for i in INGREDIENTS)
    assert sum(1 for c in CARDS.values() if c.big == c.small) == 10


def test_card_ids_are_stable() -> None:
    assert CARD_IDS[0] == "C01" and CARD_IDS[-1] == "C50"
    assert (CARDS["C01"].big, CARDS["C01"].small) == (G, G)
    assert (CARDS["C03"].big, CARDS["C03"].small) == (G, M)
    assert (CARDS["C50"].big, CARDS["C50"].small) == (B, B)
    assert cid(L, P, 1) == "C28" and CARDS["C28"].big == L and CARDS["C28"].small == P


def test_five_ingredients_with_the_seed_colours() -> None:
    assert [i.colour_name for i in INGREDIENTS] == ["red", "green", "yellow", "purple", "blue"]
    assert [i.label for i in INGREDIENTS] == ["Grenadine", "Mint", "Lemon", "Cassis", "Curaçao"]
    assert ingredient("Curaçao") is Ingredient.CURACAO and ingredient("PURPLE") is P


def test_unknown_card_and_ingredient_are_named() -> None:
    with pytest.raises(ValueError, match="C51"):
        card("C51")
    with pytest.raises(ValueError, match="rum"):
        ingredient("rum")


def test_clinks_with_is_small_icon_against_big_icon() -> None:
    played, front = CARDS[cid(M, L)], CARDS[cid(L, G)]
    assert played.clinks_with(front)
    assert not front.clinks_with(played)  # big of played == small of front: no cheers
