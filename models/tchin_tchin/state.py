"""The Tchin Tchin referee's state: the table as it stands, its phase, and the results.

The rules that change it are in :mod:`models.tchin_tchin.engine`; the view the table may
see is built from it in :mod:`models.tchin_tchin.view`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from models.base import Happening
from models.tchin_tchin.actions import Options
from models.tchin_tchin.cards import Combination
from models.tchin_tchin.listening import Ear
from models.tchin_tchin.rules import Invitation
from models.tchin_tchin.setup import Table


class Phase(StrEnum):
    """Where a game stands (the value is how events and views name it)."""

    BETWEEN = "between"
    """Waiting for the revealer's press (or the auto reveal)."""
    OPEN = "open"
    """A card is up and unlocked."""
    CLAIM = "claim"
    """One claimant holds the lock; the listening window is open."""
    VETO = "veto"
    """A correct word was heard; the players not invited may veto."""
    OVER = "over"


@dataclass
class Claim:
    """A live claim: ``station`` pressed at ``press`` and holds the lock."""

    station: int
    press: float
    tied: tuple[int, ...] = ()


@dataclass
class VetoWindow:
    """After a correct word: the players not invited may veto until ``closes``."""

    combination: Combination
    voters: frozenset[int]
    needed: int
    closes: float
    votes: set[int] = field(default_factory=set)


@dataclass
class OpenCard:
    """The card on the table and everything decided about it so far."""

    id: str
    revealer: int
    revealed: float
    invited: Invitation
    timeout_at: float
    mistaken: set[int] = field(default_factory=set)
    claim: Claim | None = None
    veto: VetoWindow | None = None
    #: presses met by the lock (time, station): those after the decision of a toast reported
    #: late were made in its veto window, and count as votes when it opens
    locked_presses: list[tuple[float, int]] = field(default_factory=list)


class RefereeState:
    """Everything the referee knows about one game, from a dealt :class:`Table`.

    ``disabled`` stations are seated but cannot press (they never vote on a veto).
    """

    def __init__(self, table: Table, options: Options | None = None, *, start: float = 0.0,
                 disabled: frozenset[int] = frozenset()) -> None:
        self.table = table
        self.options = options or Options()
        self.characters = dict(table.characters)
        self.seats = table.seats
        self.disabled = frozenset(disabled)
        self.deck: list[str] = list(table.deck)
        self.piles: dict[int, list[str]] = {s: [] for s in self.seats}
        self.pot: list[str] = []
        self.discarded: list[str] = []
        self.revealer = table.first
        self.last_win: Combination | None = None
        self.phase: Phase = Phase.BETWEEN
        self.since = start
        self.hearing = self.options.speech
        self.now = start
        self.card: OpenCard | None = None
        self.ear = Ear(self.options.pre_s, self.options.window_s)
        self.reactions: dict[int, list[float]] = {s: [] for s in self.seats}
        self.correct_reactions: dict[int, list[float]] = {s: [] for s in self.seats}
        self._out: list[Happening] = []
        self._cards_dealt = sorted(table.deck)

    # -- results -----------------------------------------------------------------------
    def scores(self) -> dict[int, int]:
        """Each station's score: the cards in its pile (event cards count)."""
        return {s: len(p) for s, p in self.piles.items()}

    def winners(self) -> list[int]:
        """The stations sharing the top score."""
        scores = self.scores()
        top = max(scores.values())
        return [s for s, n in sorted(scores.items()) if n == top]

    def reaction_summary(self) -> dict[str, dict[str, Any]]:
        """Per station: claims made, mean reaction and fastest correct one (ms; information only)."""
        out: dict[str, dict[str, Any]] = {}
        for s in self.seats:
            times = self.reactions[s]
            good = self.correct_reactions[s]
            out[str(s)] = {
                "claims": len(times),
                "mean_ms": ms(sum(times) / len(times)) if times else None,
                "fastest_correct_ms": ms(min(good)) if good else None,
            }
        return out

    def all_cards(self) -> list[str]:
        """Every card wherever it is now (deck, table, piles, pot, discards), sorted."""
        where = [*self.deck, *self.pot, *self.discarded]
        where += [c for p in self.piles.values() for c in p]
        if self.card is not None:
            where.append(self.card.id)
        return sorted(where)


def ms(seconds: float) -> int:
    """Seconds as whole milliseconds (how reaction times are shown)."""
    return round(seconds * 1000)
