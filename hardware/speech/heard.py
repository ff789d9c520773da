"""What a recogniser reports: which toast was heard, when, and how sure it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Heard:
    """A stretch of speech and the toast it was judged to be (``None``: speech, but no toast).

    ``start`` and ``end`` are seconds: relative to the samples given to an engine, or on the
    box's monotonic clock when reported by the listener.  ``confidence`` is in [0, 1].
    """

    toast: str | None
    start: float
    end: float
    confidence: float


class ToastEngine(Protocol):
    """A recogniser that decides among the six toasts, or none, for each stretch of speech."""

    name: str

    def classify(self, samples: np.ndarray) -> list[Heard]:
        """Judge every stretch of speech in 16 kHz mono int16 ``samples``."""
        ...


class SpeechModelError(RuntimeError):
    """A speech model or lexicon is missing, corrupt or does not fit the engine."""
