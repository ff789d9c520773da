"""Steady-noise suppression before decoding: spectral subtraction with the window's own noise.

The noise spectrum is the mean power of the frames outside the speech spans (the part of the
window where nobody toasts); it is subtracted from every frame with an over-subtraction factor
and a spectral floor, keeping the phase, and the signal is rebuilt by overlap-add.  It helps
against a fan, a fridge or pink noise; babble is not steady and barely changes.
"""

from __future__ import annotations

import numpy as np

from hardware.speech.vad import SpeechSpan

_N = 512
_HOP = 256
_WINDOW = np.sqrt(np.hanning(_N + 1)[:_N])  # sqrt-Hann at 50 % overlap rebuilds exactly


def suppress_noise(x: np.ndarray, spans: list[SpeechSpan], over: float = 1.5,
                   floor: float = 0.1, quiet_dbfs: float = -55.0) -> np.ndarray:
    """``x`` (float samples) with the steady noise measured outside ``spans`` subtracted.

    Returns ``x`` unchanged when the window has too little non-speech to measure the noise, or
    when the room is already quiet (noise under ``quiet_dbfs``): subtracting a faint floor
    leaves near-digital silence, which the decoders handle badly.
    """
    n_frames = (len(x) - _N) // _HOP + 1
    if n_frames < 4:
        return x
    idx = np.arange(_N)[None, :] + _HOP * np.arange(n_frames)[:, None]
    spec = np.fft.rfft(x[idx] * _WINDOW, axis=1)
    power = np.abs(spec) ** 2
    centers = idx[:, _N // 2]
    quiet = np.ones(n_frames, bool)
    for s in spans:
        quiet &= (centers < s.start - _N) | (centers > s.end + _N)
    if quiet.sum() < 3:
        return x
    noise = power[quiet].mean(axis=0)
    noise_dbfs = 10 * np.log10(noise.sum() / (_N * np.sum(_WINDOW**2) / 2) + 1e-12)
    if noise_dbfs < quiet_dbfs:
        return x
    gain = np.sqrt(np.maximum(1.0 - over * noise / np.maximum(power, 1e-12), floor**2))
    frames = np.fft.irfft(spec * gain, _N, axis=1) * _WINDOW
    y = np.zeros(len(x), np.float64)
    np.add.at(y, idx, frames)
    covered = n_frames * _HOP + _N - _HOP
    y[covered:] = x[covered:]
    y[: _HOP] = x[: _HOP]  # the first half-frame has a single window: keep the input
    return y.astype(np.float32)
