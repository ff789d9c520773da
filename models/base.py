"""What every game engine shares: one protocol, named errors, happenings and outcomes.

Every game's engine has the same shape, in the spirit of OpenSpiel's ``State`` and
python-chess's ``Outcome``:

- ``game_type``: a declared :class:`GameType` (its id, players, real-time or turn-based);
- ``start()``: deal and open the game, from the typed set-up the engine was built with
  (each game's header, as journaled, is read into that set-up by the game's own
  ``controller/games/<game>/header.py``: the journal's format never reaches the rules);
- ``apply(action)``: the :class:`Happening` list it caused; an illegal action raises
  :class:`IllegalAction` (or a subclass) and leaves the state untouched;
- ``legal_actions(seat)``: what ``seat`` may do now (``None``: whoever is to act);
- ``current_player``: the seat the game waits on, or ``None`` (anyone, or nobody);
- ``view(seat)``: exactly what ``seat`` may know, typed; ``view(None)`` is the public table;
- ``outcome``: an :class:`Outcome` once the game is over, else ``None``.

Actions are frozen dataclasses with a ``to_dict()`` and a parser (the replay's ``do`` format).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable


class IllegalAction(ValueError):
    """An action the rules forbid. ``reason`` says why, in the table's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurn(IllegalAction):
    """The acting seat is not the one the rules expect."""


class UnknownAction(IllegalAction):
    """A ``do`` payload that names no action of this game."""


class GameIsOver(IllegalAction):
    """Any action after the game has ended."""


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


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once by its engine (OpenSpiel's ``GameType``)."""

    name: str
    """The game's id, as a header's ``game`` names it."""
    title: str
    """Its name on the box's menus."""
    min_players: int
    max_players: int
    real_time: bool
    """True: anyone may act at any moment, and time itself decides (timers); False: the
    game waits on ``current_player``."""


class Termination(Enum):
    """Why a game ended."""

    CARDS_RAN_OUT = "cards_ran_out"
    """The deck is played out (Tchin Tchin)."""
    GOAL_REACHED = "goal_reached"
    """A player or a team reached the winning condition (Cheers' goal; Russian Goblette's
    victory points)."""
    DRAW_PILE_EXHAUSTED = "draw_pile_exhausted"
    """The draw pile ran out for the last time (Cheers' house rule)."""
    TURN_CAP = "turn_cap"
    """The agreed number of turns was played (Cheers)."""
    COURSES_PLAYED = "courses_played"
    """Every course was played, and any tie broken (Raise Your Goblets)."""
    ABANDONED = "abandoned"
    """The table stopped the game before its end."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess's ``Outcome``): who won, the scores, and why."""

    termination: Termination
    winners: tuple[int, ...]
    """The winning seats (several when they share the victory; none when nobody won)."""
    scores: Mapping[int, int]
    """Each seat's score (cards won, victory points); empty for a game that keeps none."""


ActionT = TypeVar("ActionT")
ViewT_co = TypeVar("ViewT_co", covariant=True)


@runtime_checkable
class Engine(Protocol[ActionT, ViewT_co]):
    """The one protocol every game's engine implements (see the module's docstring)."""

    game_type: ClassVar[GameType]

    def start(self) -> list[Happening]: ...

    def apply(self, action: ActionT) -> list[Happening]: ...

    def legal_actions(self, seat: int | None = None) -> Sequence[ActionT]: ...

    @property
    def current_player(self) -> int | None: ...

    def view(self, seat: int | None) -> ViewT_co: ...

    @property
    def outcome(self) -> Outcome | None: ...
