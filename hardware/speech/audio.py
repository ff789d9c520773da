"""Audio as the recognisers want it: 16 kHz mono 16-bit samples, from files of any shape."""

from __future__ import annotations

import os
import stat
import wave
from pathlib import Path

import numpy as np

RATE = 16000
#: the lowest sample rate read: a telephone's; below it no toast can be told apart
MIN_RATE = 8000
#: the highest sample rate read: a studio interface's highest; a header saying more is broken
MAX_RATE = 768000


class NotAWavFile(ValueError):
    """The file given is not a WAV file this box can read (integer or float samples)."""


def resample(x: np.ndarray, rate_in: int, rate_out: int = RATE) -> np.ndarray:
    """Band-limited resampling of float samples (the whole signal through one FFT)."""
    if rate_in == rate_out or len(x) == 0:
        return x.astype(np.float32)
    n_out = max(1, int(round(len(x) * rate_out / rate_in)))  # a lone sample stays one sample
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


#: WAV format tags read: integer PCM, IEEE float, and "extensible" (whose sub-format says which)
_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


def active_power(x: np.ndarray) -> float:
    """Mean power of the speech frames (10 ms frames within 30 dB of the loudest)."""
    n = len(x) // 160
    p = np.mean(x[: n * 160].reshape(n, 160) ** 2, axis=1)
    return float(np.mean(p[p > p.max() * 1e-3]))


def pink_noise(n: int, rng: np.random.Generator) -> np.ndarray:
    """Unit-power pink (1/f) noise made by shaping white noise in the frequency domain."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spec), dtype=np.float64)
    f[0] = 1.0
    y = np.fft.irfft(spec / np.sqrt(f), n)
    return (y / np.sqrt(np.mean(y**2))).astype(np.float32)


def _wav_chunks(path: Path, data: bytes) -> tuple[bytes, bytes]:
    """The ``fmt `` and ``data`` chunks of a RIFF/WAVE file's bytes."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise NotAWavFile(f"{path} is not a WAV file (no RIFF/WAVE header)")
    fmt = body = None
    pos = 12
    while pos + 8 <= len(data):
        tag, size = data[pos: pos + 4], int.from_bytes(data[pos + 4: pos + 8], "little")
        start = pos + 8
        if tag == b"data" and (size == 0xFFFFFFFF or start + size > len(data)):
            size = len(data) - start  # a recorder that never wrote the length: all that is there
        if tag == b"fmt ":
            fmt = data[start: start + size]
        elif tag == b"data":
            body = data[start: start + size]
        pos = start + size + (size & 1)
    if fmt is None or len(fmt) < 16:
        raise NotAWavFile(f"{path} is not a WAV file (no format chunk)")
    if body is None:
        raise NotAWavFile(f"{path} is not a WAV file (no data chunk)")
    return fmt, body


def read_wav(path: str | Path) -> np.ndarray:
    """Read a WAV file of any rate and channel count, integer (8, 16, 24 or 32 bits) or float
    (32 or 64 bits), plain or "extensible", as 16 kHz mono int16.

    Raises :class:`NotAWavFile` naming the file and what is wrong with it.
    """
    path = Path(path)
    try:
        fmt, raw = _wav_chunks(path, path.read_bytes())
    except FileNotFoundError as err:
        raise NotAWavFile(f"{path} does not exist") from err
    except IsADirectoryError as err:
        raise NotAWavFile(f"{path} is a folder, not a WAV file") from err
    except OSError as err:
        raise NotAWavFile(f"{path} cannot be read ({err.strerror or err})") from err
    tag, channels, rate = (int.from_bytes(fmt[i: j], "little") for i, j in ((0, 2), (2, 4), (4, 8)))
    bits = int.from_bytes(fmt[14:16], "little")
    if tag == _EXTENSIBLE and len(fmt) >= 26:
        tag = int.from_bytes(fmt[24:26], "little")  # the sub-format GUID starts with the tag
    if channels < 1 or rate < 1:
        raise NotAWavFile(f"{path} says it has {channels} channels at {rate} Hz")
    if rate < MIN_RATE:
        raise NotAWavFile(f"{path} is sampled at {rate} Hz: speech needs at least {MIN_RATE} Hz")
    if rate > MAX_RATE:
        raise NotAWavFile(f"{path} says it is sampled at {rate} Hz: at most {MAX_RATE} Hz is read")
    width = (bits + 7) // 8
    if tag == _FLOAT and width not in (4, 8):
        raise NotAWavFile(f"{path} has an unsupported float sample size of {bits} bits")
    if tag not in (_PCM, _FLOAT):
        raise NotAWavFile(f"{path} is not PCM or float audio (WAV format {tag:#x})")
    if not 1 <= width <= 4 and tag == _PCM:
        raise NotAWavFile(f"{path} has an unsupported sample size of {bits} bits")
    frame = width * channels
    if raw and len(raw) < frame:
        raise NotAWavFile(f"{path} holds no audio (its data chunk has {len(raw)} bytes, less than "
                          f"one frame of {channels} channels of {bits} bits)")
    raw = raw[: len(raw) // frame * frame]
    if tag == _FLOAT:
        x = np.frombuffer(raw, "<f4" if width == 4 else "<f8").astype(np.float32)
        x = np.clip(np.nan_to_num(x), -1.0, 1.0)
    elif width == 1:
        x = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 2:
        x = np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        x = (np.where(v >= 1 << 23, v - (1 << 24), v) / float(1 << 23)).astype(np.float32)
    else:
        x = (np.frombuffer(raw, "<i4") / float(1 << 31)).astype(np.float32)
    if channels > 1:
        x = x.reshape(-1, channels).mean(axis=1)
    if len(x) == 0:
        raise NotAWavFile(f"{path} holds no audio (its data chunk is empty)")
    return to_int16(resample(x, rate, RATE))


#: the largest recording a script or the file-backed microphone reads (bytes on disk)
MAX_RECORDING_BYTES = 64 * 1024 * 1024
#: the longest recording a script or the file-backed microphone plays (seconds)
MAX_RECORDING_S = 600.0


def read_recording(path: str | Path, max_bytes: int = MAX_RECORDING_BYTES,
                   max_s: float = MAX_RECORDING_S) -> np.ndarray:
    """A WAV file as :func:`read_wav` reads it, but only a regular file of at most ``max_bytes``
    holding at most ``max_s`` seconds (a device, a FIFO or a huge file is refused before it is
    read). Raises :class:`NotAWavFile` naming the file and what is wrong."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError as err:
        raise NotAWavFile(f"{path} does not exist") from err
    except OSError as err:
        raise NotAWavFile(f"{path} cannot be read ({err.strerror or err})") from err
    if stat.S_ISDIR(st.st_mode):
        raise NotAWavFile(f"{path} is a folder, not a WAV file")
    if not stat.S_ISREG(st.st_mode):
        raise NotAWavFile(f"{path} is not a regular file (a device, a pipe or a socket)")
    if st.st_size > max_bytes:
        raise NotAWavFile(f"{path} is {st.st_size / 2**20:.1f} MiB: recordings of at most "
                          f"{max_bytes / 2**20:.0f} MiB are read")
    pcm = read_wav(path)
    if len(pcm) > max_s * RATE:
        raise NotAWavFile(f"{path} lasts {len(pcm) / RATE:.1f} s: recordings of at most "
                          f"{max_s:.0f} s are read")
    return pcm


def write_wav(path: str | Path, pcm: np.ndarray, rate: int = RATE) -> None:
    """Write int16 mono samples as a WAV file."""
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.asarray(pcm, dtype="<i2").tobytes())
