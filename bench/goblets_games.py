"""Raise Your Goblets: complete bot games per second (``make bench``), timed here, outside the rules."""

from __future__ import annotations

import random
import time

from models.goblets import Game, Options
from models.goblets.bots import play_out


def random_game_benchmark(seconds: float) -> float:
    """Complete bot games per second (4-6 players, characters on)."""
    start = time.perf_counter()
    games = 0
    rng = random.Random(0)
    while True:
        players = 4 + games % 3
        game = Game(Options(players), random.Random(games))
        play_out(game, rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed
