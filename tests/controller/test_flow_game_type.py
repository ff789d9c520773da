"""A flow takes its id, title and player counts from its engine's ``game_type``."""

from __future__ import annotations

from controller.flow import GameFlow, Input
from controller.games import built_in
from hardware.display.widgets import Scene
from models.base import GameType


def test_every_built_in_flow_speaks_its_engines_game_type() -> None:
    games = built_in()
    assert games, "no built-in game loaded"
    for game in games:
        declared = game.flow.game_type
        assert declared is not None, f"{game.package} declares no game_type"
        assert (game.flow.game, game.flow.title, game.flow.min_players, game.flow.max_players) == (
            declared.name, declared.title, declared.min_players, declared.max_players)


def _flow(declared: GameType) -> type[GameFlow]:
    class Declared(GameFlow):
        game_type = declared

        def start(self) -> None:
            pass

        def handle(self, inp: Input) -> None:
            pass

        def scene(self) -> Scene:
            return Scene("")

        @property
        def finished(self) -> bool:
            return False

    return Declared


def test_a_declared_game_type_fills_in_the_flows_names_and_counts() -> None:
    flow = _flow(GameType("dice-test", "Dice", min_players=3, max_players=5, real_time=False))
    assert (flow.game, flow.title, flow.min_players, flow.max_players) == ("dice-test", "Dice", 3, 5)
    # the default set-up question offers exactly the declared counts
    (players,) = flow.setup_questions({})
    assert [v for _, v in players.options({})] == [3, 4, 5]


def test_a_flow_without_a_game_type_keeps_its_own_names() -> None:
    class Plain(GameFlow):
        game = "plain-test"
        title = "Plain"

        def start(self) -> None:
            pass

        def handle(self, inp: Input) -> None:
            pass

        def scene(self) -> Scene:
            return Scene("")

        @property
        def finished(self) -> bool:
            return False

    assert (Plain.game, Plain.title, Plain.min_players, Plain.max_players) == ("plain-test", "Plain", 2, 8)
