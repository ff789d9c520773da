"""A phone's budget of messages: a token bucket on an injected clock."""

from __future__ import annotations

from collections.abc import Callable


class RateLimit:
    """``burst`` messages at once, then ``per_s`` a second on average.

    ``now`` is the clock (seconds); a test hands in a manual one.
    """

    def __init__(self, per_s: float, burst: int, now: Callable[[], float]) -> None:
        if per_s <= 0 or burst < 1:
            raise ValueError("a rate limit needs per_s > 0 and burst >= 1")
        self.per_s = per_s
        self.burst = burst
        self._now = now
        self._tokens = float(burst)
        self._at = now()
        self.refused = 0

    def take(self) -> bool:
        """True when one more message may go through now."""
        t = self._now()
        self._tokens = min(float(self.burst), self._tokens + (t - self._at) * self.per_s)
        self._at = t
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.refused += 1
        return False
