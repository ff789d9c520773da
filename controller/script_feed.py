"""``clinkbox run --script FILE.jsonl``: a replay file's inputs played into the live box.

The live service runs as usual (its loop, its journal, its display), but its
inputs come from a replay file instead of the buttons and the microphone: each
input is handed to the game when the game's own time reaches its ``t``, before
the loop lets the game's timers run to "now", so the live game sees exactly
what ``clinkbox replay`` would. This is how the resilience tests kill the box
in the middle of a game and check what the restarted box makes of it; it also
shows a scripted game on a real screen.

On start the script's game is begun from its header; if the journal holds that
same game (same game and seed) left in progress, it is resumed instead and only
the inputs the journal does not yet hold are fed. When every input is fed and
the game is over (or nothing is pending), every event of the session is
printed as a JSON line and the box stops.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.flow import Input
from controller.replay import load
from controller.shell import Shell

log = logging.getLogger(__name__)


class ScriptError(ValueError):
    """A script the live box cannot play; the message names the file and what is wrong."""


class ScriptFeeder:
    """Feeds one scripted game into a :class:`~controller.shell.Shell`, one loop turn at a time."""

    def __init__(self, header: dict[str, Any], inputs: list[Input], out: TextIO | None = None,
                 run_on_s: float = 60.0) -> None:
        self.header = header
        self.run_on_s = run_on_s
        """After the last input, how long (game time) the game may run on before the script stops."""
        self.inputs = inputs
        self.out = out if out is not None else sys.stdout
        self.next = 0
        self.started = False
        self.resumed_after: int | None = None
        """How many inputs the journal already held when the game was resumed (None: a fresh game)."""
        self.done = False

    @classmethod
    def from_file(cls, path: str | Path, out: TextIO | None = None) -> ScriptFeeder:
        p = Path(path)
        if not p.exists():
            raise ScriptError(f"{p}: no such script file")
        with p.open(encoding="utf-8") as f:
            try:
                header, inputs = load(f, str(p), p.parent)
            except ValueError as exc:
                raise ScriptError(str(exc)) from None
        return cls(header, inputs, out)

    def _same_game(self, saved_header: dict[str, Any]) -> bool:
        return all(saved_header.get(k) == self.header.get(k) for k in ("game", "seed", "players"))

    def _start(self, shell: Shell) -> None:
        self.started = True
        saved = shell.saved if shell.mode == "resume" else None
        if saved is not None and self._same_game(saved.header):
            shell.resume_game()
            if shell.session is None:
                raise ScriptError("the journal's game could not be resumed")
            self.resumed_after = self.next = len(saved.inputs)
            log.info("script: resumed game %d after %d of %d inputs", saved.id, self.next, len(self.inputs))
            return
        if saved is not None:
            shell.journal.finish(saved.id, "abandoned")
        shell.setup_game = str(self.header["game"])
        shell.start_game(dict(self.header))
        if shell.session is None:
            raise ScriptError(f"the script's game {self.header['game']!r} could not be started")

    def step(self, shell: Shell, now: float) -> bool:
        """Feed every input now due (call before ``shell.tick(now)``); True once the game is played out."""
        if self.done:
            return True
        if not self.started:
            self._start(shell)
        session = shell.session
        if session is None:  # the host left the game (long press of Back)
            self.done = True
            return True
        game_now = shell.game_time(now)
        while self.next < len(self.inputs) and self.inputs[self.next].t <= game_now:
            session.feed(self.inputs[self.next])
            self.next += 1
        if self.next < len(self.inputs):
            return False
        last = self.inputs[-1].t if self.inputs else 0.0
        if session.finished or session.clock.next_due() is None or game_now > last + self.run_on_s:
            self._print(session.events)
            self.done = True
        return self.done

    def _print(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            self.out.write(json.dumps(event, ensure_ascii=False) + "\n")
        self.out.flush()
