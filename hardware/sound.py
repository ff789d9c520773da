"""Sound out: short cues synthesized with numpy, played with sounddevice.

With no output device (or no PortAudio) the box stays silent and says so once
in the log; a cue never blocks the caller: cues are played from the speaker's own thread,
so a speaker that hangs as it is unplugged holds up no press and no frame. A speaker lost
mid-game is tried again now and then, and found again when it comes back.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

RATE = 44_100

#: cue -> (frequency Hz, duration s) notes: the short, plain tones of the menus and the game
TONES: dict[str, list[tuple[float, float]]] = {
    "reveal": [(660, 0.08), (880, 0.12)],
    "claim": [(990, 0.07), (1320, 0.09)],
    "mistake": [(330, 0.15), (262, 0.25)],
    "veto": [(440, 0.1), (220, 0.3)],
    "drink": [(392, 0.12), (523, 0.2)],
    "error": [(200, 0.2), (150, 0.3)],
    "menu": [(1500, 0.02)],
    "turn": [(784, 0.06), (988, 0.08)],
}
#: a struck wine glass: its partials (Hz) and how fast each dies away (1/s); high and bright,
#: above most of the energy of dance music, so a party hears it
GLASS = ((2093.0, 5.0), (3398.0, 7.0), (4873.0, 10.0), (6302.0, 14.0))


def _tones(notes: list[tuple[float, float]]) -> np.ndarray:
    parts = []
    for freq, dur in notes:
        n = int(RATE * dur)
        t = np.arange(n) / RATE
        wave = np.sin(2 * np.pi * freq * t) * 0.7 + np.sin(4 * np.pi * freq * t) * 0.2
        env = np.minimum(1.0, np.minimum(np.arange(n), n - np.arange(n)) / (0.005 * RATE))
        parts.append(wave * env)
    return np.concatenate(parts)


def _clink(dur: float = 0.6, pitch: float = 1.0) -> np.ndarray:
    n = int(RATE * dur)
    t = np.arange(n) / RATE
    wave = sum(np.sin(2 * np.pi * f * pitch * t) * np.exp(-d * t) / (i + 1)
               for i, (f, d) in enumerate(GLASS))
    attack = np.minimum(1.0, np.arange(n) / (0.001 * RATE))
    return np.asarray(wave * attack)


def _win() -> np.ndarray:
    """Two glasses clinked: the sound of a card won or a game over."""
    gap = np.zeros(int(RATE * 0.09))
    return np.concatenate([_clink(0.18), gap, _clink(0.7, 1.06)])


def _buzzer() -> np.ndarray:
    """A game-show buzzer: a rough low square wave, for a penalty."""
    n = int(RATE * 0.5)
    t = np.arange(n) / RATE
    wave = np.sign(np.sin(2 * np.pi * 110 * t)) * 0.6 + np.sign(np.sin(2 * np.pi * 147 * t)) * 0.4
    env = np.minimum(1.0, np.minimum(np.arange(n), n - np.arange(n)) / (0.01 * RATE))
    return np.asarray(wave * env)


def _tick() -> np.ndarray:
    """A countdown tick: a short bright click."""
    n = int(RATE * 0.035)
    t = np.arange(n) / RATE
    return np.asarray(np.sin(2 * np.pi * 2400 * t) * np.exp(-t * 120) + np.sin(2 * np.pi * 3700 * t) * np.exp(-t * 160))


CUES: dict[str, Any] = {name: (lambda notes=notes: _tones(notes)) for name, notes in TONES.items()}
CUES.update({"win": _win, "clink": lambda: _clink(0.7), "penalty": _buzzer, "buzzer": _buzzer, "tick": _tick})


def synth(cue: str, volume: float = 0.6) -> np.ndarray:
    """The cue's samples (float32 mono at :data:`RATE`), peaking at ``volume`` of full scale.

    Every cue is brought to the same peak, so a soft tone is as audible as a clink.
    """
    make = CUES.get(cue)
    if make is None:
        raise KeyError(f"unknown sound cue {cue!r} (known: {', '.join(sorted(CUES))})")
    wave = make()
    peak = float(np.max(np.abs(wave))) or 1.0
    return (wave / peak * max(0.0, min(1.0, volume))).astype(np.float32)


#: PortAudio is one library for the speaker and the microphone: reading its list of devices
#: afresh closes every stream, so it is done under this lock, never while a cue plays
PORTAUDIO = threading.Lock()


def rescan_devices(sd: Any) -> bool:
    """Read PortAudio's list of devices afresh (it is read once, when PortAudio starts, so a
    device plugged in later is not in it). Closes the speaker's finished stream first; skipped,
    False, while a cue is playing. Every other stream must be closed already."""
    with PORTAUDIO:
        try:
            playing = sd.get_stream()
        except Exception:  # nothing played yet
            playing = None
        if playing is not None and getattr(playing, "active", False):
            return False
        try:
            sd.stop()
            sd._terminate()
            sd._initialize()
        except Exception as exc:
            log.warning("reading the sound devices afresh failed: %s", exc)
            try:
                if not getattr(sd, "_initialized", 1):
                    sd._initialize()
            except Exception:
                pass
            return False
        return True


class Speaker:
    """Plays cues; silent (with one warning) when there is nowhere to play them."""

    #: seconds between tries to find a lost speaker again
    retry_s = 10.0

    def __init__(self, enabled: bool = True, volume: float = 0.6, device: str | int | None = None,
                 *, clock: Any = time.monotonic) -> None:
        self.volume = volume
        self.device = device or None
        self.problem: str | None = None
        self.played: list[str] = []
        self.clock = clock
        self._sd: Any = None
        self._lost_sd: Any = None  # sounddevice, while the speaker is lost
        self._lost_at = 0.0
        self._cues: queue.Queue[np.ndarray] = queue.Queue(maxsize=4)
        self._player: threading.Thread | None = None
        if not enabled:
            self.problem = "sound is off in the settings"
            return
        try:
            import sounddevice as sd

            sd.query_devices(self.device, "output")
            self._sd = sd
        except Exception as exc:  # no PortAudio, no device: both mean silence
            # the table reads the plain words; the log keeps PortAudio's own for the host
            self.problem = "No speaker found: the box plays on silently (clinkbox doctor says why)"
            log.warning("no speaker (%s); playing on silently", exc)

    @property
    def available(self) -> bool:
        return self._sd is not None

    def play(self, cue: str) -> None:
        samples = synth(cue, self.volume)
        self.played.append(cue)
        if self._sd is None and self._lost_sd is not None and self.clock() - self._lost_at >= self.retry_s:
            self._sd, self._lost_sd = self._lost_sd, None  # try the lost speaker again
        if self._sd is None or self.volume <= 0:
            return
        if self._player is None or not self._player.is_alive():
            self._player = threading.Thread(target=self._play_cues, name="speaker", daemon=True)
            self._player.start()
        try:
            self._cues.put_nowait(samples)
        except queue.Full:  # the speaker is stuck: a cue late is no cue
            log.debug("speaker busy: cue %s dropped", cue)

    def _play_cues(self) -> None:
        while True:
            samples = self._cues.get()
            sd = self._sd
            if sd is None:
                continue
            try:
                with PORTAUDIO:
                    sd.play(samples, RATE, device=self.device, blocking=False)
            except Exception as exc:
                self.problem = "The speaker was lost: the box plays on silently"
                log.warning("speaker lost (%s); playing on silently", exc)
                self._sd, self._lost_sd, self._lost_at = None, sd, self.clock()
                continue
            if self.problem is not None and self.problem.startswith("The speaker was lost"):
                self.problem = None
                log.info("speaker back")
