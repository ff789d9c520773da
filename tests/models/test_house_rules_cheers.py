"""Cheers: house rules of docs/rules/cheers.md, each pinned by a test."""

from __future__ import annotations

from models.cheers.actions import Cheers, DiscardHand, Play
from models.cheers.scenario import G, L, M, arrange, cid, table


def test_house_rule_the_active_player_may_receive_a_clinking_card() -> None:
    # 3 players, A = seats 1, 3 and B = seat 2: when seat 1 cheers seat 2, the only two
    # other players are seat 1 (the active player) and seat 3
    state = arrange(table(3, teams={"A": [1, 3], "B": [2]}), hands={1: [cid(M, L)]},
                    fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    assert state.current_player == 2
    gives = {a.give for a in state.legal_actions()}
    assert gives == {(1, 3), (3, 1)}
    state.apply(Cheers(2, cid(L, G), (1, 3)))
    assert state.fronts[1] == [cid(M, L)] and state.fronts[3] == [cid(L, G)]


def test_house_rule_discarding_an_empty_hand_is_allowed_and_passes_the_turn() -> None:
    state = table(4)
    state.discard_pile += state.draw_pile + state.hands[1]
    state.draw_pile, state.hands[1] = [], []  # the hand could not be refilled
    state.pile_runs = 4  # and the pile can no longer be rebuilt from the discards
    assert DiscardHand(1) in state.legal_actions()
    assert not any(isinstance(a, Play) for a in state.legal_actions())
    events = [e.as_dict() for e in state.apply(DiscardHand(1))]
    assert events[0] == {"event": "discarded_hand", "seat": 1, "count": 0}
    assert state.turn_player == 2 and not state.over
