"""The contract between the box's core and a game: inputs in, events and scenes out.

A :class:`GameFlow` is one game being played on the box. The core (the live
service or ``clinkbox replay``) feeds it timestamped :class:`Input` values in
order, after each has been written to the journal; the flow asks its engine
(``models/``) what they mean, and answers with events (``ctx.emit``), LED states
(``ctx.leds``), sound cues (``ctx.sound``) and a :class:`Scene` for the display.

A flow takes time only from its inputs and from ``ctx.clock``; randomness only
from ``ctx.rng``. So a header (seed, options) plus the inputs reproduce every
decision, byte for byte.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Protocol

from controller.clock import Clock
from controller.config import Config
from hardware.display.widgets import Scene
from models.base import GameType

NAVS = ("prev", "next", "ok", "back")


@dataclass(frozen=True)
class Input:
    """One accepted input, stamped where it happened (seconds, box's monotonic clock).

    kinds: ``press``/``release`` (``station``), ``nav`` (``nav`` one of :data:`NAVS`),
    ``say`` (``word`` a toast id, ``t`` its start, ``end`` its end, ``confidence``),
    ``do`` (``action``: a game action as the engine's ``to_dict`` writes it).
    ``typed`` marks a toast typed on the simulator's keyboard rather than heard.
    ``at``: where the game clock already stood when the input arrived, when that is past
    ``t`` (a toast the recogniser reported after the word); a replay or a resume moves the
    clock there first, as it was live. It is the journal's and the replay file's, never the
    game's: :meth:`as_dict` leaves it out, :meth:`as_line` keeps it.
    """

    t: float
    kind: str
    station: int | None = None
    nav: str | None = None
    word: str | None = None
    end: float | None = None
    confidence: float | None = None
    action: dict[str, Any] | None = None
    typed: bool = False
    at: float | None = None

    def as_line(self) -> dict[str, Any]:
        """The input as a journal or replay file line: :meth:`as_dict` plus ``at`` when set."""
        out = self.as_dict()
        if self.at is not None and self.at > self.t:
            out["at"] = self.at
        return out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t}
        if self.kind in ("press", "release"):
            out[self.kind] = self.station
        elif self.kind == "nav":
            out["nav"] = self.nav
        elif self.kind == "say":
            out["say"] = self.word
            out["end"] = self.end
            if self.confidence is not None:
                out["confidence"] = self.confidence
            if self.typed:
                out["typed"] = True
        elif self.kind == "do":
            out["do"] = self.action
        return out


class Leds(Protocol):
    def set(self, station: int, state: str) -> None:
        """``state``: "on", "off" or "blink"; or "flash": a moment's quick flash (an event
        happened to this station), after which the LED shows its steady state again."""


class Sound(Protocol):
    def play(self, cue: str) -> None:
        """Cues: "reveal", "claim", "win", "mistake", "penalty", "veto", "tick", "drink", "error"."""


class _NoLeds:
    def __init__(self) -> None:
        self.states: dict[int, str] = {}
        self.flashes: list[int] = []

    def set(self, station: int, state: str) -> None:
        if state == "flash":  # a moment's flash over the steady state, which it keeps
            self.flashes.append(station)
            return
        self.states[station] = state


class _NoSound:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, cue: str) -> None:
        self.played.append(cue)


@dataclass
class FlowContext:
    """What a flow may touch: the clock, the seeded random, outputs, and the event sink."""

    clock: Clock
    rng: random.Random
    sink: Callable[[dict[str, Any]], None]
    leds: Leds = field(default_factory=_NoLeds)
    sound: Sound = field(default_factory=_NoSound)
    stations: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
    disabled: frozenset[int] = frozenset()
    phones: Collection[int] = frozenset()
    """Seats whose private view is on a phone now (live). Only scenes may read it: the TV
    skips the look-away step for them; no decision depends on it, so replays are unchanged."""

    def emit(self, event: str, **fields: Any) -> None:
        """Record a decision: ``{"t": now, "event": event, **fields}``."""
        self.sink({"t": round(self.clock.now(), 6), "event": event, **fields})


@dataclass(frozen=True)
class Question:
    """One set-up question asked with the menu pad before a game starts.

    ``choices`` is a list of (label, value), or a function of the answers so far;
    ``when`` skips the question unless it returns True for the answers so far.
    """

    key: str
    title: str
    choices: list[tuple[str, Any]] | Callable[[dict[str, Any]], list[tuple[str, Any]]]
    when: Callable[[dict[str, Any]], bool] | None = None
    default: Any = None

    def options(self, answers: dict[str, Any]) -> list[tuple[str, Any]]:
        return self.choices(answers) if callable(self.choices) else list(self.choices)


class HeaderError(ValueError):
    """A game header (replay line 1, or set-up) that the game cannot start from."""


def first_unknown(given: Any, known: tuple[str, ...]) -> str | None:
    """The first (sorted) key of ``given`` that is not ``known``: a header's misspelt field
    would not be an error but another game, so each game refuses it by name."""
    extra = sorted(str(k) for k in given if k not in known)
    return extra[0] if extra else None


class GameFlow(ABC):
    """One game on the box; :mod:`controller.games` lists the built-in ones.

    ``game`` is its id (a header's ``game``), ``title`` its name on the menus. A flow whose
    engine declares a :class:`~models.base.GameType` names it as ``game_type``, and takes
    ``game``, ``title`` and the player counts from it rather than repeating them.
    """

    game: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    game_type: ClassVar[GameType | None] = None
    settings: ClassVar[dict[str, tuple[str, list[tuple[str, Any]], Any]]] = {}
    """The game's own entries in the box's Settings menu: key -> (label, choices, default);
    set-up reads them from the ``settings`` it is given."""
    own_back: ClassVar[bool] = False
    """True when Back on the shared table is the game's own (a game menu); otherwise the box
    asks there whether to leave the game."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("game_type")
        if declared is not None:
            cls.game, cls.title = declared.name, declared.title
            cls.min_players, cls.max_players = declared.min_players, declared.max_players

    @classmethod
    def setup_questions(cls, settings: dict[str, Any]) -> list[Question]:
        """What the host is asked before the game (default: how many players)."""
        counts = range(cls.min_players, cls.max_players + 1)
        return [Question("players", "How many players?", [(str(n), n) for n in counts],
                         default=settings.get("players"))]

    @classmethod
    def header_from_answers(cls, answers: dict[str, Any], seed: int,
                            settings: dict[str, Any]) -> dict[str, Any]:
        """The game's header (as in a replay file's line 1) from the set-up answers."""
        options = {k: v for k, v in answers.items() if k != "players"}
        return {"game": cls.game, "seed": seed, "players": answers["players"], "options": options}

    @classmethod
    def settings_from_config(cls, cfg: Config) -> dict[str, Any]:
        """What the box's config file says about this game, as settings its set-up reads
        (default: nothing)."""
        return {}

    @classmethod
    def without_speech(cls, header: dict[str, Any]) -> dict[str, Any]:
        """The header of a game started while the box hears nothing (default: unchanged)."""
        return header

    @classmethod
    def hearing_changed(cls, available: bool) -> dict[str, Any] | None:
        """The action (journaled as a ``do``) that tells a game in play the microphone was
        lost or came back; None for a game that does not listen (the default)."""
        return None

    def __init__(self, ctx: FlowContext, header: dict[str, Any]) -> None:
        self.ctx = ctx
        self.header = header

    @abstractmethod
    def start(self) -> None:
        """Deal, set timers, emit the opening events."""

    @abstractmethod
    def handle(self, inp: Input) -> None:
        """Take one input (already journaled). Bad input is logged/emitted, never raised."""

    def learning(self) -> tuple[int, str] | None:
        """The station whose player the game is introducing and the toast they are asked to
        say: the box's ear may learn that voice saying it (default: nobody)."""
        return None

    def listening_for(self) -> frozenset[str] | None:
        """The toasts the game waits for now (a card in play: the words it accepts), so the ear
        may listen for them a little harder; None when the game waits for no word in
        particular (the default). Live only: no decision depends on it, the journal's ``say``
        inputs decide, so replays are unchanged."""
        return None

    def settle(self) -> None:
        """Every input of the current instant is in: decide now what waited for them (a press's
        lock-out waits for the other presses stamped at the same instant). The live box settles
        after each input, so a press is decided on its way in; a replay, whose lines of one
        instant come one by one, settles as its clock moves past the instant. Default: nothing
        waits."""
        return None

    @abstractmethod
    def scene(self) -> Scene:
        """What the shared screen shows now (a private view only while its owner holds it)."""

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True once the game is over (``game_over`` emitted)."""
