"""WAV files as recorders and editors write them: sox converts one clip to every shape, and
each must read back as the same 16 kHz mono samples; a broken file is named with what is wrong."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from speech_clips import floor_noise

from hardware.speech.audio import NotAWavFile, read_wav, write_wav


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray]:
    """Half a second of a 440 Hz tone over a noise floor, as a 16 kHz 16-bit WAV."""
    t = np.arange(8000) / 16000
    pcm = (8000 * np.sin(2 * np.pi * 440 * t)).astype(np.int16) + floor_noise(0.5)
    path = tmp_path_factory.mktemp("wav") / "tone.wav"
    write_wav(path, pcm)
    return path, pcm


@pytest.mark.parametrize("sox_args", [
    ["-b", "24"],  # written by sox as WAVE_FORMAT_EXTENSIBLE
    ["-b", "32"],
    ["-b", "32", "-e", "floating-point"],
    ["-b", "64", "-e", "floating-point"],
    ["-b", "8", "-e", "unsigned-integer"],
    ["-c", "2"],
    ["-r", "44100", "-c", "2", "-b", "24"],
    ["-r", "48000", "-b", "32", "-e", "floating-point"],
])
def test_every_shape_of_wav_reads_as_the_same_16k_mono_samples(
        tmp_path: Path, original: tuple[Path, np.ndarray], sox_args: list[str]) -> None:
    if shutil.which("sox") is None:
        pytest.skip("sox is needed (make test installs it)")
    src, pcm = original
    out = tmp_path / "converted.wav"
    subprocess.run(["sox", str(src), *sox_args, str(out)], check=True, capture_output=True)
    back = read_wav(out)
    assert abs(len(back) - len(pcm)) <= 2
    n = min(len(back), len(pcm))
    # 8 bits (steps of 256, dithered by sox) and resampling lose detail; the tone (±8000) and
    # its phase must come back
    tolerance = 700 if "8" in sox_args else 120
    assert np.percentile(np.abs(back[200:n - 200].astype(int) - pcm[200:n - 200]), 99) < tolerance


def _riff(*chunks: tuple[bytes, bytes]) -> bytes:
    body = b"WAVE" + b"".join(tag + len(data).to_bytes(4, "little") + data + b"\0" * (len(data) & 1)
                              for tag, data in chunks)
    return b"RIFF" + len(body).to_bytes(4, "little") + body


def _fmt(tag: int = 1, channels: int = 1, rate: int = 16000, bits: int = 16) -> bytes:
    width = bits // 8
    return b"".join(v.to_bytes(n, "little") for v, n in (
        (tag, 2), (channels, 2), (rate, 4), (rate * channels * width, 4), (channels * width, 2),
        (bits, 2)))


def test_odd_sized_chunks_before_the_data_are_skipped(tmp_path: Path) -> None:
    pcm = np.arange(-800, 800, 10, dtype=np.int16)
    path = tmp_path / "tagged.wav"
    path.write_bytes(_riff((b"fmt ", _fmt()), (b"LIST", b"INFOabc"), (b"data", pcm.tobytes())))
    assert np.array_equal(read_wav(path), pcm)


def test_a_recording_cut_short_reads_what_is_there(tmp_path: Path) -> None:
    pcm = np.arange(0, 3200, 2, dtype=np.int16)
    whole = _riff((b"fmt ", _fmt()), (b"data", pcm.tobytes()))
    path = tmp_path / "cut.wav"
    path.write_bytes(whole[: len(whole) - 1001])  # the last 500.5 samples never written
    assert np.array_equal(read_wav(path), pcm[: len(pcm) - 501])


@pytest.mark.parametrize(("content", "message"), [
    (b"ID3\x03 an mp3 file", "no RIFF/WAVE header"),
    (_riff((b"data", b"\0\0")), "no format chunk"),
    (_riff((b"fmt ", _fmt())), "no data chunk"),
    (_riff((b"fmt ", _fmt(tag=0x55)), (b"data", b"\0" * 8)), "not PCM or float audio"),
    (_riff((b"fmt ", _fmt(bits=40)), (b"data", b"\0" * 10)), "40 bits"),
    (_riff((b"fmt ", _fmt(tag=3, bits=16)), (b"data", b"\0" * 8)), "float sample size of 16 bits"),
    (_riff((b"fmt ", _fmt(channels=0)), (b"data", b"\0" * 8)), "0 channels"),
    (_riff((b"fmt ", _fmt(bits=0)), (b"data", b"\0" * 8)), "unsupported sample size of 0 bits"),
    (_riff((b"fmt ", _fmt(tag=3, bits=0)), (b"data", b"\0" * 8)), "float sample size of 0 bits"),
    (_riff((b"fmt ", _fmt(rate=1_000_000)), (b"data", b"\0" * 8)), "at most 768000 Hz"),
    (_riff((b"fmt ", _fmt(channels=64)), (b"data", b"\0" * 8)), "less than one frame of 64 channels"),
])
def test_a_broken_file_is_named_with_what_is_wrong(tmp_path: Path, content: bytes,
                                                   message: str) -> None:
    path = tmp_path / "party.wav"
    path.write_bytes(content)
    with pytest.raises(NotAWavFile, match=f"party.wav .*{message}"):
        read_wav(path)


def test_a_missing_file_and_a_folder_are_named(tmp_path: Path) -> None:
    with pytest.raises(NotAWavFile, match="gone.wav does not exist"):
        read_wav(tmp_path / "gone.wav")
    with pytest.raises(NotAWavFile, match="is a folder"):
        read_wav(tmp_path)


@pytest.mark.parametrize("rate", [44100, 48000, 96000])
def test_a_lone_sample_at_a_high_rate_reads_as_one_sample(tmp_path: Path, rate: int) -> None:
    # resampled to 16 kHz it rounds to no sample at all: the FFT was asked for 0 points
    path = tmp_path / "click.wav"
    path.write_bytes(_riff((b"fmt ", _fmt(rate=rate)), (b"data", (4096).to_bytes(2, "little"))))
    assert len(read_wav(path)) == 1
