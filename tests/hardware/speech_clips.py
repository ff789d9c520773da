"""Real spoken clips for the speech tests, synthesized once per session with flite/espeak-ng."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import wave
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

RATE = 16000
# Only against a hang: every wait ends as soon as its condition holds, however slow the CPU.
HANG_GUARD_S = 600.0


def wait_until(cond: Callable[[], bool]) -> bool:
    """Wait until ``cond()`` holds (False only if it never does within the hang guard)."""
    end = time.monotonic() + HANG_GUARD_S
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


class Seen(list):  # type: ignore[type-arg]
    """What a listener's callback reported, and a wait that ends as soon as it is there."""

    def __init__(self) -> None:
        super().__init__()
        self._cond = threading.Condition()

    def append(self, item: Any) -> None:
        with self._cond:
            super().append(item)
            self._cond.notify_all()

    def wait(self, cond: Callable[[list[Any]], bool]) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: cond(self), HANG_GUARD_S)


def floor_noise(seconds: float, seed: int = 0) -> np.ndarray:
    """A -65 dBFS noise floor (real rooms are never digital zeros)."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(int(seconds * RATE)) * 32768 * 10 ** (-65 / 20)).astype(np.int16)


def load_16k(path: Path) -> np.ndarray:
    """A synthesizer's WAV as 16 kHz mono int16 (sox converts the rate)."""
    out = path.with_suffix(".16k.wav")
    subprocess.run(["sox", "-R", str(path), "-r", "16000", "-c", "1", "-b", "16", str(out)], check=True,
                   capture_output=True)
    with wave.open(str(out)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)


def padded(pcm: np.ndarray, before: float = 0.5, after: float = 0.5, seed: int = 0) -> np.ndarray:
    """A clip with floor noise around it (and under it)."""
    speech = np.clip(pcm.astype(np.int32) + floor_noise(len(pcm) / RATE, seed + 1), -32768, 32767)
    return np.concatenate([floor_noise(before, seed), speech.astype(np.int16),
                           floor_noise(after, seed + 2)])


def say(tmp: Path, synth: str, voice: str, text: str) -> np.ndarray:
    """``text`` spoken by flite or espeak-ng, padded with floor noise."""
    exe = {"flite": "flite", "espeak": "espeak-ng"}[synth]
    if shutil.which(exe) is None or shutil.which("sox") is None:
        pytest.skip(f"{exe} and sox are needed (make test installs them)")
    raw = tmp / f"{synth}-{voice}-{abs(hash(text))}.wav"
    if synth == "flite":
        cmd = ["flite", "-voice", voice, "-t", text, "-o", str(raw)]
    else:
        cmd = ["espeak-ng", "-v", voice, "-w", str(raw), text]
    subprocess.run(cmd, check=True, capture_output=True)
    pcm = load_16k(raw)
    loud = np.flatnonzero(np.abs(pcm) > 300)
    return padded(pcm[loud[0]: loud[-1] + 1])
