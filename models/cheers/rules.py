"""The table rules that are pure functions of cards: clinking, the front limit, goals.

>>> from models.cheers.cards import CARDS
>>> goal = (Ingredient.GRENADINE, Ingredient.GRENADINE, Ingredient.MINT, Ingredient.MINT, Ingredient.LEMON)
>>> front = ["C01", "C02", "C11", "C12", "C21", "C22"]  # 2 grenadine, 2 mint, 2 lemon
>>> goal_holds(front, goal)
True
>>> goal_holds(front + ["C31"], goal)  # a cassis poisons it
False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from models.cheers.cards import CARDS, Ingredient

FRONT_LIMIT = 6


def clinking_cards(played: str, front: Iterable[str]) -> tuple[str, ...]:
    """The cards of ``front`` whose BIG icon equals the played card's SMALL icon."""
    small = CARDS[played].small
    return tuple(cid for cid in front if CARDS[cid].big == small)


def over_limit(front: Sequence[str]) -> bool:
    """More than 6 cards in front: the owner must discard one of their choice."""
    return len(front) > FRONT_LIMIT


def front_counts(front: Iterable[str]) -> Counter[Ingredient]:
    return Counter(CARDS[cid].big for cid in front)


def goal_holds(front: Iterable[str], goal: Sequence[Ingredient]) -> bool:
    """At least the goal's count of each goal ingredient, and no card of any other ingredient."""
    have = front_counts(front)
    need = Counter(goal)
    if any(ing not in need for ing in have):
        return False
    return all(have[ing] >= n for ing, n in need.items())


def goal_distance(front: Iterable[str], goal: Sequence[Ingredient]) -> int:
    """How far a front is from its goal: goal cards still missing + cards of other ingredients."""
    have = front_counts(front)
    need = Counter(goal)
    missing = sum(max(0, n - have[ing]) for ing, n in need.items())
    poison = sum(n for ing, n in have.items() if ing not in need)
    return missing + poison


def turn_order(first: int, players: int) -> tuple[int, ...]:
    """Seats clockwise starting at ``first``: ``turn_order(3, 4) == (3, 4, 1, 2)``."""
    return tuple((first - 1 + i) % players + 1 for i in range(players))
