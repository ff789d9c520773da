"""Front limit, victory after full resolution, simultaneous goals, the draw pile's end."""

import pytest

from models.cheers.actions import Cheers, DiscardHand, LimitDiscard, Play, Push
from models.cheers.errors import CardNotInFront, NotYourTurn
from models.cheers.scenario import B, G, L, M, P, arrange, cid, table

GOAL_A = ["grenadine", "grenadine", "mint", "mint", "lemon"]
GOAL_B = ["cassis", "cassis", "curacao", "curacao", "lemon"]
GOALS = {"A": GOAL_A, "B": GOAL_B}
SIX = [cid(P, P), cid(P, P, 1), cid(P, G), cid(P, G, 1), cid(B, B), cid(B, B, 1)]


def test_front_limit_owner_discards_one_of_their_choice_face_down() -> None:
    state = arrange(table(goals=GOALS), hands={1: [cid(M, M)]}, fronts={2: SIX})
    events = state.apply(Play(1, cid(M, M), 2))
    assert state.step == "limit_discard" and state.current_player == 2
    assert events[-1].as_dict() == {"event": "awaiting", "seat": 2, "decision": "limit_discard"}
    with pytest.raises(NotYourTurn):
        state.apply(LimitDiscard(1, cid(M, M)))
    with pytest.raises(CardNotInFront):
        state.apply(LimitDiscard(2, cid(G, G)))
    events = state.apply(LimitDiscard(2, cid(P, G)))
    assert len(state.fronts[2]) == 6 and state.discard_pile == [cid(P, G)]
    limit = next(e for e in events if e.event == "limit_discard")
    assert limit.fields == {"seat": 2} and limit.private == {"card": cid(P, G)}
    assert state.current_player == 2 and state.turn == 2


def test_front_limit_after_a_push() -> None:
    state = arrange(table(goals=GOALS), fronts={1: [cid(M, M)], 3: SIX})
    state.apply(Push(1, cid(M, M), 3))
    assert state.current_player == 3 and state.step == "limit_discard"


def test_front_limit_after_cheers_both_recipients_in_turn_order() -> None:
    six_more = [cid(G, P), cid(G, P, 1), cid(M, P), cid(M, P, 1), cid(L, B), cid(L, B, 1)]
    state = arrange(table(goals=GOALS, first=2), hands={2: [cid(M, L)]},
                    fronts={1: SIX, 3: [cid(L, G)], 4: six_more})
    state.apply(Play(2, cid(M, L), 3))
    state.apply(Cheers(3, cid(L, G), (1, 4)))
    # turn order from the active player (seat 2): 3, 4, 1
    assert state.limit_queue == [4, 1]
    state.apply(LimitDiscard(4, cid(G, P)))
    assert state.current_player == 1
    state.apply(LimitDiscard(1, cid(B, B)))
    assert state.step == "turn" and state.current_player == 3
    assert all(len(f) <= 6 for f in state.fronts.values())


def test_cheers_resolves_before_the_limit_is_counted() -> None:
    state = arrange(table(goals=GOALS), hands={1: [cid(M, P)]}, fronts={2: SIX})
    state.apply(Play(1, cid(M, P), 2))  # 7 cards for a moment, but a cassis clinks
    assert state.step == "cheers"
    state.apply(Cheers(2, cid(P, P), (1, 3)))
    assert len(state.fronts[2]) == 5 and state.step == "turn"


def test_victory_when_goal_held_and_no_other_ingredient() -> None:
    front = [cid(G, G), cid(G, M), cid(M, M), cid(M, L)]
    state = arrange(table(goals=GOALS), hands={1: [cid(L, L)]}, fronts={1: front})
    events = state.apply(Play(1, cid(L, L), 1))
    assert state.over and state.winner_team == "A" and state.winner_seat == 1
    names = [e.event for e in events]
    assert names[-3:] == ["victory", "game_over", "goals_revealed"]
    assert events[-2].as_dict() == {"event": "game_over", "winner": "A", "reason": "victory"}


def test_victory_allows_extra_copies_of_goal_ingredients() -> None:
    front = [cid(G, G), cid(G, M), cid(G, B), cid(M, M), cid(M, L), cid(M, B)]
    state = arrange(table(goals=GOALS), hands={1: [cid(L, L)]}, fronts={3: front})
    state.apply(Play(1, cid(L, L), 3))
    # 7 cards: the limit discard comes first, then victory is checked
    assert state.step == "limit_discard" and not state.over
    state.apply(LimitDiscard(3, cid(G, B)))
    assert state.over and state.winner_seat == 3


def test_no_victory_with_a_card_outside_the_goal() -> None:
    front = [cid(G, G), cid(G, M), cid(M, M), cid(M, L), cid(P, P)]
    state = arrange(table(goals=GOALS), hands={1: [cid(L, L)]}, fronts={1: front})
    state.apply(Play(1, cid(L, L), 1))
    assert not state.over


def test_victory_checked_after_the_limit_discard() -> None:
    front = [cid(G, G), cid(G, M), cid(M, M), cid(M, L), cid(L, L), cid(P, P)]
    state = arrange(table(goals=GOALS), hands={1: [cid(L, B)]}, fronts={1: front})
    state.apply(Play(1, cid(L, B), 1))
    assert state.step == "limit_discard" and not state.over
    state.apply(LimitDiscard(1, cid(P, P)))
    assert state.over and state.winner_team == "A"


def test_victory_on_anyones_front_not_only_the_active_player() -> None:
    front = [cid(P, P), cid(P, G), cid(B, B), cid(B, G)]
    state = arrange(table(goals=GOALS), hands={1: [cid(L, L)]}, fronts={2: front})
    state.apply(Play(1, cid(L, L), 2))  # seat 1 completes the enemy's goal
    assert state.over and state.winner_team == "B" and state.winner_seat == 2


def test_victory_by_a_cheers_gift() -> None:
    front4 = [cid(P, P), cid(P, G), cid(B, B), cid(B, G)]
    state = arrange(table(goals=GOALS), hands={1: [cid(M, L)]},
                    fronts={2: [cid(L, G)], 4: front4})
    state.apply(Play(1, cid(M, L), 2))
    assert not state.over
    state.apply(Cheers(2, cid(L, G), (3, 4)))  # seat 2 hands its mate the lemon it needs
    assert state.over and state.winner_seat == 4


def test_house_rule_simultaneous_victory_first_in_turn_order_from_active() -> None:
    goals = {"A": GOAL_A, "B": GOAL_A}
    ready = [cid(G, G), cid(G, M), cid(M, M), cid(M, L), cid(L, L)]
    ready2 = [cid(G, G, 1), cid(G, M, 1), cid(M, M, 1), cid(M, L, 1), cid(L, L, 1)]
    state = arrange(table(goals=goals, first=3), hands={3: [cid(P, P)]},
                    fronts={1: ready, 4: ready2, 2: [cid(L, P)]})
    state.apply(DiscardHand(3))
    # both 1 and 4 hold the goal; from seat 3, turn order is 3, 4, 1, 2: seat 4 wins
    assert state.over and state.winner_seat == 4 and state.winner_team == "B"


def test_house_rule_empty_draw_pile_is_rebuilt_from_the_discards() -> None:
    state = table(goals=GOALS)
    state.discard_pile, state.draw_pile = state.draw_pile[:-2], state.draw_pile[-2:]
    events = state.apply(DiscardHand(1))
    assert [e.event for e in events][:3] == ["discarded_hand", "drew", "reshuffled"] or \
        "reshuffled" in [e.event for e in events]
    assert state.pile_runs == 2 and len(state.hands[1]) == 3
    assert sorted(state.all_cards()) == sorted(f"C{n:02d}" for n in range(1, 51))


def test_house_rule_reshuffle_comes_between_the_cards_drawn_before_and_after_it() -> None:
    state = table(goals=GOALS)
    state.discard_pile, state.draw_pile = state.draw_pile[:-2], state.draw_pile[-2:]
    events = [e.as_dict() for e in state.apply(DiscardHand(1))]
    assert events[:4] == [{"event": "discarded_hand", "seat": 1, "count": 3},
                          {"event": "drew", "seat": 1, "count": 2},
                          {"event": "reshuffled", "cards": 39, "pile": 2},
                          {"event": "drew", "seat": 1, "count": 1}]


def test_house_rule_pile_rebuilt_when_a_card_is_needed_reshuffles_before_the_draw() -> None:
    state = table(goals=GOALS)
    state.discard_pile, state.draw_pile = state.draw_pile, []  # ran out with no discards earlier
    events = [e.as_dict() for e in state.apply(DiscardHand(1))]
    assert events[:3] == [{"event": "discarded_hand", "seat": 1, "count": 3},
                          {"event": "reshuffled", "cards": 41, "pile": 2},
                          {"event": "drew", "seat": 1, "count": 3}]


def test_house_rule_fourth_empty_draw_pile_ends_with_no_winner() -> None:
    state = table(goals=GOALS)
    state.pile_runs = 4
    state.discard_pile, state.draw_pile = state.draw_pile[:-2], state.draw_pile[-2:]
    events = state.apply(DiscardHand(1))
    assert state.over and state.winner_team is None and state.end_reason == "draw_pile_exhausted"
    assert {"event": "game_over", "winner": None, "reason": "draw_pile_exhausted"} in \
        [e.as_dict() for e in events]


def test_house_rule_turn_cap_ends_with_no_winner() -> None:
    state = table(goals=GOALS, turn_cap=3)
    for seat in (1, 2):
        state.apply(DiscardHand(seat))
    assert not state.over
    events = state.apply(DiscardHand(3))
    assert state.over and events[-2].as_dict() == {"event": "game_over", "winner": None,
                                                   "reason": "turn_cap"}
