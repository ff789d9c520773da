"""The five ingredients and the 50 ingredient cards of Cheers.

A card has a BIG icon (its own ingredient) and a SMALL icon (the ingredient it
clinks with). Every ordered pair (big, small) occurs exactly twice, so there are
10 cards per big icon, same-ingredient pairs included.

Card ids are stable: ``C01`` .. ``C50``, in the order big icon, then small icon
(both in :data:`INGREDIENTS` order), then copy 1 before copy 2.

>>> CARDS["C01"]
Card(id='C01', big=<Ingredient.GRENADINE: 'grenadine'>, small=<Ingredient.GRENADINE: 'grenadine'>)
>>> CARDS["C04"].small.label
'Mint'
>>> len(CARDS)
50
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Ingredient(str, Enum):
    """One of the five ingredients; the value is its id in actions and headers."""

    GRENADINE = "grenadine"
    MINT = "mint"
    LEMON = "lemon"
    CASSIS = "cassis"
    CURACAO = "curacao"

    @property
    def label(self) -> str:
        """The name printed on the table."""
        return _LABELS[self]

    @property
    def colour_name(self) -> str:
        """The seed's colour for this ingredient."""
        return _COLOURS[self]


_LABELS = {
    Ingredient.GRENADINE: "Grenadine",
    Ingredient.MINT: "Mint",
    Ingredient.LEMON: "Lemon",
    Ingredient.CASSIS: "Cassis",
    Ingredient.CURACAO: "Curaçao",
}
_COLOURS = {
    Ingredient.GRENADINE: "red",
    Ingredient.MINT: "green",
    Ingredient.LEMON: "yellow",
    Ingredient.CASSIS: "purple",
    Ingredient.CURACAO: "blue",
}

INGREDIENTS: tuple[Ingredient, ...] = tuple(Ingredient)
COPIES_PER_PAIR = 2
DECK_SIZE = len(INGREDIENTS) ** 2 * COPIES_PER_PAIR


def ingredient(name: str) -> Ingredient:
    """Parse an ingredient by its id, its label or its seed colour (any case).

    >>> ingredient("Curaçao"), ingredient("green")
    (<Ingredient.CURACAO: 'curacao'>, <Ingredient.MINT: 'mint'>)
    """
    key = str(name).strip().lower().replace("ç", "c")
    for ing in INGREDIENTS:
        if key in (ing.value, ing.colour_name):
            return ing
    known = ", ".join(i.value for i in INGREDIENTS)
    raise ValueError(f"unknown ingredient {name!r} (expected one of {known})")


@dataclass(frozen=True)
class Card:
    """One ingredient card: ``big`` is what it is, ``small`` what it clinks with."""

    id: str
    big: Ingredient
    small: Ingredient

    def clinks_with(self, other: Card) -> bool:
        """True when this card, played, makes a CHEERS with ``other`` already in a front."""
        return self.small == other.big

    def label(self) -> str:
        """Short table text, e.g. ``Mint/lemon``: big icon, then small icon."""
        return f"{self.big.label}/{self.small.label.lower()}"


def _build_deck() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    number = 1
    for big in INGREDIENTS:
        for small in INGREDIENTS:
            for _copy in range(COPIES_PER_PAIR):
                card_id = f"C{number:02d}"
                cards[card_id] = Card(card_id, big, small)
                number += 1
    return cards


#: every card by id, in id order
CARDS: dict[str, Card] = _build_deck()
CARD_IDS: tuple[str, ...] = tuple(CARDS)


def card(card_id: str) -> Card:
    """The card with this id; a clear error for an unknown id."""
    try:
        return CARDS[str(card_id).strip().upper()]
    except KeyError:
        raise ValueError(f"unknown card {card_id!r} (cards are C01 to C{DECK_SIZE})") from None
