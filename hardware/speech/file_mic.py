"""A microphone that plays recordings: WAV files heard by the live listener as if spoken in the room.

:class:`FileMicrophone` is a stream factory, like :func:`~hardware.speech.capture.sounddevice_stream`,
so the :class:`~hardware.speech.capture.Listener` cannot tell it from a real microphone: it opens a
16 kHz mono int16 stream whose callback gets a block every 20 ms, on its own thread, in real time.
What it carries is a quiet room (a -65 dBFS noise floor: exact zeros are no room, and upset the
features) with every recording queued by :meth:`FileMicrophone.play` mixed in at its place.

``clinkbox run --script`` plays a script's ``audio`` lines through it, so the path from a spoken toast
to the referee's verdict runs as it does live; the benchmark times that path with it.  With
``realtime=False`` the blocks come as fast as the listener takes them (tests): the stream's times
then run ahead of the wall clock, and ``at`` is in the stream's own seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from hardware.speech.audio import RATE, read_recording

log = logging.getLogger(__name__)

#: the quiet room between (and under) the recordings, in dBFS
FLOOR_DBFS = -65.0


class FileStream:
    """One open stream of a :class:`FileMicrophone` (what sounddevice's InputStream is to a mic)."""

    def __init__(self, mic: FileMicrophone, block: int, callback: Callable[..., None]) -> None:
        self.mic = mic
        self.block = block
        self.callback = callback
        self.active = False
        self.latency: float = 0.0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        self.active = True
        self._stop.clear()
        self._thread = threading.Thread(target=self._play, name="file-microphone", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.active = False
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def close(self) -> None:
        self.stop()

    def _play(self) -> None:
        mic, block = self.mic, self.block
        t0 = time.monotonic()
        mic._opened(t0)
        pos = 0
        while not self._stop.is_set():
            chunk = mic._render(pos, block)
            if mic.realtime:
                due = t0 + (pos + block) / RATE  # the block's last sample has just been "recorded"
                wait = due - time.monotonic()
                if wait > 0 and self._stop.wait(wait):
                    return
                if pos == 0:  # the listener anchors sample 0 at now - block - latency: make it t0
                    self.latency = max(0.0, time.monotonic() - due)
            else:
                time.sleep(0)
            self.callback(chunk.reshape(-1, 1), block, None, None)
            pos += block
            mic._played_to(pos)


class FileMicrophone:
    """Plays recordings into a listener: ``Listener(engine, ..., stream_factory=mic)``, then
    ``mic.play(path_or_samples, at=seconds)``.

    ``at`` is in seconds of the stream (sample 0 is when the stream opened; :attr:`t0` is that
    moment on the monotonic clock when ``realtime``); a recording due in the past starts with
    the next block.  Recordings may overlap: they are mixed.
    """

    def __init__(self, *, realtime: bool = True, seed: int = 0) -> None:
        self.realtime = realtime
        self.t0: float | None = None
        """Monotonic time of the open stream's sample 0 (None until the listener opens it)."""
        self._rng = np.random.default_rng(seed)
        self._clips: list[tuple[int, np.ndarray]] = []  # (start sample, samples)
        self._lock = threading.Lock()
        self._position = 0
        self._opened_event = threading.Event()
        self._quiet_event = threading.Event()
        self._quiet_event.set()

    # -- the stream factory ---------------------------------------------------------------
    def __call__(self, rate: int, block: int, callback: Callable[..., None]) -> FileStream:
        if rate != RATE:
            raise ValueError(f"the file-backed microphone records at {RATE} Hz, not {rate}")
        return FileStream(self, block, callback)

    # -- what it plays --------------------------------------------------------------------
    def play(self, recording: str | Path | np.ndarray, at: float | None = None) -> float:
        """Queue a recording (a WAV file's path, or 16 kHz int16 samples) to start at stream
        second ``at`` (None: at once); returns the stream second it starts at.

        A path is read by :func:`~hardware.speech.audio.read_recording`: a regular WAV file of
        bounded size and length, or :class:`~hardware.speech.audio.NotAWavFile` naming it.
        """
        pcm = recording if isinstance(recording, np.ndarray) else read_recording(recording)
        pcm = np.asarray(pcm, np.int16).reshape(-1)
        with self._lock:
            start = self._position if at is None else max(self._position, int(round(at * RATE)))
            self._clips.append((start, pcm))
            self._quiet_event.clear()
        return start / RATE

    def wait_open(self, timeout: float | None = None) -> bool:
        """Wait until a listener has opened the stream; False on timeout."""
        return self._opened_event.wait(timeout)

    def wait_played(self, timeout: float | None = None) -> bool:
        """Wait until every queued recording has gone out to the listener; False on timeout."""
        return self._quiet_event.wait(timeout)

    @property
    def position(self) -> float:
        """Seconds of audio the stream has delivered."""
        return self._position / RATE

    # -- stream side ----------------------------------------------------------------------
    def _opened(self, t0: float) -> None:
        with self._lock:
            # a stream opened anew starts again at sample 0: what was queued plays from there
            self._clips = [(max(0, s - self._position), pcm) for s, pcm in self._clips]
            self._position = 0
            self.t0 = t0 if self.realtime else None
        self._opened_event.set()

    def _render(self, pos: int, n: int) -> np.ndarray:
        out = self._rng.standard_normal(n) * (32768.0 * 10 ** (FLOOR_DBFS / 20))
        with self._lock:
            for start, pcm in self._clips:
                lo, hi = max(pos, start), min(pos + n, start + len(pcm))
                if lo < hi:
                    out[lo - pos: hi - pos] += pcm[lo - start: hi - start]
        return np.clip(np.round(out), -32768, 32767).astype(np.int16)

    def _played_to(self, pos: int) -> None:
        with self._lock:
            self._position = pos
            self._clips = [(s, pcm) for s, pcm in self._clips if s + len(pcm) > pos]
            if not self._clips:
                self._quiet_event.set()

