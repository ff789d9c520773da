"""Why an action is refused: every check runs before anything on the table moves."""

from __future__ import annotations

from models.cheers.actions import Action, Cheers, DiscardHand, LimitDiscard, Play, Push
from models.cheers.cards import CARDS
from models.cheers.errors import (
    CardNotInFront,
    CardNotInHand,
    CheersToSamePlayer,
    CheersToTarget,
    CheersWithoutEnemy,
    EmptyFront,
    GameIsOver,
    NoSuchSeat,
    NotAClinkingCard,
    NotThisStep,
    NotYourTurn,
    PushToSelf,
    UnknownAction,
)
from models.cheers.table import Table as State

_WAITING_FOR = {
    "turn": "a turn (play, push or discard_hand)",
    "cheers": "the target's cheers",
    "limit_discard": "a limit discard",
}


def _seat_exists(state: State, seat: int, what: str) -> None:
    if seat not in state.setup.teams:
        raise NoSuchSeat(f"{what}: there is no seat {seat} (seats are 1 to {state.players})")


def check_action(state: State, action: Action) -> Action:
    """Raise the named error when ``action`` is illegal now; return it completed."""
    if state.over:
        raise GameIsOver(f"the game is over ({state.end_reason}); no more actions")
    if not isinstance(action, (Play, Push, DiscardHand, Cheers, LimitDiscard)):
        raise UnknownAction(f"{action!r} is not a Cheers action")
    _seat_exists(state, action.seat, "acting seat")
    step = state.step
    kind = {Play: "turn", Push: "turn", DiscardHand: "turn", Cheers: "cheers",
            LimitDiscard: "limit_discard"}[type(action)]
    current = state.current_player
    if action.seat != current:
        raise NotYourTurn(f"seat {action.seat} acted, but the table waits on seat {current} "
                          f"for {_WAITING_FOR[step]}")
    if kind != step:
        raise NotThisStep(f"seat {action.seat}: the table waits for {_WAITING_FOR[step]}, "
                          f"not a {action.to_dict()['type']}")
    if isinstance(action, Play):
        _seat_exists(state, action.to, "play")
        if action.card not in state.hands[action.seat]:
            known = CARDS.get(action.card)
            what = f"{action.card} ({known.label()})" if known else f"card {action.card!r}"
            raise CardNotInHand(f"seat {action.seat} has no {what} in hand")
    elif isinstance(action, Push):
        _seat_exists(state, action.to, "push")
        if not state.fronts[action.seat]:
            raise EmptyFront(f"seat {action.seat} has no card in front to push")
        if action.card not in state.fronts[action.seat]:
            raise CardNotInFront(f"{action.card} is not in front of seat {action.seat}")
        if action.to == action.seat:
            raise PushToSelf(f"seat {action.seat} must push to another player, not to themself")
    elif isinstance(action, LimitDiscard):
        if action.card not in state.fronts[action.seat]:
            raise CardNotInFront(f"{action.card} is not in front of seat {action.seat}")
    elif isinstance(action, Cheers):
        return _check_cheers(state, action)
    return action


def _check_cheers(state: State, action: Cheers) -> Cheers:
    pending = state.cheers
    assert pending is not None
    target = action.seat
    clink = action.clink
    if not clink:
        if len(pending.matches) > 1:
            raise NotAClinkingCard(f"seat {target} must choose which card clinks: "
                                   f"one of {', '.join(pending.matches)}")
        clink = pending.matches[0]
    if clink not in pending.matches:
        if clink == pending.played:
            raise NotAClinkingCard(f"{clink} is the card played on seat {target}; it clinks with "
                                   f"a card already in that front: one of {', '.join(pending.matches)}")
        if clink not in state.fronts[target]:
            raise CardNotInFront(f"{clink} is not in front of seat {target} to clink with")
        small = CARDS[pending.played].small.label
        raise NotAClinkingCard(f"{clink} ({CARDS[clink].label()}) does not clink with the played "
                               f"{pending.played}: its big icon must be {small}")
    a, b = action.give
    _seat_exists(state, a, "cheers")
    _seat_exists(state, b, "cheers")
    if target in (a, b):
        raise CheersToTarget(f"seat {target} gives the clinking cards to other players, "
                             f"not to themself")
    if a == b:
        raise CheersToSamePlayer(f"the two clinking cards must go to two different players, "
                                 f"not both to seat {a}")
    if not state.may_receive_cheers(target, a, b):
        raise CheersWithoutEnemy(f"at least one clinking card must go to an enemy of seat {target}; "
                                 f"seats {a} and {b} are both on team {state.team(target)}")
    return Cheers(target, clink, action.give)
