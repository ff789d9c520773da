"""Contact bounce, decided once: the box's only debounce.

A press within ``bounce_s`` of the same buzzer's last press or release is the contact
bouncing, not a new press. A buzzer's pin is read without a debounce of its own, so each of
its edges is journaled and judged here exactly once, by the game (a replay decides bounce as
the live box did). The menu pad is no player's buzzer: its pins keep gpiozero's debounce.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

DEFAULT_BOUNCE_S = 0.02  # the buzzers' debounce, unless a header says otherwise
EPS = 1e-9


@dataclass
class Debounce:
    """The last edge of each button, and whether a press is bounce."""

    bounce_s: float = DEFAULT_BOUNCE_S
    last_edge: dict[Hashable, float] = field(default_factory=dict)

    def press(self, button: Hashable, t: float) -> bool:
        """Record a press at ``t``; True when it is bounce (to be ignored)."""
        last = self.last_edge.get(button)
        self.last_edge[button] = t
        # an edge stamped before the last one is out of order, not bounce
        return last is not None and -EPS <= t - last <= self.bounce_s + EPS

    def release(self, button: Hashable, t: float) -> None:
        """Record a release at ``t`` (a release is never bounce: it only starts the clock)."""
        self.last_edge[button] = t
