"""The one engine protocol (models/base.py): every game's engine speaks it the same way."""

from __future__ import annotations

import random

import pytest
from tchin_engine_helpers import FOUR, press, referee, say, tick

from models.base import Engine, GameIsOver, Outcome, Termination
from models.cheers.bots import Bot, play_bot_game
from models.cheers.engine import State
from models.cheers.setup import build_setup
from models.goblets import Game, Options
from models.goblets.actions import Pass
from models.goblets.bots import play_out
from models.tchin_tchin import Buzz, Phase, Referee


def cheers(seed: int = 3) -> State:
    rng = random.Random(seed)
    state = State.seated(build_setup(4, rng), rng)
    state.start()
    return state


def goblets(seed: int = 3, players: int = 4) -> Game:
    game = Game(Options(players), random.Random(seed))
    game.start()
    return game


def test_every_engine_declares_its_game_type_and_speaks_the_protocol():
    engines = [referee(FOUR, ["D24"]), cheers(), goblets()]
    assert [type(e).game_type.name for e in engines] == ["tchin-tchin", "cheers", "goblets"]
    assert [type(e).game_type.real_time for e in engines] == [True, False, False]
    for engine in engines:
        assert isinstance(engine, Engine)
        assert engine.outcome is None, "no outcome before the end"
        game_type = type(engine).game_type
        assert 2 <= game_type.min_players <= game_type.max_players <= 12


@pytest.mark.parametrize("make", [cheers, goblets], ids=["cheers", "goblets"])
def test_a_turn_based_engine_offers_actions_only_to_the_seat_it_waits_on(make):
    engine = make()
    seat = engine.current_player
    assert seat is not None
    assert engine.legal_actions(seat) == engine.legal_actions() != []
    others = [s for s in range(1, 5) if s != seat]
    assert all(engine.legal_actions(s) == [] for s in others)
    engine.apply(engine.legal_actions(seat)[0])  # a legal action is taken


def test_the_real_time_referee_takes_a_press_from_any_seated_buzzer_until_the_end():
    ref = referee(FOUR, ["D24"], first=1)
    assert ref.current_player == 1, "between cards the game waits on the revealer"
    assert ref.legal_actions(3) == [Buzz(0.0, (3,))]
    assert ref.legal_actions(9) == [], "nobody plays at station 9"
    assert [a.stations for a in ref.legal_actions()] == [(1,), (2,), (3,), (4,)]
    press(ref, 0.5, 1)  # reveals D24: 3 is invited
    assert ref.phase == Phase.OPEN and ref.current_player is None, "any invited player may claim"
    press(ref, 1.0, 3)
    assert ref.current_player == 3, "the box listens to the claimant"
    say(ref, 1.1, 1.5, "na zdorovie")
    tick(ref, 10.0)
    assert ref.phase == Phase.OVER and ref.legal_actions() == []
    assert ref.outcome == Outcome(Termination.CARDS_RAN_OUT, (3,), {1: 0, 2: 0, 3: 1, 4: 0})


def test_a_disabled_buzzer_has_no_legal_press():
    from models.tchin_tchin import Options, Table

    ref = Referee(Table({1: "FR", 2: "JP", 3: "MX", 4: "RU"}, ("D24",), 1), Options(),
                  disabled=frozenset({2}))
    assert [a.stations for a in ref.legal_actions()] == [(1,), (3,), (4,)]


def test_the_cheers_outcome_names_the_winning_team_and_why():
    for seed in range(6):
        state = play_bot_game(seed, 4, turn_cap=400)
        outcome = state.outcome
        assert outcome is not None and outcome.scores == {}
        if state.end_reason == "victory":
            assert outcome.termination is Termination.GOAL_REACHED
            assert set(outcome.winners) == {s for s in state.seats if state.team(s) == state.winner_team}
        else:
            assert outcome.winners == ()
        with pytest.raises(GameIsOver):
            state.apply(Bot(random.Random(0)).choose(cheers()))


def test_an_abandoned_cheers_game_is_over_with_nobody_winning():
    state = cheers()
    state.abandon()
    assert state.outcome == Outcome(Termination.ABANDONED, (), {})
    assert state.legal_actions() == []


def test_the_goblets_outcome_is_the_victory_points_after_the_courses():
    game = goblets(seed=5, players=5)
    play_out(game, random.Random(1))
    outcome = game.outcome
    assert outcome is not None
    assert outcome.termination is Termination.COURSES_PLAYED
    assert outcome.scores == game.state.vp and outcome.winners == tuple(game.state.winners)
    with pytest.raises(GameIsOver):
        game.apply(Pass(1))


def test_russian_goblette_ends_when_a_player_reaches_the_victory_points():
    game = goblets(seed=2, players=2)
    play_out(game, random.Random(2))
    outcome = game.outcome
    assert outcome is not None and outcome.termination is Termination.GOAL_REACHED
    assert all(outcome.scores[s] >= 3 for s in outcome.winners)


def test_each_engine_view_is_the_public_table_for_none():
    from models.cheers.view import view as cheers_view
    from models.goblets.view import view as goblets_view
    from models.tchin_tchin import view as tchin_view

    ref, state, game = referee(FOUR, ["D24"]), cheers(), goblets()
    assert ref.view(None) == tchin_view(ref)
    assert state.view(None) == cheers_view(state, None)
    assert game.view(None) == goblets_view(game.state, None)
