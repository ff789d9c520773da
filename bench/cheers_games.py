"""Cheers: complete bot-vs-bot games per second (``make bench``), timed here, outside the rules."""

from __future__ import annotations

import time

from models.cheers.bots import play_bot_game

#: player counts and team splits, cycled
CONFIGS = [(3, "2+1"), (4, "2+2"), (5, "3+2"), (5, "2+2+1"), (6, "3+3"), (6, "2+2+2")]


def random_game_benchmark(seconds: float) -> float:
    """Complete bot-vs-bot games per second (player counts and splits cycled)."""
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        players, split = CONFIGS[games % len(CONFIGS)]
        play_bot_game(games, players, split)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)
