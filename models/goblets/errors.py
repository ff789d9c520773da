"""Named errors: each illegal move in Raise Your Goblets says why, in the table's words.

All are :class:`models.base.IllegalAction`; raising one leaves the game untouched.
"""

from __future__ import annotations

from models.base import GameIsOver, IllegalAction, NotYourTurn, UnknownAction

__all__ = [
    "AbilityAlreadyUsed",
    "BadChoice",
    "GameIsOver",
    "IllegalAction",
    "MalformedAction",
    "NoActionsLeft",
    "NoSuchGoblet",
    "NobleCannotPeek",
    "NotAllowedNow",
    "NotYourAbility",
    "NotYourTurn",
    "ToastNotFirstAction",
    "ToastWithWineLeft",
    "TokenNotBehindScreen",
    "UnknownAction",
    "WinetasterCannotToast",
]


class MalformedAction(UnknownAction):
    """A ``do`` payload with a missing or badly typed field."""


class NoActionsLeft(NotYourTurn):
    """The seat has already spent every action it had this turn (or its final action)."""


class ToastWithWineLeft(IllegalAction):
    """Toast called with Wine still behind the screen at the start of the turn."""


class ToastNotFirstAction(IllegalAction):
    """Toast must be the first and only action of a turn."""


class WinetasterCannotToast(IllegalAction):
    """In the Winetasters variant only the Noble may call the Toast."""


class NobleCannotPeek(IllegalAction):
    """In the Winetasters variant the Noble may not Peek."""


class AbilityAlreadyUsed(IllegalAction):
    """A once-per-course ability used a second time in the same course."""


class NotYourAbility(IllegalAction):
    """An ability action by a seat whose active character does not have it."""


class TokenNotBehindScreen(IllegalAction):
    """Pouring (or turning) a token the seat's screen does not hold."""


class NoSuchGoblet(IllegalAction):
    """A goblet place outside the table."""


class NotAllowedNow(IllegalAction):
    """An action the current phase or variant does not allow (e.g. Rotate in Russian Goblette)."""


class BadChoice(IllegalAction):
    """A choice outside what the pending step offers."""
