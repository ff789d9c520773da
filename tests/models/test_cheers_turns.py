"""A turn: play, push or discard the hand; refill at the end; clockwise; named errors."""

import copy

import pytest

from models.cheers.actions import Cheers, DiscardHand, LimitDiscard, Play, Push, action_from_dict
from models.cheers.engine import State
from models.cheers.errors import (
    BadAction,
    CardNotInFront,
    CardNotInHand,
    EmptyFront,
    GameIsOver,
    NoSuchSeat,
    NotThisStep,
    NotYourTurn,
    PushToSelf,
    UnknownAction,
)
from models.cheers.scenario import B, G, L, M, P, arrange, cid, table


def snapshot(state: State) -> tuple:
    return (copy.deepcopy(state.hands), copy.deepcopy(state.fronts), list(state.draw_pile),
            list(state.discard_pile), state.turn_player, state.turn, state.cheers, state.limit_queue)


def test_play_a_card_in_front_of_any_player_themself_included() -> None:
    state = arrange(table(), hands={1: [cid(G, G), cid(M, M), cid(L, L)]})
    state.apply(Play(1, cid(G, G), 1))
    assert state.fronts[1] == [cid(G, G)]
    state.apply(Play(2, state.hands[2][0], 3))
    assert len(state.fronts[3]) == 1


def test_refill_to_hand_size_at_end_of_turn() -> None:
    state = table()
    top = state.draw_pile[0]
    events = state.apply(Play(1, state.hands[1][0], 2))
    assert len(state.hands[1]) == 3 and state.hands[1][-1] == top
    drew = next(e for e in events if e.event == "drew")
    assert drew.fields == {"seat": 1, "count": 1} and drew.private == {"cards": [top]}


def test_turns_go_clockwise_and_wrap() -> None:
    state = table(first=4)
    assert state.current_player == 4
    events = state.apply(DiscardHand(4))
    assert state.current_player == 1 and state.turn == 2
    assert events[-1].as_dict() == {"event": "turn", "seat": 1, "turn": 2}


def test_discard_whole_hand_face_down_and_draw_a_new_one() -> None:
    state = table()
    hand = list(state.hands[1])
    events = state.apply(DiscardHand(1))
    assert state.discard_pile == hand and len(state.hands[1]) == 3
    assert events[0].as_dict() == {"event": "discarded_hand", "seat": 1, "count": 3}


def test_push_a_card_from_your_front_to_another_player_never_a_cheers() -> None:
    state = arrange(table(), fronts={1: [cid(M, L)], 2: [cid(L, L)]})
    events = state.apply(Push(1, cid(M, L), 2))
    assert state.fronts[2] == [cid(L, L), cid(M, L)] and state.cheers is None
    assert events[0].as_dict() == {"event": "pushed", "seat": 1, "card": cid(M, L), "to": 2}


@pytest.mark.parametrize("action,error,words", [
    (Play(2, "C01", 1), NotYourTurn, "waits on seat 1"),
    (Play(1, "C50", 2), CardNotInHand, "no C50"),
    (Play(1, "C01", 9), NoSuchSeat, "no seat 9"),
    (Push(1, "C01", 2), EmptyFront, "no card in front"),
    (LimitDiscard(1, "C01"), NotThisStep, "not a limit_discard"),
    (Cheers(1, "C01", (2, 3)), NotThisStep, "waits for a turn"),
])
def test_illegal_action_is_named_and_changes_nothing(action, error, words) -> None:
    state = arrange(table(), hands={1: ["C01", "C02", "C03"]})
    before = snapshot(state)
    with pytest.raises(error, match=words):
        state.apply(action)
    assert snapshot(state) == before


def test_push_card_not_in_front_and_push_to_self_are_refused() -> None:
    state = arrange(table(), fronts={1: [cid(M, L)]})
    before = snapshot(state)
    with pytest.raises(CardNotInFront):
        state.apply(Push(1, cid(B, B), 2))
    with pytest.raises(PushToSelf):
        state.apply(Push(1, cid(M, L), 1))
    assert snapshot(state) == before


def test_legal_actions_are_all_legal_and_cover_the_three_actions() -> None:
    state = arrange(table(), fronts={1: [cid(P, P)]})
    actions = state.legal_actions()
    kinds = {type(a) for a in actions}
    assert kinds == {Play, Push, DiscardHand}
    assert len([a for a in actions if isinstance(a, Play)]) == 3 * 4
    assert len([a for a in actions if isinstance(a, Push)]) == 3
    for action in actions:
        state.copy().apply(action)


def test_do_format_round_trips_and_bad_payloads_are_named() -> None:
    for action in (Play(2, "C17", 3), Push(1, "C05", 4), DiscardHand(2), Cheers(3, "C04", (1, 4)),
                   LimitDiscard(4, "C33")):
        assert action_from_dict(action.to_dict()) == action
    assert action_from_dict({"type": "cheers", "seat": 3, "keep_clink": "C04",
                             "give": {"C17": 1, "C04": 4}}, played="C17") == Cheers(3, "C04", (1, 4))
    assert action_from_dict({"type": "cheers", "seat": 3, "give": {"1": "C17", "4": "C04"}},
                            played="C17") == Cheers(3, "C04", (1, 4))
    with pytest.raises(UnknownAction, match="'dance'"):
        action_from_dict({"type": "dance"})
    with pytest.raises(BadAction, match="'to' must be a seat"):
        action_from_dict({"type": "play", "seat": 1, "card": "C01"})
    with pytest.raises(BadAction, match="C77"):
        action_from_dict({"type": "play", "seat": 1, "card": "C77", "to": 2})


def test_no_action_after_the_game_is_over() -> None:
    state = table(turn_cap=1)
    state.apply(DiscardHand(1))
    assert state.over and state.end_reason == "turn_cap" and state.legal_actions() == []
    with pytest.raises(GameIsOver):
        state.apply(DiscardHand(2))
