"""The listening window: which heard toast decides a claim, and when.

A toast counts for a claim pressed at ``p`` when it starts no earlier than
``p - pre_s``, ends no later than ``p + window_s`` and has not already decided
an earlier claim (one toast decides at most one claim). The first toast that
counts decides, at the later of its end and the press.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EPS = 1e-9  # float slack, so that a toast ending exactly at press + window_s counts


@dataclass
class HeardToast:
    """One toast the recogniser heard (anyone may have said it)."""

    start: float
    end: float
    word: str
    seq: int
    used: bool = False

    def decides_at(self, press: float) -> float:
        return max(self.end, press)


@dataclass
class Ear:
    """Every toast heard so far, to be matched against claims."""

    pre_s: float
    window_s: float
    toasts: list[HeardToast] = field(default_factory=list)
    heard_count: int = 0

    def hear(self, start: float, end: float, word: str) -> HeardToast:
        toast = HeardToast(start, end, word, self.heard_count)
        self.heard_count += 1
        self.toasts.append(toast)
        return toast

    def counts(self, toast: HeardToast, press: float) -> bool:
        return (not toast.used and toast.start >= press - self.pre_s - EPS
                and toast.end <= press + self.window_s + EPS)

    def first_counting(self, press: float) -> HeardToast | None:
        """The toast that will decide a claim pressed at ``press`` (among those heard so far)."""
        candidates = [t for t in self.toasts if self.counts(t, press)]
        if not candidates:
            return None
        return min(candidates, key=lambda t: (t.decides_at(press), t.end, t.start, t.seq))

    def forget_before(self, t: float) -> None:
        """Drop toasts that can no longer count for any press at or after ``t``."""
        self.toasts = [x for x in self.toasts if x.start >= t - self.pre_s - EPS]
