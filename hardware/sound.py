"""Sound out: short cues synthesized with numpy, played with sounddevice.

With no output device (or no PortAudio) the box stays silent and says so once
in the log; a cue never blocks the caller.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

RATE = 44_100

#: cue -> (frequency Hz, duration s) notes
CUES: dict[str, list[tuple[float, float]]] = {
    "reveal": [(660, 0.08), (880, 0.12)],
    "claim": [(990, 0.07)],
    "win": [(523, 0.1), (659, 0.1), (784, 0.1), (1047, 0.25)],
    "mistake": [(330, 0.15), (262, 0.25)],
    "penalty": [(220, 0.35)],
    "veto": [(440, 0.1), (220, 0.3)],
    "tick": [(1200, 0.03)],
    "drink": [(392, 0.12), (523, 0.2)],
    "error": [(200, 0.2), (150, 0.3)],
    "menu": [(1500, 0.02)],
}


def synth(cue: str, volume: float = 0.6) -> np.ndarray:
    """The cue's samples (float32 mono at :data:`RATE`), with soft edges."""
    notes = CUES.get(cue)
    if notes is None:
        raise KeyError(f"unknown sound cue {cue!r} (known: {', '.join(CUES)})")
    parts = []
    for freq, dur in notes:
        n = int(RATE * dur)
        t = np.arange(n) / RATE
        wave = np.sin(2 * np.pi * freq * t) * 0.7 + np.sin(4 * np.pi * freq * t) * 0.2
        env = np.minimum(1.0, np.minimum(np.arange(n), n - np.arange(n)) / (0.005 * RATE))
        parts.append(wave * env)
    return (np.concatenate(parts) * volume).astype(np.float32)


class Speaker:
    """Plays cues; silent (with one warning) when there is nowhere to play them."""

    def __init__(self, enabled: bool = True, volume: float = 0.6, device: str | int | None = None) -> None:
        self.volume = volume
        self.device = device or None
        self.problem: str | None = None
        self.played: list[str] = []
        self._sd: Any = None
        if not enabled:
            self.problem = "sound is off in the settings"
            return
        try:
            import sounddevice as sd

            sd.query_devices(self.device, "output")
            self._sd = sd
        except Exception as exc:  # no PortAudio, no device: both mean silence
            self.problem = f"no speaker ({exc}); playing on silently"
            log.warning(self.problem)

    @property
    def available(self) -> bool:
        return self._sd is not None

    def play(self, cue: str) -> None:
        samples = synth(cue, self.volume)
        self.played.append(cue)
        if self._sd is None:
            return
        try:
            self._sd.play(samples, RATE, device=self.device, blocking=False)
        except Exception as exc:
            self.problem = f"speaker lost ({exc}); playing on silently"
            log.warning(self.problem)
            self._sd = None
