"""What every game engine shares: named errors and the action contract.

An engine is a state plus actions. Actions are frozen dataclasses with a
``to_dict()``/``from_dict()`` pair (the replay's ``do`` format); ``apply``
returns what happened as a list of :class:`Happening`; an illegal action raises
:class:`IllegalAction` (or a subclass) and leaves the state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class IllegalAction(ValueError):
    """An action the rules forbid. ``reason`` says why, in the table's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurn(IllegalAction):
    """The acting seat is not the one the rules expect."""


class UnknownAction(IllegalAction):
    """A ``do`` payload that names no action of this game."""


@dataclass(frozen=True)
class Happening:
    """One thing that happened as a result of an action (becomes a journal/replay event).

    ``event`` is the replay event's name; ``fields`` its public payload. ``private``
    holds what only ``seat`` may see (never printed on the public table).
    """

    event: str
    fields: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None
    private: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"event": self.event, **self.fields}
