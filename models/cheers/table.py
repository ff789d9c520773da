"""The Cheers table: everything on it, and the questions any rule may ask of it.

The rules that change it (legal actions, checks, moves) are in :mod:`models.cheers.engine`
and :mod:`models.cheers.checks`; both read the table through this class.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from models.cheers.setup import Goal, Setup


class Step(StrEnum):
    """Which decision the table waits on (the value is how events and views name it)."""

    TURN = "turn"
    """The turn player plays, pushes or discards their hand."""
    CHEERS = "cheers"
    """A played card clinked: its target picks the clinking card and gives both away."""
    LIMIT_DISCARD = "limit_discard"
    """A front over the limit: its owner discards from it."""
    OVER = "over"


@dataclass
class PendingCheers:
    """A played card clinked: ``target`` must pick one of ``matches`` and give both away."""

    target: int
    played: str
    matches: tuple[str, ...]


@dataclass
class Table:
    """Everything on the table. Mutated only by the engine's ``apply`` (after a full check)."""

    setup: Setup
    rng: random.Random
    hands: dict[int, list[str]]
    fronts: dict[int, list[str]]
    draw_pile: list[str]
    discard_pile: list[str] = field(default_factory=list)
    turn_player: int = 1
    turn: int = 1
    cheers: PendingCheers | None = None
    limit_queue: list[int] = field(default_factory=list)
    pile_runs: int = 1  # which draw pile is in play: 1 = the original deck
    winner_team: str | None = None
    winner_seat: int | None = None
    over: bool = False
    end_reason: str | None = None

    # -- what is asked now -------------------------------------------------
    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def seats(self) -> tuple[int, ...]:
        return self.setup.seats

    @property
    def step(self) -> Step:
        if self.over:
            return Step.OVER
        if self.cheers is not None:
            return Step.CHEERS
        if self.limit_queue:
            return Step.LIMIT_DISCARD
        return Step.TURN

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the table waits on (None once the game is over)."""
        step = self.step
        if step == Step.OVER:
            return None
        if step == Step.CHEERS:
            assert self.cheers is not None
            return self.cheers.target
        if step == Step.LIMIT_DISCARD:
            return self.limit_queue[0]
        return self.turn_player

    def team(self, seat: int) -> str:
        return self.setup.teams[seat]

    def goal(self, seat: int) -> Goal:
        return self.setup.goals[self.setup.teams[seat]]

    def is_enemy(self, seat: int, other: int) -> bool:
        return self.setup.teams[seat] != self.setup.teams[other]

    def may_receive_cheers(self, target: int, a: int, b: int) -> bool:
        """The enemy rule: at least one of the two clinking cards goes to an enemy of the
        target (in a masquerade, where teams are secret, any two other players)."""
        return self.setup.masquerade or self.is_enemy(target, a) or self.is_enemy(target, b)

    def all_cards(self) -> list[str]:
        """Every card on the table, wherever it is (always the 50)."""
        cards = list(self.draw_pile) + list(self.discard_pile)
        for seat in self.seats:
            cards += self.hands[seat] + self.fronts[seat]
        return cards

    def copy(self) -> Table:
        """An independent copy (the random generator included), for look-ahead."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        cheers = None
        if self.cheers is not None:
            cheers = PendingCheers(self.cheers.target, self.cheers.played, self.cheers.matches)
        return type(self)(
            setup=self.setup,
            rng=rng,
            hands={s: list(h) for s, h in self.hands.items()},
            fronts={s: list(f) for s, f in self.fronts.items()},
            draw_pile=list(self.draw_pile),
            discard_pile=list(self.discard_pile),
            turn_player=self.turn_player,
            turn=self.turn,
            cheers=cheers,
            limit_queue=list(self.limit_queue),
            pile_runs=self.pile_runs,
            winner_team=self.winner_team,
            winner_seat=self.winner_seat,
            over=self.over,
            end_reason=self.end_reason,
        )

    def to_summary(self) -> dict[str, Any]:
        """A compact public summary (for logs and test failure messages)."""
        return {"turn": self.turn, "step": self.step, "current": self.current_player,
                "fronts": {s: list(f) for s, f in self.fronts.items()},
                "draw": len(self.draw_pile), "discard": len(self.discard_pile)}
