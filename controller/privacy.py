"""Private views on one shared screen.

A secret (a hand, a goal, a goblet) is shown only to its owner: the screen says
whose view comes next and asks everyone else to look away; the owner confirms
with their own buzzer (seats beyond the eighth with OK on the menu pad); the
view stays open while the buzzer is held and closes on release, or after
``timeout_s``, and the public table returns.
"""

from __future__ import annotations

from typing import Callable

from controller.clock import Clock, TimerHandle

BUZZER_SEATS = 8  # seats 1-8 have a buzzer; later seats confirm with OK


class PrivateGate:
    """One pending or open private view for ``seat``.

    States: ``waiting`` (asking the owner to confirm), ``open``, ``closed``.
    ``on_close(reason)`` is called once, with "released", "timeout" or "done".
    """

    def __init__(
        self,
        clock: Clock,
        seat: int,
        name: str,
        timeout_s: float = 45.0,
        on_open: Callable[[], None] | None = None,
        on_close: Callable[[str], None] | None = None,
    ) -> None:
        self.clock = clock
        self.seat = seat
        self.name = name
        self.timeout_s = timeout_s
        self.state = "waiting"
        self._on_open = on_open
        self._on_close = on_close
        self._timer: TimerHandle | None = None

    @property
    def is_open(self) -> bool:
        return self.state == "open"

    def press(self, station: int) -> bool:
        """A buzzer press; opens the view when it is the owner's. True when it was taken."""
        if self.state == "waiting" and station == self.seat:
            self._open()
            return True
        return False

    def release(self, station: int) -> bool:
        if self.state == "open" and station == self.seat and self.seat <= BUZZER_SEATS:
            self.close("released")
            return True
        return False

    def ok(self) -> bool:
        """OK on the menu pad confirms for a seat without a buzzer."""
        if self.state == "waiting" and self.seat > BUZZER_SEATS:
            self._open()
            return True
        return False

    def _open(self) -> None:
        self.state = "open"
        self._timer = self.clock.call_at(self.clock.now() + self.timeout_s, self._timeout)
        if self._on_open:
            self._on_open()

    def _timeout(self) -> None:
        if self.state == "open":
            self.close("timeout")

    def close(self, reason: str = "done") -> None:
        if self.state == "closed":
            return
        self.state = "closed"
        if self._timer is not None:
            self._timer.cancel()
        if self._on_close:
            self._on_close(reason)
