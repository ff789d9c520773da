"""``clinkbox run --script FILE.jsonl``: a replay file's inputs played into the live box.

The live service runs as usual (its loop, its journal, its display), but its
inputs come from a replay file instead of the buttons and the microphone, and
reach the game as the hardware would hand them over: a button or a menu action
when the game's own time reaches its ``t``, a ``say`` line when it reaches the
toast's ``end`` (a recogniser reports a toast after the word, so a toast that
started before a claim press arrives after it), an input with ``at`` when the
time reaches ``at``. Each is handed over before the loop lets the game's timers
run to "now"; the journal keeps where the clock stood, so the game's export
replays it exactly. An ``audio`` line is not recognised beforehand: its recording
is played at its ``t`` through the box's file-backed microphone
(:class:`~hardware.speech.file_mic.FileMicrophone`), in real time, so the live listener hears it
and reports its toasts as it would in the room (the game waits for the listener to be up).
This is how the resilience tests and ``make soak`` kill the box in the middle of a game
and check what the restarted box makes of it; it also shows a scripted game on a real screen.

On start the script's game is begun from its header; if the journal holds that
same game (the same header) left in progress, it is resumed instead and only
the inputs the journal does not yet hold are fed (the journal may also hold
inputs the box made itself, such as the microphone coming and going: those are
passed over when matching the script against the journal). When every input is fed and
the game is over, nothing is pending or the run-on is spent, the game's timers run out at
once (as ``clinkbox replay`` runs them out after the last input), every event of the
session is printed as a JSON line and the box stops. A game that fails on an input (or in a
timer on the way to one) prints what it decided, is set aside in the journal (still
exported) and is named by its line as ``clinkbox replay`` names it (:attr:`ScriptFeeder.error`).
"""

from __future__ import annotations

import copy
import json
import logging
import sys
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from controller.flow import Input
from controller.games import flow_for
from controller.replay_file import read_numbered
from controller.session import DISABLED, GameSession
from controller.shell import Shell
from hardware.speech.audio import RATE, read_recording

#: after the last recording ends, how long the script waits for its toasts to be heard
HEAR_S = 1.5
#: how much of the room the listener hears before the game starts (live, it has listened for
#: minutes before anyone toasts; the spotter needs two seconds of audio to judge a word)
WARM_S = 2.5

log = logging.getLogger(__name__)


class ScriptError(ValueError):
    """A script the live box cannot play; the message names the file and what is wrong."""


class ScriptFeeder:
    """Feeds one scripted game into a :class:`~controller.shell.Shell`, one loop turn at a time."""

    def __init__(self, header: dict[str, Any], inputs: list[Input], out: TextIO | None = None,
                 run_on_s: float = 60.0, recordings: list[tuple[float, np.ndarray]] | None = None,
                 lines: list[int] | None = None, name: str = "script") -> None:
        self.header = header
        self.recordings = recordings or []
        """The ``audio`` lines: (game time, 16 kHz samples), played through :attr:`mic`."""
        self.mic: Any = None
        """The file-backed microphone the box listens to (None: the recordings go unheard)."""
        self._played = False
        self.run_on_s = run_on_s
        """After the last input, how long (game time) the game plays on live before its remaining
        timers are run out at once and the script stops."""
        numbered = sorted(zip(inputs, lines or range(2, len(inputs) + 2)), key=lambda pair: due(pair[0]))
        self.inputs = [inp for inp, _ in numbered]
        """In the order the hardware would report them (see :func:`due`)."""
        self.lines = [n for _, n in numbered]
        """The script's line of each of :attr:`inputs`."""
        self.name = name
        self.error: str | None = None
        """Why the game could not go on (``file:line: ...``, as ``clinkbox replay`` says it), or None."""
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
        recordings: list[tuple[float, np.ndarray]] = []
        try:
            header, inputs, lines = read_numbered(
                p, audio=lambda t, wav: recordings.append((t, read_recording(wav))))
        except ValueError as exc:
            raise ScriptError(str(exc)) from None
        return cls(header, inputs, out, recordings=recordings, lines=lines, name=str(p))

    def _same_game(self, saved_header: dict[str, Any]) -> bool:
        """The journal's game is this script's: the same header, field for field (two scripts
        may share a game, a seed and a number of players and still deal other games), or the
        header the box makes of it when it hears nothing."""
        if saved_header.get("game") != self.header.get("game"):
            return False
        try:
            cls = flow_for(str(self.header["game"]))
        except ValueError:
            return False
        saved = _canonical(saved_header)
        return saved in (_canonical(self.header), _canonical(cls.without_speech(copy.deepcopy(self.header))))

    def _start(self, shell: Shell) -> None:
        self.started = True
        saved = shell.saved if shell.mode == "resume" else None
        if saved is not None and self._same_game(saved.header):
            shell.resume_game()
            if shell.session is None:
                raise ScriptError("the journal's game could not be resumed")
            self.resumed_after = self.next = already_fed(self.inputs, saved.inputs)
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
            if self.recordings and self.mic is not None and shell.speech_available \
                    and (self.mic.t0 is None or self.mic.position < WARM_S):
                return False  # the listener is still loading or warming up: the recordings must be heard
            try:
                self._start(shell)
            except ScriptError as exc:  # said by the CLI, as a script it cannot play is
                self.error = f"{self.name}: {exc}"
                self.done = True
                return True
        session = shell.session
        if session is None:  # the host left the game (long press of Back)
            self.done = True
            return True
        if not self._played:
            self._play_recordings(shell)
        try:
            self._feed_due(shell, session, shell.game_time(now))
        except Exception as exc:  # the game's own fault: named by its line, as a replay names it
            self._fail(shell, session, exc)
        return self.done

    def _feed_due(self, shell: Shell, session: GameSession, game_now: float) -> None:
        """Feed what is due and let the game's timers run to where ``shell.tick`` would take
        them (here, so that a game failing in a timer is named like one failing on an input)."""
        while self.next < len(self.inputs) and due(self.inputs[self.next]) <= game_now:
            # the game's timers stand where they would when it is reported (they run
            # ``decision_lag_s`` behind), not wherever the last frame left them
            session.advance(due(self.inputs[self.next]) - shell.decision_lag_s)
            session.feed(self.inputs[self.next])
            self.next += 1
            log.debug("script: fed input %d", self.next)  # journaled and shown: make soak counts these
        session.advance(game_now - shell.decision_lag_s)
        if self.next < len(self.inputs):
            return
        last = due(self.inputs[-1]) if self.inputs else 0.0
        if self.mic is not None and self.recordings:
            last = max(last, *(t + len(pcm) / RATE + HEAR_S for t, pcm in self.recordings))
            if not session.finished and game_now <= last:
                return  # a recording is still playing, or its toast on its way
        if session.finished or session.clock.next_due() is None or game_now > last + self.run_on_s:
            # what is left is the game's timers alone: decided at once, as a replay runs them out
            session.run_out()
            session.advance(session.clock.now())  # journaled as over when it ended
            self._print(session.events)
            self.done = True

    def _fail(self, shell: Shell, session: GameSession, exc: Exception) -> None:
        """The game cannot go on: print what it decided, set it aside in the journal (every
        input kept, for export; a resume would fail the same way), name the line."""
        from controller.replay import game_error

        k = min(self.next, len(self.lines) - 1)
        self.error = str(game_error(exc, self.name, self.lines[k] if self.lines else 1))
        log.error("script: %s", self.error)
        if session.game_id is not None:
            shell.journal.set_aside(session.game_id, self.error)
        self._print(session.events)
        self.done = True

    def _play_recordings(self, shell: Shell) -> None:
        """Queue every recording not yet due at its place on the microphone's stream."""
        self._played = True
        session = shell.session
        if self.mic is None or self.mic.t0 is None or session is None:
            if self.recordings:
                log.warning("script: %d audio lines go unheard (speech is off or unavailable)",
                            len(self.recordings))
            return
        resumed_at = session.clock.now() if self.resumed_after is not None else 0.0
        for t, pcm in self.recordings:
            if t >= resumed_at:
                self.mic.play(pcm, at=shell.t0 + t - self.mic.t0)

    def _print(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            self.out.write(json.dumps(event, ensure_ascii=False) + "\n")
        self.out.flush()


def _canonical(header: dict[str, Any]) -> str:
    """A header as text to compare, without the stations the box had disabled (the box's own
    note in a journaled header, not the script's)."""
    return json.dumps({k: v for k, v in header.items() if k != DISABLED}, sort_keys=True, ensure_ascii=False)


def due(inp: Input) -> float:
    """When the hardware hands an input over: a toast at its end, a late input at ``at``.

    A toast with an ``at`` (an exported game's: where the game's clock stood when it came,
    which runs behind the room's) was still handed over after its end, so the export of a
    live run is played live again in the order it was journaled."""
    late = inp.at if inp.at is not None and inp.at > inp.t else inp.t
    if inp.kind == "say" and inp.end is not None:
        return max(late, inp.end)
    return late


def already_fed(script: list[Input], journaled: list[Input]) -> int:
    """How many of the script's inputs (in order) the journal already holds.

    The journal holds them in the order they were fed, possibly with inputs the box made
    itself in between (the microphone lost or back), so the script is matched against it as
    a subsequence, never by counting rows.
    """
    n = 0
    for inp in journaled:
        if n < len(script) and inp.as_dict() == script[n].as_dict():
            n += 1
    return n
