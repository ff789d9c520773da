"""Sounds of a party that are not speech, for the spotter's negatives.

A pure tone or a chord fired the spotter's "tchin tchin" (a 300 Hz tone at 0.52, a 440 + 880 Hz
chord at 0.47): its networks had heard music only *under* speech, never alone.  These sounds are
a voice of their own in :mod:`bench.spotter_data` (the ``sounds`` family, never left out, never
measured as a family): each one said once, every training example then made of it as of a word
(rooms, microphones, levels, noise, babble).

Each sound is made from its name alone (``"tone 250"``, ``"chord 196"``, ``"clink 3"``...), the
same samples every time.  The frequencies are on a grid of their own, so the tests' tones (300,
440 + 880, 660, 1200 Hz) are sounds no network heard.
"""

from __future__ import annotations

import zlib

import numpy as np

from hardware.speech.audio import RATE


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(seconds * RATE)) / RATE


def _env(n: int, attack_s: float = 0.02, release_s: float = 0.05) -> np.ndarray:
    e = np.ones(n)
    a, r = min(n // 2, int(attack_s * RATE)), min(n // 2, int(release_s * RATE))
    if a:
        e[:a] = np.linspace(0, 1, a)
    if r:
        e[-r:] = np.linspace(1, 0, r)
    return e


def _harmonic(f0: np.ndarray | float, t: np.ndarray, harmonics: int, tilt: float) -> np.ndarray:
    f = np.broadcast_to(np.asarray(f0, dtype=np.float64), t.shape)
    phase = 2 * np.pi * np.cumsum(f) / RATE
    return sum(np.sin(h * phase) / h**tilt for h in range(1, harmonics + 1))


def music(n: int, rng: np.random.Generator) -> np.ndarray:
    """Unit-power synthetic party music: chords of harmonic tones and a kick/hi-hat beat."""
    t = np.arange(n) / RATE
    y = np.zeros(n, np.float64)
    beat = 60.0 / rng.uniform(90, 130)
    root = rng.uniform(100, 220)
    chord_len = int(beat * 4 * RATE)
    for start in range(0, n, chord_len):
        seg = slice(start, min(n, start + chord_len))
        base = root * 2 ** (int(rng.integers(0, 12)) / 12)
        for ratio in (1.0, 1.26, 1.5, 2.0):
            for h in range(1, 5):
                y[seg] += np.sin(2 * np.pi * base * ratio * h * t[seg]) / h**1.5
    y += _drums(n, int(beat * RATE / 2), rng, 3.0)
    return (y / np.sqrt(np.mean(y**2) + 1e-12)).astype(np.float32)


def _drums(n: int, step: int, rng: np.random.Generator, gain: float) -> np.ndarray:
    """A kick and a hi-hat in turn every ``step`` samples (each hit shorter than a step)."""
    out = np.zeros(n, np.float64)
    for k, at in enumerate(range(0, n, step)):
        m = min(n - at, 2400)
        env = np.exp(-np.arange(m) / (400 if k % 2 == 0 else 150))
        hit = (np.sin(2 * np.pi * 60 * np.arange(m) / RATE) if k % 2 == 0
               else rng.standard_normal(m) * 0.5)
        out[at: at + m] += gain * hit * env
    return out


def _chirps(rng: np.random.Generator) -> np.ndarray:
    """One to four beeps of 0.06-0.4 s, 0.03-0.25 s apart, at one pitch or a few notes of a
    tune (220-2400 Hz), each a sine, a sine with two overtones or a square wave: a phone, an
    oven, a game, a reversing van.  Measured (:mod:`bench.sounds_check`), not among
    :data:`NAMES`: fitted on, 24 of them cost real people's spliced "tchin tchin" more than
    they saved (docs/speech-lab.md, "Party sounds no fit heard")."""
    f0 = float(np.exp(rng.uniform(np.log(220), np.log(2400))))
    timbre = int(rng.integers(0, 3))
    same_pitch = rng.random() < 0.5
    parts = [np.zeros(int(rng.uniform(0.0, 0.2) * RATE))]
    for _ in range(int(rng.integers(1, 5))):
        f = f0 if same_pitch else f0 * 2 ** (int(rng.integers(-7, 8)) / 12)
        t = _t(rng.uniform(0.06, 0.4))
        beep = (np.sin(2 * np.pi * f * t) if timbre == 0
                else _harmonic(f, t, 3, 1.0) if timbre == 1
                else np.sign(np.sin(2 * np.pi * f * t)))
        parts += [beep * _env(len(t), 0.005, 0.01), np.zeros(int(rng.uniform(0.03, 0.25) * RATE))]
    return np.concatenate(parts)


#: every sound's name: its kind and a number (a frequency in Hz, or a variant)
NAMES: tuple[str, ...] = (
    *(f"tone {f}" for f in (150, 200, 250, 350, 500, 700, 1000, 1400, 2000, 2800)),
    *(f"beeps {f}" for f in (800, 1000, 1800)),
    *(f"chord {f}" for f in (131, 175, 220, 294, 392)),
    *(f"organ {f}" for f in (110, 165, 247)),
    *(f"square {f}" for f in (120, 200, 350)),  # a buzzer, a game show's
    *(f"saw {f}" for f in (100, 140, 190)),  # harmonic-rich, like a voiced sound
    *(f"hum {f}" for f in (110, 170, 230)),  # someone humming a note
    *(f"whistle {f}" for f in (1100, 1600, 2300)),
    *(f"sweep {f}" for f in (1, 2, 3)),
    *(f"siren {f}" for f in (1, 2)),
    *(f"doorbell {f}" for f in (1, 2)),
    *(f"ring {f}" for f in (1, 2)),
    *(f"clink {f}" for f in (1, 2, 3, 4)),  # glasses
    *(f"claps {f}" for f in (1, 2, 3)),
    *(f"beat {f}" for f in (1, 2, 3)),
    *(f"music {f}" for f in (1, 2, 3, 4)),
)


#: every kind of sound :func:`sound` makes (``chirps`` is measured only, never among NAMES)
KINDS: tuple[str, ...] = (*dict.fromkeys(n.split()[0] for n in NAMES), "chirps")


def sound(name: str) -> np.ndarray:
    """The sound called ``name`` (one of :data:`NAMES`, or the same kind with another number):
    float32 at 16 kHz, peak about 0.5."""
    kind, _, arg = name.partition(" ")
    try:
        n = float(arg)
    except ValueError:
        raise ValueError(f"unknown sound {name!r}: a kind and a number, e.g. 'tone 250'") from None
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    dur = float(rng.uniform(0.6, 2.0))
    t = _t(dur)
    if kind == "tone":
        x = np.sin(2 * np.pi * n * t)
    elif kind == "beeps":
        x = np.sin(2 * np.pi * n * t) * ((t % 0.4) < 0.2)
    elif kind == "chord":
        x = sum(_harmonic(n * r, t, 4, 1.5) for r in (1.0, 1.26, 1.5))
    elif kind == "organ":
        x = sum(_harmonic(n * r, t, 8, 1.0) for r in (1.0, 1.5, 2.0))
    elif kind == "square":
        x = np.sign(np.sin(2 * np.pi * n * t))
    elif kind == "saw":
        x = _harmonic(n, t, 30, 1.0)
    elif kind == "hum":  # a sung "mmm": vibrato and a nasal's low-pass tilt
        f = n * (1 + 0.02 * np.sin(2 * np.pi * 5.5 * t))
        x = _harmonic(f, t, 12, 2.0)
    elif kind == "whistle":
        f = n * (1 + 0.03 * np.sin(2 * np.pi * 6 * t))
        x = np.sin(2 * np.pi * np.cumsum(f) / RATE) + rng.standard_normal(len(t)) * 0.02
    elif kind == "sweep":
        lo, hi = rng.uniform(150, 400), rng.uniform(1200, 3000)
        f = np.geomspace(lo, hi, len(t)) if n % 2 else np.geomspace(hi, lo, len(t))
        x = _harmonic(f, t, 3, 1.5)
    elif kind == "siren":
        f = 600 + 300 * np.sin(2 * np.pi * rng.uniform(0.8, 2.0) * t)
        x = _harmonic(f, t, 3, 1.2)
    elif kind == "doorbell":
        t = _t(1.6)
        x = np.zeros(len(t))
        for at, f in ((0.0, rng.uniform(600, 800)), (0.7, rng.uniform(450, 600))):
            m = t >= at
            x[m] += np.sin(2 * np.pi * f * (t[m] - at)) * np.exp(-(t[m] - at) * 3)
    elif kind == "ring":
        x = (np.sin(2 * np.pi * 440 * t) + np.sin(2 * np.pi * 480 * t)) * (
            (t % 0.05) < 0.025) * ((t % 1.0) < 0.6)
    elif kind == "clink":  # struck glass: inharmonic partials, a fast decay, repeated
        x = np.zeros(len(t))
        for at in np.sort(rng.uniform(0, dur * 0.7, int(rng.integers(1, 4)))):
            m = t >= at
            for f in rng.uniform(1800, 6500, 4):
                x[m] += np.sin(2 * np.pi * f * (t[m] - at)) * np.exp(-(t[m] - at) * rng.uniform(6, 20))
    elif kind == "claps":
        x = np.zeros(len(t))
        for at in np.arange(0, dur, rng.uniform(0.15, 0.4)):
            i = int(at * RATE)
            m = min(len(t) - i, 1600)
            x[i: i + m] += rng.standard_normal(m) * np.exp(-np.arange(m) / 200)
    elif kind == "music":
        x = music(len(t), rng).astype(np.float64)
    elif kind == "chirps":
        x = _chirps(rng)
    elif kind == "beat":  # the drums alone
        x = _drums(len(t), int(RATE * 60 / rng.uniform(90, 130) / 2), rng, 1.0)
    else:
        raise ValueError(f"unknown sound {name!r}: kinds are {list(KINDS)}")
    x = x * _env(len(x))
    peak = float(np.max(np.abs(x))) or 1.0
    return (0.5 * x / peak).astype(np.float32)
