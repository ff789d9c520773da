"""Named errors for Cheers: each says, in the table's words, why an action is refused.

All are :class:`models.base.IllegalAction`; the state is left untouched.
"""

from __future__ import annotations

from models.base import GameIsOver, IllegalAction, NotYourTurn, UnknownAction

__all__ = [
    "BadAction",
    "CardNotInFront",
    "CardNotInHand",
    "CheersToSamePlayer",
    "CheersToTarget",
    "CheersWithoutEnemy",
    "EmptyFront",
    "GameIsOver",
    "IllegalAction",
    "NoSuchSeat",
    "NotAClinkingCard",
    "NotThisStep",
    "NotYourTurn",
    "PushToSelf",
    "UnknownAction",
]


class BadAction(IllegalAction):
    """A ``do`` payload with a missing or malformed field."""


class NotThisStep(IllegalAction):
    """The right seat, but an action of the wrong kind for the decision being waited on."""


class NoSuchSeat(IllegalAction):
    """A target seat that is not at the table."""


class CardNotInHand(IllegalAction):
    """Playing a card the player does not hold."""


class CardNotInFront(IllegalAction):
    """Pushing, clinking or discarding a card that is not in that front."""


class EmptyFront(IllegalAction):
    """Pushing with nothing in front of you."""


class PushToSelf(IllegalAction):
    """A push must go to another player."""


class NotAClinkingCard(IllegalAction):
    """The card chosen to clink does not match the played card's small icon."""


class CheersToSamePlayer(IllegalAction):
    """The two clinking cards must go to two different players."""


class CheersToTarget(IllegalAction):
    """The target gives the clinking cards away: never to themself."""


class CheersWithoutEnemy(IllegalAction):
    """At least one clinking card must go to an enemy (not under Masquerade)."""
