"""Is a stretch of sound a held pitch (a beep, a tone, a note) rather than a voice?

A phone's beep, an oven's timer, a game's jingle hold each note at one exact frequency; a voice
never does: even a flat synthesizer's pitch glides from one frame to the next, and so does every
harmonic.  :func:`steady_share` follows the strongest spectral peak from frame to frame (64 ms
frames every 16 ms) over the stretch's loudest frames and gives the share of steps where it moved
by less than ``STEP`` of its frequency: 1.0 for a string of clean beeps, around 0.7-0.95 for beeps
in pink noise at 10 dB, at most 0.58 for any toast said by the voices it was set on
(docs/speech.md, "Beeps are not toasts").  The spotter drops a toast whose stretch is at least
as steady as the lexicon's ``steady_veto``.
"""

from __future__ import annotations

import numpy as np

from hardware.speech.audio import RATE

FRAME = 1024
HOP = 256
#: frames this close to the stretch's loudest (in dB) are the ones judged: the noise between
#: beeps, or a voice's quiet consonants, are not
WITHIN_DB = 6.0
#: a step whose strongest peak moved by less than this share of its frequency is steady
STEP = 0.003
#: fewer judged steps than this: too short to tell (no verdict)
MIN_STEPS = 4

_WINDOW = np.hanning(FRAME)


def steady_share(pcm: np.ndarray, rate: int = RATE) -> float | None:
    """The share of steps between the loudest frames of mono ``pcm`` (int16 or float) where the
    strongest peak held its frequency; None when the stretch is too short or silent to tell."""
    x = np.asarray(pcm, np.float64).reshape(-1)
    if len(x) < FRAME:
        return None
    starts = np.arange(0, len(x) - FRAME + 1, HOP)
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME)[starts] * _WINDOW
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    energy = power.sum(axis=1)
    if not energy.max() > 0:
        return None
    loud = energy >= energy.max() * 10 ** (-WITHIN_DB / 10)
    peak = np.argmax(power, axis=1)
    inner = (peak >= 2) & (peak < power.shape[1] - 1)  # not DC, not Nyquist: a real peak
    rows = np.arange(len(peak))
    edge = np.clip(peak, 1, power.shape[1] - 2)
    a, b, c = (np.log(power[rows, edge + k] + 1e-12) for k in (-1, 0, 1))
    den = a - 2 * b + c
    offset = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
    freq = (peak + np.clip(offset, -0.5, 0.5)) * rate / FRAME
    judged = loud[:-1] & loud[1:] & inner[:-1] & inner[1:]
    if judged.sum() < MIN_STEPS:
        return None
    moved = np.abs(freq[1:] - freq[:-1]) / np.maximum(freq[:-1], 1.0)
    return float((moved[judged] < STEP).mean())
