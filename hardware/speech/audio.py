"""Audio as the recognisers want it: 16 kHz mono 16-bit samples, from files of any shape."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 16000


class NotAWavFile(ValueError):
    """The file given is not a readable PCM WAV file."""


def resample(x: np.ndarray, rate_in: int, rate_out: int = RATE) -> np.ndarray:
    """Band-limited resampling of float samples (the whole signal through one FFT)."""
    if rate_in == rate_out or len(x) == 0:
        return x.astype(np.float32)
    n_out = int(round(len(x) * rate_out / rate_in))
    spec = np.fft.rfft(x.astype(np.float64))
    keep = n_out // 2 + 1
    if keep <= len(spec):
        spec = spec[:keep]
    else:
        spec = np.concatenate([spec, np.zeros(keep - len(spec), spec.dtype)])
    return (np.fft.irfft(spec, n_out) * (n_out / len(x))).astype(np.float32)


def to_int16(x: np.ndarray) -> np.ndarray:
    """Float samples in [-1, 1) to int16 (the inverse of :func:`to_float`), clipping the rest."""
    return np.clip(np.round(x * 32768.0), -32768, 32767).astype(np.int16)


def to_float(pcm: np.ndarray) -> np.ndarray:
    """int16 samples to float32 in [-1, 1)."""
    return pcm.astype(np.float32) / 32768.0


def read_wav(path: str | Path) -> np.ndarray:
    """Read a PCM WAV of any rate, width and channel count as 16 kHz mono int16.

    Raises :class:`NotAWavFile` naming the file when it is not a PCM WAV.
    """
    path = Path(path)
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (wave.Error, EOFError) as err:
        raise NotAWavFile(f"{path} is not a PCM WAV file ({err})") from err
    except FileNotFoundError as err:
        raise NotAWavFile(f"{path} does not exist") from err
    if width == 1:
        x = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 2:
        x = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        x = (np.where(v >= 1 << 23, v - (1 << 24), v) / float(1 << 23)).astype(np.float32)
    elif width == 4:
        x = np.frombuffer(raw, "<i4").astype(np.float32) / float(1 << 31)
    else:
        raise NotAWavFile(f"{path} has an unsupported sample width of {width} bytes")
    if channels > 1:
        x = x[: len(x) // channels * channels].reshape(-1, channels).mean(axis=1)
    return to_int16(resample(x, rate, RATE))


def write_wav(path: str | Path, pcm: np.ndarray, rate: int = RATE) -> None:
    """Write int16 mono samples as a WAV file."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(pcm, dtype="<i2").tobytes())
