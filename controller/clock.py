"""Clocks: where the controller takes time from.

The controller never calls ``time`` itself: it takes time from events and from
an injected :class:`Clock`. Every game runs on a :class:`ManualClock` in game
time: a replay or a test moves it input by input, with no sleeps; the live box
moves it to "now" before each input and every frame.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Callable, Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on the box's monotonic clock."""

    def call_at(self, when: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` once the clock reaches ``when``."""


@dataclass(order=True)
class _Timer:
    when: float
    seq: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told: replays, tests and benchmarks.

    Timers due at the same time run in the order they were set.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[_Timer] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> _Timer:
        timer = _Timer(when, next(self._seq), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Timer:
        return self.call_at(self._now + delay, callback)

    def next_due(self) -> float | None:
        """When the earliest live timer is due, or None when nothing is pending."""
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].when if self._timers else None

    def advance_to(self, when: float) -> None:
        """Run every timer due up to ``when`` (in time order), then stand at ``when``."""
        while True:
            due = self.next_due()
            if due is None or due > when:
                break
            timer = heapq.heappop(self._timers)
            self._now = max(self._now, timer.when)
            timer.callback()
        self._now = max(self._now, when)

    def run_all(self, limit: float = 86_400.0) -> None:
        """Run on through every pending timer (new ones included), up to ``limit`` s from now."""
        end = self._now + limit
        while (due := self.next_due()) is not None and due <= end:
            self.advance_to(due)
