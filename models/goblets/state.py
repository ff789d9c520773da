"""The state of a game of Raise Your Goblets: options, the table, screens, goblets and steps.

The state is plain data; :mod:`models.goblets.engine` changes it, and only after an action
has been found legal, so an illegal action never leaves a trace.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from models.goblets.characters import Character
from models.goblets.houses import House
from models.goblets.tokens import POOL, Token

RUSSIAN = "russian"  # 2-3 players: Russian Goblette
BANQUET = "banquet"  # 4-6 players: the base game
WINETASTERS = "winetasters"  # 7-12 players: Nobles and their Winetasters
RUSSIAN_GOBLETS = 6
COURSES = 3
RUSSIAN_VICTORY = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 12


def mode_for(players: int) -> str:
    """The way the box seats a table of ``players``: Russian Goblette, banquet or Winetasters."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Raise Your Goblets is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if players <= 3:
        return RUSSIAN
    return BANQUET if players <= 6 else WINETASTERS


@dataclass(frozen=True)
class Options:
    """How this game is played. ``memory``: Raise Your Memory; ``legacy``: Legacy."""

    players: int
    memory: bool = False
    legacy: bool = False
    characters: bool = True

    @property
    def mode(self) -> str:
        return mode_for(self.players)

    @property
    def with_characters(self) -> bool:
        """Characters are off in Russian Goblette (seed), or when set-up turns them off."""
        return self.characters and self.mode != RUSSIAN

    @property
    def variants(self) -> list[str]:
        out = [v for v, on in (("memory", self.memory), ("legacy", self.legacy)) if on]
        if self.mode != BANQUET:
            out.append(self.mode)
        return out


@dataclass
class Goblet:
    """One goblet: its coaster ring (None: no rings), its tokens, and who poured into it."""

    coaster: House | None
    tokens: Counter[Token] = field(default_factory=Counter)
    poured_by: list[int] = field(default_factory=list)
    drunk_by: int | None = None  # Russian Goblette: the seat that drank it


@dataclass
class Unit:
    """A "player" in the seed's sense: one seat, or a Noble with their Winetaster.

    ``index`` is its position clockwise; the goblet in front of it stands at place index+1.
    """

    index: int
    house: House
    noble: int
    winetaster: int | None = None
    screen: Counter[Token] = field(default_factory=Counter)
    target: House | None = None
    loyalty: str | None = None  # the Winetaster card: "loyal" or "traitor"
    used: set[Character] = field(default_factory=set)

    @property
    def seats(self) -> tuple[int, ...]:
        return (self.noble,) if self.winetaster is None else (self.winetaster, self.noble)

    @property
    def place(self) -> int:
        return self.index + 1


class Phase(StrEnum):
    """Where a game stands (the value is how events and views name it)."""

    SETUP = "setup"
    COURSE = "course"
    TURNS = "turns"
    TOAST = "toast"
    DRINK = "drink"
    RUSSIAN_DRINK = "russian_drink"
    TIEBREAK = "tiebreak"
    OVER = "over"


class StepKind(StrEnum):
    """What a step asks of its seat (the value is how events and views name it)."""

    TURN = "turn"
    """Regular actions."""
    NOBLE_FIRST = "noble_first"
    """A Noble may Toast before their Winetaster."""
    FINAL = "final"
    """A toast-phase final action."""
    FREE_PEEK = "free_peek"
    """A Winetaster's free Peek in the toast phase."""
    PLOT = "plot"
    TASTE = "taste"
    GAMBLE = "gamble"
    """Ability choices."""
    DRINK = "drink"
    """Russian Goblette: drink a goblet."""
    CHOOSE = "choose"
    """The tie-break: take a goblet."""


@dataclass
class Step:
    """Whose move the game waits for, and what kind."""

    kind: StepKind
    seat: int
    unit: int
    actions_left: int = 1
    acted: bool = False


@dataclass
class TieBreak:
    """The tie-break: one goblet per tied player, 1 Wine and Poison for the rest."""

    order: list[int]
    goblets: list[Token]
    taken: dict[int, int] = field(default_factory=dict)  # seat -> goblet number (1-based)
    winner: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"order": list(self.order), "goblets": [t.value for t in self.goblets],
                "taken": dict(self.taken), "winner": self.winner}


@dataclass
class GameState:
    """Everything true about one game, secrets included."""

    options: Options
    host: int
    pool: Counter[Token] = field(default_factory=lambda: Counter(POOL))
    course: int = 0
    phase: Phase = Phase.SETUP
    characters: dict[int, Character] = field(default_factory=dict)
    deck: list[Character] = field(default_factory=list)
    discard: list[Character] = field(default_factory=list)
    vp: dict[int, int] = field(default_factory=dict)
    units: list[Unit] = field(default_factory=list)
    places: list[Goblet] = field(default_factory=list)
    queue: list[Step] = field(default_factory=list)
    turn_unit: int = 0
    wine_at_turn_start: int = 0
    spent: set[int] = field(default_factory=set)
    caller: int | None = None
    last_caller: int | None = None
    alive: list[int] = field(default_factory=list)  # Russian Goblette: still drinking
    drinker: int = 0  # Russian Goblette: index into ``alive`` of who drinks next
    seen: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    tie: TieBreak | None = None
    winners: list[int] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # per course results

    @property
    def seats(self) -> range:
        return range(1, self.options.players + 1)

    @property
    def step(self) -> Step | None:
        return self.queue[0] if self.queue else None

    def unit_of(self, seat: int) -> Unit:
        for unit in self.units:
            if seat in unit.seats:
                return unit
        raise KeyError(seat)

    def unit_with_house(self, house: House) -> Unit:
        for unit in self.units:
            if unit.house is house:
                return unit
        raise KeyError(house)

    def active_character(self, unit: Unit) -> Character | None:
        """The character whose abilities the unit uses: the Noble's (a Winetaster's is face down)."""
        return self.characters.get(unit.noble)

    def all_tokens(self) -> Counter[Token]:
        """Pool + screens + goblets (+ tie goblets): always the box's 52 tokens."""
        total: Counter[Token] = Counter(self.pool)
        for unit in self.units:
            total.update(unit.screen)
        for goblet in self.places:
            total.update(goblet.tokens)
        if self.tie is not None:
            total.update(self.tie.goblets)
        return total
