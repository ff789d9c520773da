"""What a seat may know: ``view(state, seat)``; the public table: ``view(state, None)``.

The public view holds the fronts (big and small icons), hand sizes, pile sizes,
whose turn and which decision is awaited, never a hand, a goal or the face of a
discarded card. Teams are public, except under Masquerade. Goals become public
only once the game is over (the victory screen reveals them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from models.cheers.cards import CARDS, Card
from models.cheers.setup import Goal
from models.cheers.table import Step, Table


@dataclass(frozen=True)
class CheersView:
    """A cheers waiting on its target: the played card and the front cards it may clink with."""

    target: int
    played: Card
    matches: tuple[Card, ...]


@dataclass(frozen=True)
class TableView:
    """One seat's knowledge (``seat`` set) or the public table (``seat`` None)."""

    seat: int | None
    players: int
    split: str
    masquerade: bool
    turn: int
    turn_player: int
    current_player: int | None
    step: Step
    fronts: Mapping[int, tuple[Card, ...]]
    hand_sizes: Mapping[int, int]
    draw_pile: int
    discard_pile: int
    pile: int
    teams: Mapping[int, str] | None
    cheers: CheersView | None
    limit_seats: tuple[int, ...]
    over: bool
    end_reason: str | None
    winner_team: str | None
    winner_seat: int | None
    goals: Mapping[str, Goal] | None
    hand: tuple[Card, ...] | None = None
    goal: Goal | None = None
    team: str | None = None
    teammates: tuple[int, ...] | None = None


def view(state: Table, seat: int | None) -> TableView:
    """Exactly what ``seat`` may know (``None``: what everyone may know)."""
    if seat is not None and seat not in state.setup.teams:
        raise ValueError(f"there is no seat {seat} (seats are 1 to {state.players})")
    setup = state.setup
    cheers = None
    if state.cheers is not None:
        cheers = CheersView(state.cheers.target, CARDS[state.cheers.played],
                            tuple(CARDS[c] for c in state.cheers.matches))
    public_teams = None if setup.masquerade and not state.over else dict(setup.teams)
    private: dict[str, object] = {}
    if seat is not None:
        own_team = setup.teams[seat]
        mates = (() if setup.masquerade and not state.over else
                 tuple(s for s, t in setup.teams.items() if t == own_team and s != seat))
        private = {
            "hand": tuple(CARDS[c] for c in state.hands[seat]),
            "goal": setup.goals[own_team],
            "team": own_team,
            "teammates": mates,
        }
    return TableView(
        seat=seat,
        players=setup.players,
        split=setup.split,
        masquerade=setup.masquerade,
        turn=state.turn,
        turn_player=state.turn_player,
        current_player=state.current_player,
        step=state.step,
        fronts={s: tuple(CARDS[c] for c in f) for s, f in state.fronts.items()},
        hand_sizes={s: len(h) for s, h in state.hands.items()},
        draw_pile=len(state.draw_pile),
        discard_pile=len(state.discard_pile),
        pile=state.pile_runs,
        teams=public_teams,
        cheers=cheers,
        limit_seats=tuple(state.limit_queue),
        over=state.over,
        end_reason=state.end_reason,
        winner_team=state.winner_team,
        winner_seat=state.winner_seat,
        goals=dict(setup.goals) if state.over else None,
        **private,  # type: ignore[arg-type]
    )
