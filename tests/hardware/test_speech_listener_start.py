"""A microphone may deliver blocks the moment its stream starts: their samples still count
from the stream's sample 0, so a toast heard later keeps its true place on the clock."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from speech_clips import RATE, floor_noise, say

from hardware.speech.capture import Listener
from hardware.speech.heard import Heard


class EagerMicrophone:
    """A stream that hands over its first ``eager_s`` of audio inside ``start()`` itself (as
    a driver with buffered audio may), then the rest from its own thread once ``go`` is set."""

    def __init__(self, samples: np.ndarray, eager_s: float) -> None:
        self.samples = samples
        self.eager = int(eager_s * RATE)
        self.played = threading.Event()
        self.go = threading.Event()

    def __call__(self, rate: int, block: int, callback: Callable[..., None]) -> Any:
        mic = self

        class Stream:
            active = False
            latency = 0.0

            def start(self) -> None:
                self.active = True
                x = mic.samples
                for i in range(0, mic.eager, block):
                    callback(x[i: i + block].reshape(-1, 1), block, None, None)
                threading.Thread(target=self._rest, daemon=True).start()

            def _rest(self) -> None:
                x = mic.samples
                if not mic.go.wait(60):
                    return
                for i in range(mic.eager, len(x) - block + 1, block):
                    if not self.active:
                        return
                    callback(x[i: i + block].reshape(-1, 1), block, None, None)
                mic.played.set()

            def stop(self) -> None:
                self.active = False

            def close(self) -> None:
                pass

        return Stream()


def test_blocks_delivered_while_the_stream_starts_keep_their_sample_times(tmp_path: Path) -> None:
    from hardware.speech.spotter import SpotterEngine

    audio = np.concatenate([floor_noise(1.0, 5), say(tmp_path, "flite", "kal", "cheers"),
                            floor_noise(1.5, 6)])
    mic = EagerMicrophone(audio, eager_s=0.6)
    heard: list[Heard] = []
    done = threading.Event()
    # the rest of the audio comes once the listener has the stream running
    listener = Listener(SpotterEngine(), heard.append, lambda status: mic.go.set(),
                        stream_factory=mic, stall_s=60)
    listener.arm(0.0, float("inf"))
    listener.start()
    try:
        assert mic.played.wait(600)
        end = time.monotonic() + 600  # until the worker has taken in every block (a hang fails)
        while listener._filled < len(audio) - 320 and time.monotonic() < end:
            done.wait(0.02)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]
    # the word starts 1.5 s into the stream (1 s + 0.5 s of padding), counted in samples
    assert 1.4 <= heard[0].start - listener.time_of(0) <= 1.8
