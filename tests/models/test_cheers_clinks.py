"""CHEERS: the played card's SMALL icon meets a BIG icon already in that front."""

import pytest

from models.cheers.actions import Cheers, Play, Push
from models.cheers.errors import (
    CardNotInFront,
    CheersToSamePlayer,
    CheersToTarget,
    CheersWithoutEnemy,
    NotAClinkingCard,
    NotYourTurn,
)
from models.cheers.scenario import B, G, L, M, P, arrange, cid, table

# teams: A = seats 1, 3; B = seats 2, 4


def test_cheers_when_small_icon_matches_a_big_icon_in_front() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    events = state.apply(Play(1, cid(M, L), 2))
    assert state.step == "cheers" and state.current_player == 2
    assert [e.event for e in events] == ["played", "cheers_called", "awaiting"]
    assert events[1].fields["matches"] == [cid(L, G)]


def test_no_cheers_when_big_icon_of_played_matches_small_icon_in_front() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(G, M)]})
    state.apply(Play(1, cid(M, L), 2))
    assert state.cheers is None and state.fronts[2] == [cid(G, M), cid(M, L)]


def test_cheers_target_gives_both_cards_to_two_other_players() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    events = state.apply(Cheers(2, cid(L, G), (1, 4)))
    assert state.fronts[2] == [] and state.fronts[1] == [cid(M, L)] and state.fronts[4] == [cid(L, G)]
    assert events[0].as_dict() == {"event": "cheers", "target": 2, "played": cid(M, L),
                                   "clinked": cid(L, G), "given": {"1": cid(M, L), "4": cid(L, G)}}
    assert state.current_player == 2 and state.turn == 2  # the turn passed after resolution


def test_cheers_target_chooses_which_matching_card_clinks() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G), cid(L, B), cid(P, P)]})
    state.apply(Play(1, cid(M, L), 2))
    assert {a.clink for a in state.legal_actions()} == {cid(L, G), cid(L, B)}
    with pytest.raises(NotAClinkingCard, match="choose which card"):
        state.apply(Cheers(2, "", (1, 3)))
    with pytest.raises(NotAClinkingCard, match="does not clink"):
        state.apply(Cheers(2, cid(P, P), (1, 3)))
    with pytest.raises(CardNotInFront):
        state.apply(Cheers(2, cid(B, B), (1, 3)))
    state.apply(Cheers(2, cid(L, B), (1, 3)))
    assert state.fronts[2] == [cid(L, G), cid(P, P)] and state.fronts[3] == [cid(L, B)]


def test_cheers_only_the_target_decides() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    with pytest.raises(NotYourTurn, match="waits on seat 2"):
        state.apply(Cheers(1, cid(L, G), (3, 4)))


def test_cheers_split_to_the_same_player_is_refused() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    with pytest.raises(CheersToSamePlayer):
        state.apply(Cheers(2, cid(L, G), (1, 1)))


def test_cheers_never_to_the_target_themself() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    with pytest.raises(CheersToTarget):
        state.apply(Cheers(2, cid(L, G), (2, 1)))


def test_cheers_at_least_one_card_to_an_enemy() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    before = (dict(state.fronts), state.cheers)
    # seat 2's enemies are 1 and 3; its only teammate is 4: so (4, x) needs x an enemy
    assert all(1 in a.give or 3 in a.give for a in state.legal_actions())
    assert state.fronts[2] == before[0][2]
    state.apply(Cheers(2, cid(L, G), (4, 3)))  # one to the mate, one to an enemy: fine


def test_cheers_without_enemy_is_refused_six_players() -> None:
    state = table(6, split="3+3", teams={"A": [1, 3, 5], "B": [2, 4, 6]})
    arrange(state, hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    with pytest.raises(CheersWithoutEnemy, match="both on team B"):
        state.apply(Cheers(2, cid(L, G), (4, 6)))


def test_cheers_on_your_own_front() -> None:
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={1: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 1))
    assert state.current_player == 1 and state.step == "cheers"
    state.apply(Cheers(1, cid(L, G), (2, 3)))
    assert state.fronts[1] == [] and state.fronts[2] == [cid(M, L)]


def test_cards_moved_by_a_cheers_never_cheers_again() -> None:
    # the given card's small icon (G) meets a grenadine in front of seat 4: no second cheers
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)], 4: [cid(G, G)]})
    state.apply(Play(1, cid(M, L), 2))
    state.apply(Cheers(2, cid(L, G), (3, 4)))
    assert state.cheers is None and state.fronts[4] == [cid(G, G), cid(L, G)]


def test_push_never_cheers() -> None:
    state = arrange(table(), fronts={1: [cid(M, L)], 2: [cid(L, L)]})
    state.apply(Push(1, cid(M, L), 2))
    assert state.step == "turn" and state.current_player == 2


def test_house_rule_masquerade_cheers_without_enemy_requirement() -> None:
    state = table(4, masquerade=True, first=1, seed=3)
    arrange(state, hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    mate = next(s for s in (1, 3, 4) if s != 2 and state.team(s) == state.team(2))
    other = next(s for s in (1, 3, 4) if s not in (2, mate))
    gives = {a.give for a in state.legal_actions()}
    assert len(gives) == 6  # every ordered pair of the other three
    state.apply(Cheers(2, cid(L, G), (mate, other)))
    assert state.cheers is None


def test_cheers_the_played_card_is_not_a_clink_and_the_reason_says_so() -> None:
    # the played card lies in the target's front while the cheers waits, but it does not
    # clink with itself: the refusal names it as the played card and lists the real choices
    state = arrange(table(), hands={1: [cid(M, L)]}, fronts={2: [cid(L, G)]})
    state.apply(Play(1, cid(M, L), 2))
    with pytest.raises(NotAClinkingCard, match=f"{cid(M, L)} is the card played on seat 2.*{cid(L, G)}"):
        state.apply(Cheers(2, cid(M, L), (1, 3)))
    assert state.step == "cheers" and state.fronts[2] == [cid(L, G), cid(M, L)]

