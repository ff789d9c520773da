"""The table teaches the ear: the introduction's toasts learned, journaled, and dropped after the game.

While a card is in play, the ear is also told which toasts could win it
(:meth:`~controller.flow.GameFlow.listening_for`), and the toast spotter listens for those a
little harder (``speech.listen_for_card``; docs/speech.md, "Listening for the card's word").

While a game introduces its players (:meth:`~controller.flow.GameFlow.learning`), the listener
is asked to learn the presenter's toast from the next stretch of speech.  A learned toast is a
template of numbers (:mod:`hardware.speech.enrol`, never audio unless ``speech.keep_audio`` is
on): it goes into the listener's enrolment at once and into the journal with the game, so a
resumed game hears this table as before.  A refused clip (no speech, another toast, clipping)
is said on the introduction screen with the reason; the player may say it again.  When the game
ends, or another starts, the table's toasts are forgotten, in memory and in the journal, unless
the host keeps them (Settings, "Learn our toasts": "this game", the default; "keep"; or "off":
docs/speech.md has what it gains on voices it was not tuned on).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

import numpy as np

from controller.journal import Journal
from controller.shell import BOX_SETTINGS, Shell

log = logging.getLogger(__name__)


class TableEar:
    """Runs on the event loop; the listener's results come back through ``on_loop``."""

    def __init__(self, shell: Shell, journal: Journal, on_loop: Callable[..., None],
                 audio_dir: Path | None = None, *, listen_for_card: bool = True) -> None:
        self.shell = shell
        self.journal = journal
        self.on_loop = on_loop
        self.audio_dir = audio_dir
        """Where learned clips are saved as WAV files (None: never; the default)."""
        self.listener: Any = None
        self.enrolment: Any = None
        self.learning: tuple[int, str] | None = None
        self.game: int | None = None  # the game whose toasts the enrolment holds
        self.heard: list[tuple[str, float, float]] = []  # the last toasts reported (monotonic times)
        self._seen = 0  # the session's events already looked at
        self._session: Any = None
        self.listen_for_card = listen_for_card
        """Tell the listener which toasts the card in play waits for (``speech.listen_for_card``)."""
        self.expecting: frozenset[str] | None = None  # what the listener was last told

    def attach(self, listener: Any) -> None:
        """A listener is up: give its engine an enrolment, if it can learn (the toast spotter)."""
        if not hasattr(listener.engine, "enrolment"):
            return
        from hardware.speech.enrol import Enrolment

        self.enrolment = listener.engine.enrolment = Enrolment()
        self.listener = listener
        self.game = None  # a game already in play gets its journaled toasts on the next step

    @property
    def mode(self) -> str:
        """The host's choice: "off", "game" (the default: forgotten after it) or "keep"."""
        return str(self.shell.settings.get("voices", BOX_SETTINGS["voices"][2]))

    @property
    def keep(self) -> bool:
        return self.mode == "keep"

    def toast_heard(self, word: str, start: float, end: float) -> None:
        """A toast the listener reported (on the loop): kept a while, in case the game confirms it."""
        self.heard = [*self.heard[-7:], (word, start, end)]

    def step(self) -> None:
        """Each frame: follow the game's introduction, and the game's start and end."""
        if self.listener is None:
            return
        self._follow_game()
        self._confirmed()
        self._expect()
        if self.mode == "off" and len(self.enrolment):
            self.enrolment.clear()  # turned off: the ear stops using what it learned
        want = self.shell.learning() if self.mode != "off" else None
        if want == self.learning:
            return
        self.learning = want
        if want is None:
            self.listener.stop_learning()
            return
        station = want[0]
        self.listener.learn(want[1], lambda toast, template, reason, clip:
                            self.on_loop(self.learned, station, toast, template, reason, clip))

    def _expect(self) -> None:
        """The words the card in play waits for, passed on to the listener when they change."""
        want = self.shell.listening_for() if self.listen_for_card else None
        if want != self.expecting:
            self.expecting = want
            self.listener.expect(want)

    def _confirmed(self) -> None:
        """A claim won with a toast the ear heard: that toast, said at this table, is learned too
        (quietly; at most four per toast are kept)."""
        session = self.shell.session
        if session is not self._session:  # another game (or none): its own events, from the start
            self._session, self._seen = session, 0
        if session is None:
            return
        events, self._seen = session.events[self._seen:], len(session.events)
        if self.mode == "off":
            return
        for ev in events:
            word = (ev.get("combination") or {}).get("word") if ev.get("event") == "win" else None
            said = next((h for h in reversed(self.heard) if h[0] == word), None)
            if said is None:
                continue
            self.heard.remove(said)
            station = ev.get("station")
            self.listener.learn_heard(word, said[1], said[2], lambda toast, template, reason, clip, s=station:
                                      self.on_loop(self.learned, s, toast, template, reason, clip, True))

    def _follow_game(self) -> None:
        session = self.shell.session
        game = session.game_id if session is not None and not session.finished else None
        if game == self.game:
            return
        if self.game is not None and not self.keep:
            self.journal.forget_voices(self.game)
            self.enrolment.clear()
        if game is not None:
            saved = self.journal.voices(game)
            if saved:  # a resumed game: the toasts it had learned
                net = getattr(getattr(self.listener, "engine", None), "net", None)
                try:
                    self.enrolment.load([v["template"] for v in saved],
                                        getattr(net, "feature_width", None))
                except (KeyError, TypeError, ValueError) as exc:
                    log.warning("the journal's learned toasts are unusable (%s): the ear starts afresh", exc)
                    self.enrolment.clear()
            elif self.keep:  # kept from the last game: journaled with this one
                for template in self.enrolment.to_list():
                    self.journal.add_voice(game, None, {"template": template})
        self.game = game

    def learned(self, station: int, toast: str, template: Any, reason: str | None, clip: np.ndarray,
                quiet: bool = False) -> None:
        """On the loop: a clip learned (journaled, kept) or refused (said on the screen, unless
        it is a confirmed toast learned in passing)."""
        if template is None:
            if not quiet:
                self.shell.notices.append(f"Seat {station}: your toast was not learned: {reason}")
            return
        self.enrolment.add(template)
        if self.game is not None:
            self.journal.add_voice(self.game, station, {"template": template.to_dict()})
        if self.audio_dir is not None:
            self._save(station, toast, clip)
        if not quiet:
            self.shell.notices.append(f"Seat {station}: the box has learned your {toast}")

    def _save(self, station: int, toast: str, clip: np.ndarray) -> None:
        from hardware.speech.audio import write_wav

        try:
            assert self.audio_dir is not None
            self.audio_dir.mkdir(parents=True, exist_ok=True)
            write_wav(self.audio_dir / f"game-{self.game}-seat-{station}-{toast.replace(' ', '-')}.wav", clip)
        except OSError as exc:
            log.warning("a learned toast's audio was not saved: %s", exc)
