"""A simple computer player for empty seats (and for the property tests).

It pours its Wine into its own goblet, Poison into its target's, Antidote into its own,
Peeks now and then, Toasts as soon as it may, and takes the first sensible choice
otherwise. It only ever picks from ``legal_actions()``.
"""

from __future__ import annotations

import random

from models.goblets.actions import (
    Action,
    Choose,
    Drink,
    Gamble,
    Pass,
    Peek,
    Plot,
    Pour,
    Rotate,
    Swap,
    Taste,
    Toast,
)
from models.goblets.engine import Game
from models.goblets.state import Phase
from models.goblets.tokens import Token


def choose_action(game: Game, rng: random.Random) -> Action:
    """One legal action for the seat to move."""
    legal = game.legal_actions()
    if not legal:
        raise ValueError("no legal action: the game is over or has not started")
    s = game.state
    step = s.step
    assert step is not None
    unit = s.units[step.unit]
    toasts = [a for a in legal if isinstance(a, Toast)]
    if toasts:
        return toasts[0]
    if rng.random() < 0.15:
        return rng.choice(legal)
    target_place = None
    if unit.target is not None:
        target_place = s.unit_with_house(unit.target).place
    pours = [a for a in legal if isinstance(a, Pour) and len(a.tokens) == 1]
    for a in pours:
        token, place = a.tokens[0], a.goblet
        if token is Token.WINE and place == unit.place:
            return a
        if token in (Token.POISON, Token.OGRE) and place == target_place:
            return a
        if token in (Token.ANTIDOTE, Token.UNICORN) and place == unit.place:
            return a
    wine = [a for a in pours if a.tokens[0] is Token.WINE]
    if wine:
        return rng.choice(wine)
    for kinds in ((Drink, Choose), (Taste, Gamble, Plot), (Peek,), (Rotate, Swap)):
        found = [a for a in legal if isinstance(a, kinds)]
        if found and (kinds != (Peek,) or rng.random() < 0.5):
            return rng.choice(found)
    passes = [a for a in legal if isinstance(a, Pass)]
    return passes[0] if passes else rng.choice(legal)


def play_out(game: Game, rng: random.Random, limit: int = 5000) -> int:
    """Let bots play every seat until the game is over; returns the number of actions."""
    if game.state.phase == Phase.SETUP:
        game.start()
    moves = 0
    while not game.is_over:
        if moves >= limit:
            raise RuntimeError(f"game not over after {limit} actions")
        game.apply(choose_action(game, rng))
        moves += 1
    return moves
