"""The seed's tie-break: one goblet per tied player, 1 Wine and Poison for the rest, poured
at random; from the last Toast caller clockwise each tied player takes one and reveals it.
The one who survives wins.
"""

from __future__ import annotations

import random
from collections import Counter

from models.base import Happening
from models.goblets.actions import Choose
from models.goblets.errors import BadChoice
from models.goblets.state import GameState, Phase, Step, StepKind, TieBreak
from models.goblets.tokens import Token


def tie_tokens(tied: int) -> list[Token]:
    """1 Wine plus Poison so that there is one token per tied player."""
    return [Token.WINE] + [Token.POISON] * (tied - 1)


def begin_tie_break(state: GameState, rng: random.Random, tied: list[int],
                    fixed: list[Token] | None) -> list[Happening]:
    """The Host pours the tie goblets (fixed by the header when its count matches)."""
    n = state.options.players
    start = state.last_caller or state.host
    order = [s for s in ((start - 1 + k) % n + 1 for k in range(n)) if s in tied]
    if fixed is not None and sorted(fixed) == sorted(tie_tokens(len(tied))):
        goblets = list(fixed)
    else:
        goblets = tie_tokens(len(tied))
        rng.shuffle(goblets)
    state.pool.subtract(Counter(goblets))
    state.tie = TieBreak(order, goblets)
    state.phase = Phase.TIEBREAK
    state.queue = [Step(StepKind.CHOOSE, order[0], state.unit_of(order[0]).index)]
    return [Happening("tie_break", {"seats": order, "goblets": len(goblets)})]


def check_choose(state: GameState, action: Choose) -> None:
    tie = state.tie
    assert tie is not None
    if not 1 <= action.goblet <= len(tie.goblets):
        raise BadChoice(f"there is no tie goblet {action.goblet} (1-{len(tie.goblets)})")
    if action.goblet in tie.taken.values():
        raise BadChoice(f"tie goblet {action.goblet} has already been taken")


def choose(state: GameState, action: Choose) -> list[Happening]:
    """Reveal the chosen goblet; the last chooser takes the last goblet without choosing."""
    tie = state.tie
    assert tie is not None
    out = [_reveal(tie, action.seat, action.goblet)]
    if tie.winner is None:
        left = [s for s in tie.order if s not in tie.taken]
        if len(left) == 1:
            last = next(g for g in range(1, len(tie.goblets) + 1) if g not in tie.taken.values())
            out.append(_reveal(tie, left[0], last))
        else:
            state.queue = [Step(StepKind.CHOOSE, left[0], state.unit_of(left[0]).index)]
            return out
    state.queue = []
    return out


def _reveal(tie: TieBreak, seat: int, goblet: int) -> Happening:
    tie.taken[seat] = goblet
    token = tie.goblets[goblet - 1]
    if token is Token.WINE:
        tie.winner = seat
    return Happening("tie_goblet", {"seat": seat, "goblet": goblet, "token": token.value,
                                    "survived": token is Token.WINE})
