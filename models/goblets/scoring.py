"""Scoring a course: the seed's table, the [Score] characters and the Winetaster cards.

Pure functions of who survived, who was targeted and how much Wine each goblet held.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.goblets.characters import Character
from models.goblets.houses import House


@dataclass(frozen=True)
class Drinker:
    """One goblet drunk at the reveal: the unit's drinking seat and what came of it."""

    seat: int
    house: House
    target: House | None
    character: Character | None
    survived: bool
    wine: int


def table_points(survived: bool, target_poisoned: bool) -> int:
    """The seed's table: 1 VP for surviving, 1 VP if your target is poisoned, +1 for both.

    >>> table_points(True, True), table_points(True, False), table_points(False, True)
    (3, 1, 1)
    """
    return int(survived) + int(target_poisoned) + int(survived and target_poisoned)


def character_points(character: Character | None, survived: bool, target_poisoned: bool,
                     targeter_poisoned: bool, wine: int) -> int:
    """Points before the most-Wine bonus, with the [Score] character applied instead of the
    table where it says so (Pacifist, Martyr, Avenger) or on top of it (Glutton)."""
    if character is Character.PACIFIST:
        return 2 if survived else 0
    if character is Character.MARTYR and not survived and target_poisoned:
        return table_points(True, True)
    if character is Character.AVENGER and not survived:
        return int(target_poisoned) + int(targeter_poisoned)
    points = table_points(survived, target_poisoned)
    if character is Character.GLUTTON and survived and wine >= 3:
        points += 1
    return points


def most_wine(drinkers: list[Drinker]) -> int | None:
    """The seat of the single drinker with the most Wine, or None on a tie (no bonus)."""
    if not drinkers:
        return None
    best = max(d.wine for d in drinkers)
    leaders = [d.seat for d in drinkers if d.wine == best]
    return leaders[0] if len(leaders) == 1 else None


def course_points(drinkers: list[Drinker]) -> dict[int, int]:
    """VP each drinking seat earns this course (the most-Wine bonus is never changed)."""
    poisoned = {d.house for d in drinkers if not d.survived}
    targeted_by = {d.target: d.house for d in drinkers if d.target is not None}
    points: dict[int, int] = {}
    for d in drinkers:
        target_poisoned = d.target in poisoned
        targeter = targeted_by.get(d.house)
        points[d.seat] = character_points(d.character, d.survived, target_poisoned,
                                          targeter in poisoned, d.wine)
    leader = most_wine(drinkers)
    if leader is not None:
        points[leader] += 1
    return points


def winetaster_points(card: str, noble_points: int, noble_survived: bool) -> int:
    """A Loyal Winetaster scores what their Noble scores; a Traitor 3 if the Noble is poisoned.

    >>> winetaster_points("loyal", 4, True), winetaster_points("traitor", 4, True)
    (4, 0)
    >>> winetaster_points("traitor", 1, False)
    3
    """
    if card == "loyal":
        return noble_points
    return 0 if noble_survived else 3
