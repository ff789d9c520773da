"""The Main Course: Pour, Peek, Rotate, Swap, Toast, Pass; two actions; named errors."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from models.goblets.actions import Pass, Peek, Pour, Rotate, Swap, Toast, parse_action
from models.goblets.engine import Game
from models.goblets.errors import (
    IllegalAction,
    MalformedAction,
    NoActionsLeft,
    NoSuchGoblet,
    NotAllowedNow,
    NotYourAbility,
    NotYourTurn,
    ToastNotFirstAction,
    ToastWithWineLeft,
    TokenNotBehindScreen,
    UnknownAction,
)
from models.goblets.scenario import events, play, pour_wine_until_toast, table
from models.goblets.tokens import Token

W, P, A = Token.WINE, Token.POISON, Token.ANTIDOTE
GOBLETS = ["wine", "poison", "poison", "antidote"]
TARGETS = {1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"}


def game4(**kw: object) -> Game:
    return table(4, goblets=GOBLETS, targets=TARGETS, **kw)  # type: ignore[arg-type]


def snapshot(game: Game) -> object:
    return copy.deepcopy(game.state)


def test_up_to_two_actions_a_turn_then_the_next_player_clockwise() -> None:
    game = game4()
    out = play(game, Pour(2, 2, (W,)))
    assert events(out, "turn") == [{"seat": 2, "actions_left": 1, "step": "turn",
                                    "phase": "turns"}]
    out = play(game, Pour(2, 3, (P,)))
    assert game.current_player == 3
    assert events(out, "turn")[-1]["actions_left"] == 2


def test_the_same_action_may_be_taken_twice_in_a_turn() -> None:
    game = game4()
    play(game, Pour(2, 1, (P,)), Pour(2, 1, (P,)))
    assert game.state.places[0].tokens[P] == 2
    assert game.state.units[1].screen[P] == 0


def test_pass_ends_the_turn_without_an_action() -> None:
    game = game4()
    before = Counter(game.state.units[1].screen)
    play(game, Pass(2))
    assert game.current_player == 3
    assert game.state.units[1].screen == before


def test_pour_puts_a_token_from_your_screen_into_any_goblet_publicly_only_who_and_where() -> None:
    game = game4()
    out = play(game, Pour(2, 4, (P,)))
    assert game.state.places[3].tokens == Counter({A: 1, P: 1})
    assert events(out, "poured") == [{"seat": 2, "goblet": 4, "count": 1}]
    assert game.view(None)["goblets"][3]["poured_by"] == [2]
    assert "poison" not in str(events(out, "poured"))


def test_pour_of_a_token_not_behind_the_screen_is_refused() -> None:
    game = game4()
    with pytest.raises(TokenNotBehindScreen, match="0 ogre"):
        play(game, Pour(2, 1, (Token.OGRE,)))


def test_peek_looks_into_your_own_goblet_privately() -> None:
    game = game4()
    out = play(game, Peek(2))
    peek = next(h for h in out if h.event == "peeked")
    assert peek.fields == {"seat": 2}
    assert peek.private == {"goblet": 2, "tokens": {"poison": 1}}
    assert game.view(2)["seen"][0]["tokens"] == {"poison": 1}
    assert game.view(3)["seen"] == []


def test_peek_into_another_goblet_needs_the_sommelier() -> None:
    game = game4()
    with pytest.raises(NotYourAbility, match="Sommelier"):
        play(game, Peek(2, 3))


def test_rotate_moves_every_goblet_one_place_clockwise_or_widdershins() -> None:
    game = game4()
    before = [g.tokens for g in game.state.places]
    play(game, Rotate(2, "cw"))
    assert [g.tokens for g in game.state.places] == [before[3], before[0], before[1], before[2]]
    play(game, Rotate(2, "ccw"))
    assert [g.tokens for g in game.state.places] == before


def test_rotate_two_places_needs_the_butler() -> None:
    with pytest.raises(NotYourAbility, match="Butler"):
        play(game4(), Rotate(2, "cw", 2))


def test_swap_exchanges_your_goblet_for_another_players() -> None:
    game = game4()
    mine, theirs = game.state.places[1], game.state.places[3]
    out = play(game, Swap(2, goblet=4))
    assert game.state.places[1] is theirs and game.state.places[3] is mine
    assert events(out, "swapped") == [{"seat": 2, "goblets": [2, 4]}]


def test_swap_of_two_other_goblets_needs_the_juggler() -> None:
    with pytest.raises(NotAllowedNow, match="Juggler"):
        play(game4(), Swap(2, goblets=(3, 4)))


def test_toast_refused_with_wine_behind_the_screen_at_the_start_of_the_turn() -> None:
    game = game4()
    before = snapshot(game)
    with pytest.raises(ToastWithWineLeft, match="3 Wine"):
        play(game, Toast(2))
    assert game.state == before


def test_toast_only_as_the_first_and_only_action() -> None:
    game = game4()
    # empty seat 2's wine over two rounds; in round three seat 2 pours first, then toasts
    for _ in range(2):
        for seat in (2, 3, 4, 1):
            unit = game.state.unit_of(seat)
            while game.current_player == seat and unit.screen[W]:
                play(game, Pour(seat, unit.place, (W,)))
            if game.current_player == seat:
                play(game, Pass(seat))
    assert game.state.units[1].screen[W] == 0
    play(game, Pour(2, 2, (P,)))
    with pytest.raises(ToastNotFirstAction):
        play(game, Toast(2))


def test_toast_ends_the_course_turns_and_starts_the_toast_phase() -> None:
    game = game4()
    out = pour_wine_until_toast(game, caller=2)
    assert events(out, "toast") == [{"caller": 2, "course": 1}]
    assert game.state.phase == "toast"
    assert game.step.kind == "final" and game.current_player == 3


def test_not_your_turn_is_a_named_error_and_changes_nothing() -> None:
    game = game4()
    before = snapshot(game)
    with pytest.raises(NotYourTurn, match="seat 2's move"):
        play(game, Pour(3, 1, (W,)))
    assert game.state == before


def test_an_action_when_none_is_left() -> None:
    game = game4()
    play(game, Pass(2))
    with pytest.raises(NoActionsLeft, match="no action left"):
        play(game, Pour(2, 1, (W,)))


def test_no_such_goblet() -> None:
    with pytest.raises(NoSuchGoblet, match="place 9"):
        play(game4(), Pour(2, 9, (W,)))


def test_bad_do_payloads_name_what_is_wrong() -> None:
    with pytest.raises(UnknownAction, match="'dance'"):
        parse_action({"type": "dance", "seat": 1})
    with pytest.raises(MalformedAction, match="'goblet'"):
        parse_action({"type": "pour", "seat": 1, "token": "wine"})
    with pytest.raises(MalformedAction, match="unknown token 'beer'"):
        parse_action({"type": "pour", "seat": 1, "token": "beer", "goblet": 1})
    with pytest.raises(MalformedAction, match="direction"):
        parse_action({"type": "rotate", "seat": 1, "direction": "up"})


def test_every_illegal_action_leaves_the_game_untouched() -> None:
    game = game4()
    play(game, Pour(2, 1, (W,)))
    before = snapshot(game)
    for bad in (Toast(2), Pour(2, 1, (Token.UNICORN,)), Peek(2, 4), Rotate(2, "cw", 3),
                Swap(2, goblet=2), Pass(1), Pour(2, 0, (W,))):
        with pytest.raises(IllegalAction):
            game.apply(bad)
        assert game.state == before


def test_the_do_format_round_trips() -> None:
    from models.goblets.actions import to_dict
    from models.goblets.engine import Game as _G  # noqa: F401

    game = game4()
    for action in game.legal_actions():
        assert parse_action(to_dict(action)) == action
