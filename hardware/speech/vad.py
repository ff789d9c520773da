"""Finding the speech in a stream: an energy detector that tracks the room's noise floor.

Frames are 10 ms.  The energy counted is the speech band's (200-4000 Hz), so the rumble of pink
noise or a fan weighs less.  The noise floor is a low percentile of the last few seconds of
frames; speech starts when most of five frames rise ``start_db`` above it and ends after
``end_s`` seconds under ``stay_db``.  The same detector runs live in the listener and over a
finished window in the engines, so both cut speech the same way.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import deque
from dataclasses import dataclass

import numpy as np

FRAME = 160  # samples per 10 ms frame at 16 kHz
_BAND = slice(2, 41)  # FFT bins of a 160-sample frame: 200-4000 Hz


def band_energy_db(x: np.ndarray) -> np.ndarray:
    """Speech-band energy in dB of each whole 10 ms frame of float samples."""
    n = len(x) // FRAME
    frames = x[: n * FRAME].reshape(n, FRAME) * np.hanning(FRAME)
    power = np.abs(np.fft.rfft(frames, axis=1)[:, _BAND]) ** 2
    return 10.0 * np.log10(power.sum(axis=1) + 1e-10)


def percentile_of_sorted(values: list[float], percent: float) -> float:
    """``np.percentile(values, percent)`` of values already in order, to the last bit (the same
    linear interpolation, done the same way), without sorting 400 numbers every 10 ms."""
    virtual = (len(values) - 1) * (percent / 100)
    below = math.floor(virtual)
    a, b = values[below], values[min(below + 1, len(values) - 1)]
    t = virtual - below
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


@dataclass(frozen=True)
class SpeechSpan:
    """A stretch of speech, in samples from the start of the stream."""

    start: int
    end: int


@dataclass
class VoiceActivity:
    """Streaming speech detector: feed it float samples, it reports finished speech spans."""

    start_db: float = 9.0
    stay_db: float = 5.0
    end_s: float = 0.15
    min_s: float = 0.12
    max_s: float = 4.0
    history_s: float = 4.0
    floor_percentile: float = 10.0
    below_peak_db: float = 20.0
    #: speech counts as over once it stays this far under its peak (babble never falls to the
    #: floor, so waiting for the floor would wait for the babble to stop)
    end_below_peak_db: float = 20.0
    #: the floor never goes under a faint (-69 dBFS) hiss, so digital silence does not make
    #: the first whisper of a real microphone's noise look like speech
    min_floor_db: float = -35.0

    def __post_init__(self) -> None:
        self._pending = np.zeros(0, np.float32)
        self._frames = 0
        self._history: deque[float] = deque(maxlen=int(self.history_s * 100))
        self._sorted: list[float] = []  # the same energies in order (the floor's percentile)
        self._recent: deque[bool] = deque(maxlen=5)
        self._start: int | None = None
        self._last_loud = 0
        self._energies: list[float] = []
        self.floor_db = -100.0

    @property
    def in_speech(self) -> bool:
        """Whether a speech span has started and not yet ended."""
        return self._start is not None

    @property
    def speech_start(self) -> int | None:
        """Sample where the current speech began, if in speech."""
        return self._start

    def feed(self, x: np.ndarray) -> list[SpeechSpan]:
        """Add samples; return the speech spans that ended within them."""
        buf = np.concatenate([self._pending, x.astype(np.float32)])
        n = len(buf) // FRAME
        self._pending = buf[n * FRAME:]
        done: list[SpeechSpan] = []
        if n == 0:
            return done
        for e in band_energy_db(buf[: n * FRAME]):
            span = self._step(float(e))
            if span is not None:
                done.append(span)
        return done

    def flush(self) -> list[SpeechSpan]:
        """End the stream: a speech span still open is closed where it last was loud."""
        if self._start is None:
            return []
        span = self._close()
        return [span] if span is not None else []

    def _close(self) -> SpeechSpan | None:
        """End the open span, trimmed to the frames near its loudest (babble before or after
        a word is louder than the floor but well below the word)."""
        assert self._start is not None
        first = self._start // FRAME
        e = np.asarray(self._energies)  # up to now: weak endings after the last loud frame too
        loud = np.flatnonzero(e > max(self.floor_db + self.stay_db, e.max() - self.below_peak_db))
        self._start, self._energies = None, []
        self._recent.clear()
        if loud.size == 0:
            # the floor rose under the whole stretch (steady noise that started loud, or a
            # stretch cut at ``max_s``): no frame stands out of it, so it is no speech
            return None
        span = SpeechSpan((first + int(loud[0])) * FRAME, (first + int(loud[-1]) + 1) * FRAME)
        return span if span.end - span.start >= self.min_s * 16000 else None

    def _step(self, e: float) -> SpeechSpan | None:
        i = self._frames
        self._frames += 1
        if len(self._history) == self._history.maxlen:
            del self._sorted[bisect_left(self._sorted, self._history[0])]
        self._history.append(e)
        insort(self._sorted, e)
        if len(self._history) >= 10:
            floor = percentile_of_sorted(self._sorted, self.floor_percentile)
        else:
            floor = self._sorted[0]
        self.floor_db = max(floor, self.min_floor_db)
        self._recent.append(e > self.floor_db + self.start_db)
        if self._start is None:
            if sum(self._recent) >= 3:
                back = len(self._recent) - 1
                self._start = max(0, i - back) * FRAME
                self._energies = list(self._history)[-back - 1:]
                self._peak = max(self._energies)
                self._last_loud = i
            return None
        self._energies.append(e)
        self._peak = max(self._peak, e)
        if e > max(self.floor_db + self.stay_db, self._peak - self.end_below_peak_db):
            self._last_loud = i
        long = (i + 1) * FRAME - self._start >= self.max_s * 16000
        if i - self._last_loud >= int(self.end_s * 100) or long:
            return self._close()
        return None


def find_speech(x: np.ndarray, **settings: float) -> list[SpeechSpan]:
    """All speech spans in a finished window of float samples."""
    vad = VoiceActivity(**settings)
    return vad.feed(x) + vad.flush()
