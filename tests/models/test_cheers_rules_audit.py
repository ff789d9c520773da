"""Sentences of the device rules page (shared/rules/cheers.md) pinned one by one.

Each test quotes the sentence it checks; the engine is driven as a dispute scenario would be.
"""

from itertools import permutations

import pytest

from models.base import IllegalAction
from models.cheers.actions import Cheers, DiscardHand, Play
from models.cheers.errors import CardNotInHand, CheersWithoutEnemy
from models.cheers.scenario import B, G, L, M, P, arrange, cid, table

GOAL_A = ["grenadine", "grenadine", "mint", "mint", "lemon"]
GOAL_B = ["cassis", "cassis", "curacao", "curacao", "lemon"]
GOAL_C = ["grenadine", "cassis", "cassis", "curacao", "curacao"]


def test_enemy_requirement_bites_at_three_two() -> None:
    # "at least one of them on an enemy team"; "it matters at 3+2 and 3+3"
    state = table(5, split="3+2", goals={"A": GOAL_A, "B": GOAL_B})
    assert dict(state.setup.teams) == {1: "A", 2: "B", 3: "A", 4: "B", 5: "A"}
    arrange(state, hands={1: [cid(M, L)]}, fronts={3: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 3))
    assert state.current_player == 3 and state.step == "cheers"
    pairs = {a.give for a in state.legal_actions()}
    assert (1, 5) not in pairs and (5, 1) not in pairs
    with pytest.raises(CheersWithoutEnemy):
        state.apply(Cheers(3, cid(L, G), (1, 5)))
    state.apply(Cheers(3, cid(L, G), (1, 2)))
    assert state.fronts[1] == [cid(M, L)] and state.fronts[2] == [cid(L, G)]


def test_enemy_requirement_never_bites_at_two_two_one() -> None:
    # "At 2+2+1 a target has at most one teammate ... the enemy requirement never bites there"
    for target in range(1, 6):
        state = table(5, split="2+2+1", goals={"A": GOAL_A, "B": GOAL_B, "C": GOAL_C},
                      first=target)
        arrange(state, hands={target: [cid(M, L)]}, fronts={target: [cid(L, G)]})
        state.apply(Play(target, cid(M, L), target))  # a cheers with oneself
        others = [s for s in range(1, 6) if s != target]
        assert {a.give for a in state.legal_actions()} == set(permutations(others, 2))


def test_no_victory_while_a_cheers_is_pending() -> None:
    # "Victory is checked after a move has fully resolved (cheers distribution ... first)"
    state = table(goals={"A": GOAL_A, "B": GOAL_B}, first=2)
    arrange(state, hands={2: [cid(G, L)]},
            fronts={1: [cid(G, G), cid(M, M), cid(M, M, 1), cid(L, G)]})
    events = state.apply(Play(2, cid(G, L), 1))  # seat 1's front now holds G G M M L
    assert state.step == "cheers" and not state.over
    assert "victory" not in [e.event for e in events]
    events = state.apply(Cheers(1, cid(L, G), (2, 4)))
    assert "victory" not in [e.event for e in events] and not state.over
    assert state.fronts[1] == [cid(G, G), cid(M, M), cid(M, M, 1)]


def test_only_the_active_player_refills_after_a_cheers() -> None:
    # "At the end of the turn the active player refills the hand to 3."
    state = table(goals={"A": GOAL_A, "B": GOAL_B}, first=2)
    arrange(state, hands={2: [cid(M, L), cid(P, P), cid(B, B)], 3: [cid(G, G)]},
            fronts={3: [cid(L, G)]})
    state.apply(Play(2, cid(M, L), 3))
    events = state.apply(Cheers(3, cid(L, G), (2, 4)))
    assert len(state.hands[2]) == 3 and state.hands[3] == [cid(G, G)]
    assert [e.fields["seat"] for e in events if e.event == "drew"] == [2]
    assert state.turn_player == 3 and state.turn == 2


def test_the_fourth_empty_draw_pile_counts_from_the_original_deck() -> None:
    # "Empty draw pile: shuffle the discard pile into a new draw pile. When the draw pile is
    # empty for the fourth time and cannot be rebuilt, ... the game ends with no winner."
    state = table(goals={"A": GOAL_A, "B": GOAL_B})
    piles = []
    while not state.over:
        events = state.apply(DiscardHand(state.current_player))
        piles += [e.fields["pile"] for e in events if e.event == "reshuffled"]
    assert piles == [2, 3, 4]
    assert state.end_reason == "draw_pile_exhausted" and state.winner_team is None
    assert state.draw_pile == [] and state.pile_runs == 4


def test_a_card_id_that_is_no_card_is_refused_by_name() -> None:
    # "Play a card from hand": a card not in hand, even one that does not exist, is refused
    state = table()
    before = state.to_summary()
    for bad in ("C99", "c01", ""):
        with pytest.raises(CardNotInHand) as err:
            state.apply(Play(1, bad, 2))
        assert isinstance(err.value, IllegalAction)
    assert state.to_summary() == before
