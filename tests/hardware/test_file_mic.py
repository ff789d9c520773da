"""The file-backed microphone: recordings heard by the real listener as if spoken in the room,
and only readable, bounded recordings played."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from speech_clips import RATE, floor_noise, say

from hardware.speech.audio import NotAWavFile, read_recording, write_wav
from hardware.speech.capture import Listener
from hardware.speech.file_mic import FileMicrophone
from hardware.speech.heard import Heard


@pytest.fixture(scope="module")
def spotter():
    from hardware.speech.spotter import SpotterEngine

    return SpotterEngine()


@pytest.fixture(scope="module")
def cheers(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    return say(tmp_path_factory.mktemp("filemic"), "flite", "kal", "cheers")


def hear(engine, mic: FileMicrophone, until_s: float) -> tuple[Listener, list[Heard]]:
    heard: list[Heard] = []
    got = threading.Event()

    def on_toast(h: Heard) -> None:
        heard.append(h)
        got.set()

    listener = Listener(engine, on_toast, stream_factory=mic, stall_s=60)
    listener.arm(0.0, float("inf"))
    listener.start()
    try:
        assert mic.wait_open(60)
        end = time.monotonic() + 600  # until the whole stream is taken in (a hang fails, never a slow CPU)
        while listener._filled < until_s * RATE and time.monotonic() < end:
            got.wait(0.02)
    finally:
        listener.stop()
    return listener, heard


def test_a_recording_played_at_a_stream_second_is_heard_there(spotter, cheers):
    mic = FileMicrophone(realtime=False)
    assert mic.play(cheers, at=2.0) == 2.0
    listener, heard = hear(spotter, mic, 2.0 + len(cheers) / RATE + 1.5)
    assert [h.toast for h in heard] == ["cheers"]
    # the clip starts at 2.0 s with 0.5 s of floor padding before the word, counted in samples
    assert 2.3 <= heard[0].start - listener.time_of(0) <= 2.8
    assert heard[0].end - listener.time_of(0) <= 2.0 + len(cheers) / RATE + 0.3


def test_the_room_between_recordings_is_a_quiet_floor_not_zeros():
    mic = FileMicrophone(realtime=False, seed=3)
    quiet = mic._render(0, 3200)
    rms_dbfs = 20 * np.log10(np.sqrt(np.mean(quiet.astype(float) ** 2)) / 32768)
    assert -67 < rms_dbfs < -63
    mic.play(np.full(100, 1000, np.int16), at=0.01)
    block = mic._render(0, 320)
    assert np.all(block[160:260] > 900) and np.abs(block[:160]).max() < 120


@pytest.mark.realtime
def test_in_real_time_a_recording_is_heard_at_its_place_on_the_monotonic_clock(spotter, cheers):
    mic = FileMicrophone(realtime=True)
    heard: list[Heard] = []
    listener = Listener(spotter, heard.append, stream_factory=mic, stall_s=60)
    listener.arm(0.0, float("inf"))
    listener.start()
    try:
        assert mic.wait_open(60)
        assert mic.t0 is not None
        at = mic.play(cheers, at=2.5)
        assert mic.wait_played(60)
        end = 2.5 + len(cheers) / RATE + 1.0
        for _ in range(6000):
            if listener._filled >= end * RATE:
                break
            threading.Event().wait(0.02)
    finally:
        listener.stop()
    assert [h.toast for h in heard] == ["cheers"]
    # the listener's times are the microphone's: sample 0 is t0
    assert abs(listener.time_of(0) - mic.t0) < 0.05
    assert mic.t0 + at + 0.3 <= heard[0].start <= mic.t0 + at + 0.8


def test_a_recording_queued_in_the_past_starts_with_the_next_block():
    mic = FileMicrophone(realtime=False)
    mic._played_to(16000)
    assert mic.play(np.zeros(10, np.int16), at=0.2) == 1.0


def test_only_regular_bounded_wav_files_are_read(tmp_path: Path, cheers):
    good = tmp_path / "cheers.wav"
    write_wav(good, cheers)
    assert len(read_recording(good)) == len(cheers)
    with pytest.raises(NotAWavFile, match="not a regular file"):
        read_recording("/dev/zero")
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)
    with pytest.raises(NotAWavFile, match=r"pipe\.wav is not a regular file"):
        read_recording(fifo)
    with pytest.raises(NotAWavFile, match="folder"):
        read_recording(tmp_path)
    with pytest.raises(NotAWavFile, match=r"missing\.wav does not exist"):
        read_recording(tmp_path / "missing.wav")
    with pytest.raises(NotAWavFile, match=r"cheers\.wav is .* MiB: recordings of at most"):
        read_recording(good, max_bytes=1000)
    with pytest.raises(NotAWavFile, match=r"cheers\.wav lasts .* s: recordings of at most 1 s"):
        read_recording(good, max_s=1.0)
    with pytest.raises(NotAWavFile, match=r"pipe\.wav is not a regular file"):
        FileMicrophone().play(tmp_path / "pipe.wav")


def test_a_stream_opened_at_another_rate_is_refused():
    with pytest.raises(ValueError, match="16000"):
        FileMicrophone()(8000, 160, lambda *a: None)


def test_silence_only_reports_nothing(spotter):
    mic = FileMicrophone(realtime=False)
    mic.play(floor_noise(1.0, 9), at=0.5)
    _, heard = hear(spotter, mic, 3.0)
    assert heard == []
