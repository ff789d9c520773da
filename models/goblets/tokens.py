"""The tokens of Raise Your Goblets, the common pool, and what a goblet does to its drinker."""

from __future__ import annotations

from collections import Counter
from enum import Enum


class Token(str, Enum):
    """A plastic token: what can be poured into a goblet."""

    WINE = "wine"
    POISON = "poison"
    ANTIDOTE = "antidote"
    UNICORN = "unicorn"  # the Unicorn Antidote
    OGRE = "ogre"  # the Ogre Poison

    @classmethod
    def parse(cls, name: object) -> Token:
        """A token from its name (``"wine"``, ``"Ogre Poison"``...); ValueError names the bad one."""
        key = str(name).strip().lower().replace("_", " ")
        key = {"unicorn antidote": "unicorn", "ogre poison": "ogre"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            known = ", ".join(t.value for t in cls)
            raise ValueError(f"unknown token {name!r} (known: {known})") from None


#: the box's whole supply: 52 tokens, conserved across pool, screens and goblets
POOL: dict[Token, int] = {
    Token.WINE: 21,
    Token.POISON: 15,
    Token.ANTIDOTE: 14,
    Token.UNICORN: 1,
    Token.OGRE: 1,
}

#: what each player takes behind their screen at the start of each course
SCREEN_START: dict[Token, int] = {Token.WINE: 3, Token.POISON: 2, Token.ANTIDOTE: 2}

Tokens = Counter  # a multiset of Token: a screen, a goblet, the pool


def goblet_setup(goblets: int) -> Counter[Token]:
    """The tokens poured one per goblet at course set-up: 1 Antidote, 2 Poison, Wine for the rest.

    >>> as_names(goblet_setup(5))
    {'wine': 2, 'poison': 2, 'antidote': 1}
    """
    if goblets < 3:
        raise ValueError(f"a course needs at least 3 goblets, not {goblets}")
    return Counter({Token.ANTIDOTE: 1, Token.POISON: 2, Token.WINE: goblets - 3})


def survives(goblet: Counter[Token], hypochondriac: bool = False) -> bool:
    """Whether the drinker of ``goblet`` survives.

    The Unicorn Antidote saves whatever else is inside; otherwise each Antidote removes one
    ordinary Poison (two for the Hypochondriac); any Poison left, or the Ogre Poison, kills.

    >>> survives(Counter({Token.POISON: 1, Token.ANTIDOTE: 1}))
    True
    >>> survives(Counter({Token.OGRE: 1, Token.ANTIDOTE: 3}))
    False
    >>> survives(Counter({Token.OGRE: 1, Token.POISON: 2, Token.UNICORN: 1}))
    True
    >>> survives(Counter({Token.POISON: 2, Token.ANTIDOTE: 1}), hypochondriac=True)
    True
    """
    if goblet[Token.UNICORN] > 0:
        return True
    if goblet[Token.OGRE] > 0:
        return False
    cures = goblet[Token.ANTIDOTE] * (2 if hypochondriac else 1)
    return goblet[Token.POISON] <= cures


def as_names(tokens: Counter[Token]) -> dict[str, int]:
    """A multiset as ``{"wine": 2, ...}`` with zero counts dropped, in the pool's order."""
    return {t.value: tokens[t] for t in Token if tokens[t] > 0}
