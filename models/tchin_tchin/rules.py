"""Who is invited by a revealed card, and which combinations each of them may perform.

An invitation maps each invited station to the combinations accepted from it.
The device judges only the WORD (by speech); the gesture is left to the players
not involved (the veto), so the accepted words are what the referee checks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set

from models.tchin_tchin.cards import (
    Card,
    Combination,
    DrinkCard,
    EventCard,
    combinations_of,
    is_invited_by,
)

Invitation = dict[int, frozenset[Combination]]


def neighbours(seats: Sequence[int], station: int) -> tuple[int, int]:
    """The two players seated either side of ``station`` (seats clockwise in station order)."""
    i = seats.index(station)
    return seats[i - 1], seats[(i + 1) % len(seats)]


def invitation(
    card: Card,
    characters: Mapping[int, str],
    revealer: int,
    last_win: Combination | None,
) -> Invitation | None:
    """The invited stations and what each may perform; None for a "same again" with nothing to repeat.

    * drink card: a player whose character shares an element (tourists: the location);
      required: the drinker's word with the drink's gesture;
    * "It's my round!": everyone but the revealer; required: the revealer's combination
      (a tourist revealer: any combination of a nation of one of its locations);
    * "The same again!": everyone but the revealer; required: the previous card's winning
      combination;
    * "Middleman!": the revealer's two neighbours, each performing the other's combination
      (a tourist opponent: any combination of one of its locations).
    """
    seats = sorted(characters)
    if isinstance(card, DrinkCard):
        wanted = frozenset({card.combination})
        return {s: wanted for s in seats if is_invited_by(characters[s], card)}
    assert isinstance(card, EventCard)
    if card.kind == "my_round":
        wanted = combinations_of(characters[revealer])
        return {s: wanted for s in seats if s != revealer}
    if card.kind == "same_again":
        if last_win is None:
            return None
        return {s: frozenset({last_win}) for s in seats if s != revealer}
    left, right = neighbours(seats, revealer)
    return {left: combinations_of(characters[right]), right: combinations_of(characters[left])}


def accepted_words(combinations: frozenset[Combination]) -> list[str]:
    """The toast ids that satisfy any of these combinations, sorted."""
    return sorted({c.word for c in combinations})


def words_field(invited: Invitation) -> str | list[str] | None:
    """The reveal event's ``word``: one toast id, or the sorted list when several are accepted."""
    words = sorted({c.word for combos in invited.values() for c in combos})
    if not words:
        return None
    return words[0] if len(words) == 1 else words


def veto_needed(voters: Set[int]) -> int:
    """House rule (veto): a correct claim is vetoed when at least half of the players who
    may veto press, rounded up (1 of 1 or 2, 2 of 3 or 4, 3 of 5 or 6).

    >>> [veto_needed(set(range(n))) for n in range(1, 7)]
    [1, 1, 2, 2, 3, 3]
    """
    return math.ceil(len(voters) / 2)
