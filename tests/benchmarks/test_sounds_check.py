"""Strings of beeps among the party's sounds, and the spotter measured on sounds no fit heard
(bench.sounds_check)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench import sounds_check
from bench.party_sounds import KINDS, NAMES, sound
from hardware.speech.audio import RATE


def _bursts(x: np.ndarray) -> list[tuple[int, int]]:
    """The runs of sound in ``x`` (samples above 1 % of the peak, split by 20 ms of quiet)."""
    loud = np.abs(x) > 0.01 * np.max(np.abs(x))
    runs: list[tuple[int, int]] = []
    for i in np.flatnonzero(loud):
        if runs and i - runs[-1][1] <= RATE // 50:
            runs[-1] = (runs[-1][0], int(i))
        else:
            runs.append((int(i), int(i)))
    return runs


@pytest.mark.parametrize("name", [f"chirps {n}" for n in (1, 7, 12, 24, 101, 146)])
def test_a_string_of_beeps_is_one_to_four_short_beeps(name: str) -> None:
    x = sound(name)
    assert np.array_equal(x, sound(name)) and 0.45 < float(np.max(np.abs(x))) <= 0.5
    bursts = _bursts(x)
    assert 1 <= len(bursts) <= 4
    assert all(0.04 * RATE < b - a < 0.42 * RATE for a, b in bursts)


def test_strings_of_beeps_differ_in_number_pitch_and_length() -> None:
    counts = {len(_bursts(sound(f"chirps {n}"))) for n in range(1, 25)}
    assert counts == {1, 2, 3, 4}
    assert len({len(sound(f"chirps {n}")) for n in range(1, 25)}) == 24


def test_the_sounds_measured_are_none_the_spotter_was_fitted_on() -> None:
    assert not set(sounds_check.HELD_OUT) & set(NAMES)
    kinds = {n.split()[0] for n in sounds_check.HELD_OUT}
    assert kinds == {n.split()[0] for n in NAMES} | {"chirps"} == set(KINDS)
    with pytest.raises(ValueError, match=r"fitted on cannot measure it: \['tone 250'\]"):
        sounds_check.run(Path("unused.json"), names=("tone 300", "tone 250"))


def test_every_fire_on_a_sound_is_counted(tmp_path: Path) -> None:
    out = tmp_path / "sounds.json"
    names = ("chirps 146", "chirps 128", "tone 300", "sweep 4")
    keys = sounds_check.run(out, names=names)
    report = json.loads(out.read_text())
    assert report["clips"] == 8
    assert keys["speech_sounds_false_accept"] == report["false_accept"] == round(
        len(report["fired"]) / 8, 3)
    assert sum(report["fired_as"].values()) == len(report["fired"])
    assert {f["sound"] for f in report["fired"]} <= set(names)
    assert report["fired_by_kind"].keys() == {"chirps", "tone", "sweep"}


def test_an_unknown_kind_of_sound_names_every_kind_there_is() -> None:
    with pytest.raises(ValueError, match=r"unknown sound 'kazoo 3': kinds are \['tone', .*'chirps'\]"):
        sound("kazoo 3")
