"""One game being played: its flow, its clock, its journal entry.

The same :class:`GameSession` runs a live game, a replay and a resumed game.
Flows always run on a :class:`~controller.clock.ManualClock` in *game time*
(seconds since the game started); the live service advances it to "now" before
each input and when the next timer falls due, a replay advances it to each
input's ``t``, and a resumed game first replays the journal's inputs, then
carries on live from the last one.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Collection
from typing import Any, Callable

from controller.clock import ManualClock
from controller.flow import FlowContext, GameFlow, HeaderError, Input, Leds, Sound
from controller.games import flow_for
from controller.journal import Journal
from hardware.display.widgets import Scene

log = logging.getLogger(__name__)

#: the header field that keeps the stations disabled when the game started (stuck at the
#: box's start): the box's, never the game's, so the flow is dealt the header without it
DISABLED = "disabled"


def disabled_of(header: dict[str, Any]) -> frozenset[int]:
    """The stations a header says were disabled when its game started (none if it says none)."""
    given = header.get(DISABLED, [])
    if not isinstance(given, list) or any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in given):
        raise HeaderError(f"{DISABLED!r} must list station numbers, got {given!r}")
    return frozenset(given)


class GameSession:
    """``disabled``: the stations that cannot play in this game; None (a replay, a resume):
    the ones its header names. A game started with stations disabled keeps them in its
    journaled header, since the game's decisions depend on them (a vote may count only
    the stations that can press): its resume and its export decide as it was played."""

    def __init__(
        self,
        header: dict[str, Any],
        *,
        sink: Callable[[dict[str, Any]], None] | None = None,
        journal: Journal | None = None,
        game_id: int | None = None,
        leds: Leds | None = None,
        sound: Sound | None = None,
        disabled: frozenset[int] | None = None,
        phones: Collection[int] = frozenset(),
    ) -> None:
        game_header = {k: v for k, v in header.items() if k != DISABLED}
        disabled = disabled_of(header) if disabled is None else frozenset(disabled)
        self.header = {**game_header, DISABLED: sorted(disabled)} if disabled else game_header
        self.clock = ManualClock(0.0)
        self.events: list[dict[str, Any]] = []
        self.fed = 0  # inputs handed to the flow so far
        self._sink = sink
        seed = header.get("seed", 0)
        ctx_kwargs: dict[str, Any] = {}
        if leds is not None:
            ctx_kwargs["leds"] = leds
        if sound is not None:
            ctx_kwargs["sound"] = sound
        self.ctx = FlowContext(clock=self.clock, rng=random.Random(seed), sink=self._emit,
                               disabled=disabled, phones=phones, **ctx_kwargs)
        self.flow: GameFlow = flow_for(str(header.get("game")))(self.ctx, game_header)
        self.journal = journal
        self.game_id = game_id
        if journal is not None and game_id is None:
            self.game_id = journal.start_game(self.header)
        self.flow.start()

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        if self._sink is not None:
            self._sink(event)

    @property
    def finished(self) -> bool:
        return self.flow.finished

    def feed(self, inp: Input, *, record: bool = True, at: float | None = None,
             settle: bool = False) -> None:
        """Journal the input (before its effect), move the clock to it, hand it to the flow;
        ``settle``: no other input shares its instant, so the flow decides it at once.

        An input stamped before the clock's reading (a toast the recogniser reported late)
        keeps its own time; the journal notes where the clock stood so that a resume
        replays it exactly as it was played. ``at`` is that note, when resuming or replaying
        (``inp.at`` when not given).
        """
        at = inp.at if at is None else at
        if at is not None:
            self.clock.advance_to(at)
        if record and self.journal is not None and self.game_id is not None:
            self.journal.append(self.game_id, inp, at=self.clock.now())
        self.clock.advance_to(inp.t)
        self.fed += 1
        self.flow.handle(inp)
        if settle:
            self.flow.settle()
        if self.flow.finished and record and self.journal is not None and self.game_id is not None:
            self.journal.finish(self.game_id, "over")

    def advance(self, t: float) -> None:
        """Let game time run on to ``t`` (timers fire)."""
        self.clock.advance_to(t)
        if self.flow.finished and self.journal is not None and self.game_id is not None:
            self.journal.finish(self.game_id, "over")

    def run_out(self, limit: float = 86_400.0) -> None:
        """Run every pending timer until the game ends or nothing is pending."""
        while not self.flow.finished:
            due = self.clock.next_due()
            if due is None or due > self.clock.now() + limit:
                break
            self.advance(due)  # a game ended by a timer is journaled as over

    def scene(self) -> Scene:
        return self.flow.scene()

    def abandon(self) -> None:
        if self.journal is not None and self.game_id is not None:
            self.journal.finish(self.game_id, "abandoned")


def resume(journal: Journal, **kwargs: Any) -> GameSession | None:
    """Rebuild the game left in progress from the journal, or None.

    The stations disabled are the game's own, from its header, whatever the restarted box's
    are now (a ``disabled`` given is not taken): the inputs are decided again as they were.
    A game whose last input ended it, cut off before its end was journaled, resumes on its
    end and is journaled as over (never offered again)."""
    saved = journal.in_progress()
    if saved is None:
        return None
    kwargs.pop("disabled", None)
    try:
        session = GameSession(saved.header, journal=journal, game_id=saved.id, **kwargs)
        clock_at = saved.clock_at or [None] * len(saved.inputs)
        for inp, at in zip(saved.inputs, clock_at):
            session.feed(inp, record=False, at=at)
    except Exception as exc:
        # a game that cannot be replayed is set aside, or it would be offered at every start
        journal.set_aside(saved.id, f"it cannot be resumed ({type(exc).__name__}: {exc})")
        raise
    journal.drop_torn_tail(saved)
    if session.finished:
        journal.finish(saved.id, "over")
    log.info("resumed game %d (%s) after %d inputs%s", saved.id, saved.header.get("game"),
             len(saved.inputs), f", {saved.skipped} unreadable skipped" if saved.skipped else "")
    return session
