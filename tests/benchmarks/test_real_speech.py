"""The spotter's false accepts on real recordings: every fire counts, per minute of audio."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from bench import real_speech
from hardware.speech.audio import write_wav

RATE = 16000


def _quiet(seconds: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(int(seconds * RATE)) * 32768 * 10 ** (-65 / 20)).astype(np.int16)


def test_every_fire_in_every_file_is_counted_per_minute(tmp_path: Path, monkeypatch) -> None:
    quiet = tmp_path / "quiet.wav"
    write_wav(quiet, _quiet(30.0, 1))
    monkeypatch.setattr(real_speech, "recordings", lambda: [quiet, quiet])
    out = tmp_path / "real.json"
    keys = real_speech.run(out)
    report = json.loads(out.read_text())
    assert report["seconds"] == 60.0 and [f["file"] for f in report["files"]] == ["quiet.wav"] * 2
    assert keys["speech_real"] == {"fires": report["fires"], "seconds": 60.0}
    assert keys["speech_real_fires_per_min"] == report["fires"] / 1.0 == 0


def test_no_recordings_is_an_error_that_says_what_to_install(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(real_speech, "recordings", lambda: [])
    with pytest.raises(RuntimeError, match="pip install moonshine-voice"):
        real_speech.run(tmp_path / "real.json")


def test_the_recordings_are_found_where_the_wheel_is_installed() -> None:
    if importlib.util.find_spec("moonshine_voice") is None:
        pytest.skip("the recordings are in make bench's voices extra")
    names = [p.name for p in real_speech.recordings()]
    assert names == list(real_speech.RECORDINGS)
