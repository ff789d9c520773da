"""What a seat may know, and the public table that never holds a secret."""

from models.cheers.actions import DiscardHand, LimitDiscard, Play
from models.cheers.scenario import B, G, L, M, P, arrange, cid, table
from models.cheers.view import view


def test_public_view_shows_fronts_with_both_icons_hand_sizes_piles_and_turn() -> None:
    state = arrange(table(), fronts={2: [cid(M, L)]})
    pub = view(state, None)
    card = pub.fronts[2][0]
    assert (card.id, card.big, card.small) == (cid(M, L), M, L)
    assert pub.hand_sizes == {1: 3, 2: 3, 3: 3, 4: 3}
    assert pub.draw_pile == len(state.draw_pile) and pub.discard_pile == 0
    assert pub.current_player == 1 and pub.turn_player == 1 and pub.step == "turn"
    assert pub.teams == {1: "A", 2: "B", 3: "A", 4: "B"}


def test_public_view_never_holds_hands_goals_or_discard_faces() -> None:
    state = table()
    state.apply(DiscardHand(1))
    pub = view(state, None)
    assert pub.hand is None and pub.goal is None and pub.goals is None and pub.team is None
    text = repr(pub)
    for seat in state.seats:
        for card_id in state.hands[seat]:
            assert f"'{card_id}'" not in text
    for card_id in state.discard_pile:
        assert f"'{card_id}'" not in text


def test_seat_view_holds_own_hand_goal_and_teammates_only() -> None:
    state = table()
    mine = view(state, 2)
    assert [c.id for c in mine.hand] == state.hands[2]
    assert mine.goal == state.setup.goals["B"] and mine.team == "B" and mine.teammates == (4,)
    text = repr(mine)
    for card_id in state.hands[1] + state.hands[3] + state.hands[4]:
        assert f"'{card_id}'" not in text


def test_house_rule_masquerade_teams_are_secret() -> None:
    state = table(masquerade=True, seed=5)
    assert view(state, None).teams is None
    mine = view(state, 1)
    assert mine.teammates == () and mine.goal == state.goal(1)


def test_limit_discard_face_stays_hidden() -> None:
    six = [cid(P, P), cid(P, P, 1), cid(P, G), cid(P, G, 1), cid(B, B), cid(B, B, 1)]
    state = arrange(table(), hands={1: [cid(M, M)]}, fronts={2: six})
    state.apply(Play(1, cid(M, M), 2))
    assert view(state, None).limit_seats == (2,)
    events = state.apply(LimitDiscard(2, cid(B, B)))
    assert all(cid(B, B) not in repr(e.as_dict()) for e in events)


def test_goals_are_revealed_once_the_game_is_over() -> None:
    state = table(turn_cap=1)
    state.apply(DiscardHand(1))
    assert view(state, None).goals == state.setup.goals
