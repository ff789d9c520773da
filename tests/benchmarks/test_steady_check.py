"""The steady-pitch veto judged on a voice family's files (bench.steady_check), and the clips
that measure and the second opinion's share (bench.spotter_data.judged_clips)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bench import steady_check
from bench.spotter_data import VOICES, held_out_babble, judged_clips

VOICE = next(v for v in VOICES if v.id == "espeak-de-150")


def test_a_voices_clips_are_its_measured_words_in_every_condition_the_same_each_time() -> None:
    babble = held_out_babble(12)
    first = list(judged_clips(VOICE, babble, limit=3))
    again = list(judged_clips(VOICE, babble, limit=3))
    assert len({u.text for u, _, _ in first}) == 3
    assert all(u.measured for u, _, _ in first)
    assert {c for _, c, _ in first} <= {"clean", "pink", "babble"}
    assert all(c == "babble" for u, c, _ in first if u.kind == "sentence")
    assert all(a[1] == b[1] and np.array_equal(a[2], b[2]) for a, b in zip(first, again))
    assert all(pcm.dtype == np.int16 and len(pcm) > 16000 for _, _, pcm in first)


def test_every_clip_is_judged_with_and_without_the_veto(tmp_path: Path) -> None:
    out = tmp_path / "steady.json"
    report = steady_check.run(out, workers=1, families=("espeak-europe",), limit=2,
                              voices=(VOICE.id,))
    assert json.loads(out.read_text()) == report
    fam = report["per_family"]["espeak-europe"]
    assert report["voices"] == [VOICE.id]
    assert report["clips"] == fam["toasts"] + fam["others"] > 0
    assert report["changed"] == len(fam["changed"])
    for key in ("accuracy_clean", "accuracy_10db", "false_accept"):
        assert fam[key] is None or 0.0 <= fam[key] <= 1.0


def test_no_voice_to_judge_is_named() -> None:
    with pytest.raises(ValueError, match="no voice of"):
        steady_check.run(Path("/nonexistent.json"), families=("no-such-family",))
