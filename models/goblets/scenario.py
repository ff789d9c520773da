"""Scripted tables for tests, demos and docs: a fixed deal and quick ways through a course.

>>> game = table(4, goblets=["wine", "poison", "poison", "antidote"],
...              targets={1: "McToadery", 2: "Aconitiers", 3: "Wespendorf", 4: "De Miceti"})
>>> game.current_player
2
"""

from __future__ import annotations

import random
from typing import Any

from models.base import Happening
from models.goblets.actions import Action, Pass, Pour, Toast, parse_action
from models.goblets.characters import Character
from models.goblets.engine import Game
from models.goblets.houses import House
from models.goblets.setup import FixedDeal
from models.goblets.state import Options, StepKind
from models.goblets.tokens import Token


def table(players: int = 4, seed: int = 0, *, goblets: list[str] | dict[int, list[str]] |
          None = None, targets: dict[int, str] | None = None,
          characters: dict[int, str] | None = None, host: int = 1,
          variants: tuple[str, ...] = (), loyalty: dict[int, str] | None = None,
          tie_break: list[str] | None = None, dealt: bool = False) -> Game:
    """A started game with a fixed deal. ``characters`` gives only those seats a character
    (the others have none) unless ``dealt`` deals the rest at random."""
    fixed = FixedDeal(
        characters={int(s): Character.parse(c) for s, c in characters.items()}
        if dealt and characters else {},
        targets={course: {int(s): House.parse(h) for s, h in deal.items()}
                 for course, deal in _by_course(targets).items()},
        goblets={course: [Token.parse(t) for t in pours]
                 for course, pours in _by_course(goblets).items()},
        loyalty={course: {int(s): c for s, c in deal.items()}
                 for course, deal in _by_course(loyalty).items()},
        tie_break=[Token.parse(t) for t in tie_break] if tie_break else None)
    options = Options(players, memory="memory" in variants, legacy="legacy" in variants,
                      characters=dealt)
    game = Game(options, random.Random(seed), fixed, host)
    if characters and not dealt:
        game.state.characters = {int(s): Character.parse(c) for s, c in characters.items()}
    game.start()
    return game


def _by_course(deal: Any) -> dict[int, Any]:
    """A deal keyed by course, or a bare one meaning course 1."""
    if not deal:
        return {}
    if isinstance(deal, dict) and all(isinstance(v, (dict, list)) for v in deal.values()):
        return {int(k): v for k, v in deal.items()}
    return {1: deal}


def play(game: Game, *actions: Action | dict[str, Any]) -> list[Happening]:
    """Apply actions in order; returns everything that happened."""
    out: list[Happening] = []
    for action in actions:
        out += game.apply(parse_action(action) if isinstance(action, dict) else action)
    return out


def events(happenings: list[Happening], name: str) -> list[dict[str, Any]]:
    """The public fields of the happenings called ``name``."""
    return [h.fields for h in happenings if h.event == name]


def pour_wine_until_toast(game: Game, caller: int) -> list[Happening]:
    """Everyone pours their Wine into their own goblet, two a turn, until ``caller`` starts a
    turn with no Wine left; then ``caller`` calls the Toast. Other choices are passed."""
    out: list[Happening] = []
    for _ in range(500):
        step = game.step
        assert step is not None, "the game ended before the Toast"
        unit = game.state.units[step.unit]
        if step.kind == StepKind.NOBLE_FIRST:
            out += game.apply(Toast(step.seat) if step.seat == caller else Pass(step.seat))
            if step.seat == caller:
                return out
            continue
        if step.kind == StepKind.TURN and step.seat == caller and not step.acted and \
                game.is_legal(Toast(caller)):
            return out + game.apply(Toast(caller))
        if step.kind == StepKind.TURN and unit.screen[Token.WINE] > 0:
            out += game.apply(Pour(step.seat, unit.place, (Token.WINE,)))
        else:
            out += game.apply(Pass(step.seat))
    raise AssertionError("no Toast after 500 actions")


def pass_until(game: Game, phase: str | None = None, kind: str | None = None) -> list[Happening]:
    """Everyone passes until the game reaches ``phase`` or a step of ``kind`` (or is over)."""
    out: list[Happening] = []
    while not game.is_over and game.step is not None:
        if (phase and game.state.phase == phase) or (kind and game.step.kind == kind):
            break
        if game.step.kind in (StepKind.DRINK, StepKind.CHOOSE):
            break
        out += game.apply(Pass(game.step.seat))
    return out
