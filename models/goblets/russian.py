"""Russian Goblette (2-3 players): drinking in turn from a row of six goblets.

After the toast phase the player left of the caller drinks any goblet; a poisoned
player is out for the course, a survivor keeps the goblet's contents in front of them;
round and round until one survivor is left or every goblet is drunk. The survivor with
the most Wine wins the course (ties all win) and takes 1 VP; 3 VP wins the game.
"""

from __future__ import annotations

from models.base import Happening
from models.goblets.actions import Drink
from models.goblets.errors import BadChoice
from models.goblets.state import GameState, Phase, Step, StepKind
from models.goblets.tokens import Token, as_names, survives


def begin_drinking(state: GameState) -> list[Happening]:
    """From the caller's left, each player in turn drinks a goblet of their choice."""
    n = state.options.players
    caller = state.caller or 1
    state.alive = [(caller + k) % n + 1 for k in range(n)]
    state.drinker = 0
    state.phase = Phase.RUSSIAN_DRINK
    state.queue = [_step(state)]
    return []


def _step(state: GameState) -> Step:
    seat = state.alive[state.drinker]
    return Step(StepKind.DRINK, seat, state.unit_of(seat).index)


def check_drink(state: GameState, action: Drink) -> None:
    if not 1 <= action.goblet <= len(state.places):
        raise BadChoice(f"there is no goblet at place {action.goblet}")
    if state.places[action.goblet - 1].drunk_by is not None:
        raise BadChoice(f"the goblet at place {action.goblet} has already been drunk")


def drink(state: GameState, action: Drink) -> tuple[list[Happening], bool]:
    """Drink and reveal; returns what happened and whether the drinking is over."""
    goblet = state.places[action.goblet - 1]
    goblet.drunk_by = action.seat
    alive = survives(goblet.tokens)
    wine = wine_kept(state, action.seat) if alive else 0
    out = [Happening("drank", {"seat": action.seat, "goblet": action.goblet,
                               "tokens": as_names(goblet.tokens), "survived": alive,
                               "poisoned": not alive, "wine": wine})]
    if alive:
        state.drinker += 1
    else:
        state.alive.remove(action.seat)
    left = [g for g in state.places if g.drunk_by is None]
    if len(state.alive) <= 1 or not left:
        state.queue = []
        return out, True
    state.drinker %= len(state.alive)
    state.queue = [_step(state)]
    return out, False


def wine_kept(state: GameState, seat: int) -> int:
    """Wine in front of a surviving seat: every goblet they drank and survived."""
    return sum(g.tokens[Token.WINE] for g in state.places if g.drunk_by == seat)


def course_winners(state: GameState) -> list[int]:
    """The sole survivor, or the survivors with the most Wine (ties all win)."""
    if len(state.alive) == 1:
        return list(state.alive)
    best = max(wine_kept(state, s) for s in state.alive)
    return sorted(s for s in state.alive if wine_kept(state, s) == best)
