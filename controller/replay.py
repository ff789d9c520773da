"""``clinkbox replay FILE.jsonl``: a scripted game on a manual clock.

Line 1 is the header (``game``, ``seed``, ``players``, ``options`` plus the
game's own fields); each later line is one input at time ``t`` (seconds from
the start), in the order the inputs reached the game. An input that reached it
late (a toast the recogniser reported after the word) carries ``at``, where the
game clock stood when it arrived: the replay moves the clock there first, as it
was live. The decisions come out as JSON lines, the same bytes every time.
After the last input the clock runs on through every pending timer until the
game ends or nothing is pending. A malformed line is a :class:`ReplayError`
naming its file and line (see :mod:`controller.replay_file` for every check and
limit).
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, TextIO

from controller.flow import HeaderError, Input
from controller.replay_file import (
    INPUT_KINDS,
    ReplayError,
    load,
    load_numbered,
    parse_header,
    parse_input,
    read_lines,
    read_numbered,
)
from controller.session import GameSession

__all__ = ["INPUT_KINDS", "ReplayError", "dumps", "game_error", "load", "main", "parse_header", "parse_input", "run"]


def run(header: dict[str, Any], inputs: list[Input], out: Callable[[dict[str, Any]], None]) -> GameSession:
    """Play the inputs on a manual clock; every decision goes to ``out``."""
    out({"t": 0.0, "event": "start", "game": header["game"], "seed": header["seed"],
         "players": header["players"]})
    session = GameSession(header, sink=out)
    for inp in inputs:
        session.feed(inp, record=False)
    session.run_out()
    return session


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False)


def main(path: str, stdout: TextIO) -> int:
    if path == "-":
        from pathlib import Path

        name = "stdin"
        header, inputs, numbers = load_numbered(read_lines(sys.stdin.buffer, name), name, Path.cwd())
    else:
        name = path
        header, inputs, numbers = read_numbered(path)
    def write(ev: dict[str, Any]) -> None:
        stdout.write(dumps(ev) + "\n")

    play(header, inputs, numbers, name, write)
    return 0


def play(header: dict[str, Any], inputs: list[Input], numbers: list[int], name: str,
         out: Callable[[dict[str, Any]], None]) -> GameSession:
    """:func:`run`, but a game that fails on an input is a :class:`ReplayError` naming the
    line (a set-up the header fixed for later in the game, such as a later course's deal,
    names line 1), never a traceback: a replay file comes from anyone."""
    out({"t": 0.0, "event": "start", "game": header["game"], "seed": header["seed"],
         "players": header["players"]})
    session = GameSession(header, sink=out)
    line = 1
    try:
        for k, inp in enumerate(inputs):
            line = numbers[k]
            session.feed(inp, record=False)
        session.run_out()
    except BrokenPipeError:  # the reader of the events went away: not the game's fault
        raise
    except Exception as exc:  # the game's own fault, reported with its line
        raise game_error(exc, name, line) from None
    return session


def game_error(exc: Exception, name: str, line: int) -> ReplayError:
    """A game that failed while ``line`` was being played, named as a :class:`ReplayError`
    (a set-up the header fixed names line 1). ``clinkbox run --script`` words it the same."""
    if isinstance(exc, HeaderError) or type(exc).__name__.endswith("SetupError"):
        return ReplayError(f"{name}:1: the header cannot be played on: {exc}")
    return ReplayError(f"{name}:{line}: the game could not go on from this input "
                       f"({type(exc).__name__}: {exc})")
