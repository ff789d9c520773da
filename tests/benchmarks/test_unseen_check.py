"""The acceptance check's claims (bench.unseen_check.judge_claims): files judged as a game
judges a claim, each toast expected in turn, on real synthesized speech (not the reserved
voices, which only the check itself may hear)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.corpus import write_wav
from bench.spotter_data import CLASSES
from bench.unseen_check import judge_claims
from hardware.speech.audio import read_wav
from tests.hardware.speech_clips import RATE, say

SAID = {"cheers": "cheers", "kanpai": "kahn pie"}
OTHERS = ("hello", "pass the crisps please")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    root = tmp_path_factory.mktemp("unseen")
    rows = []
    for i, (toast, text) in enumerate([*SAID.items(), *((None, t) for t in OTHERS)]):
        pcm = say(root, "flite", "rms", text)
        rel = f"flite-rms/{i:04d}-clean.wav"
        write_wav(root / rel, pcm / 32767)
        rows.append({"file": rel, "voice": "flite-rms", "text": text, "toast": toast,
                     "cond": "clean"})
    return root, rows


def test_each_toast_expected_in_turn_is_judged_on_its_clips_and_everyone_elses(
        corpus: tuple[Path, list[dict[str, Any]]]) -> None:
    root, rows = corpus
    out = judge_claims(root, rows, "spotter-en")
    assert set(out) == {"now", "expecting"}
    for name in ("now", "expecting"):
        r = out[name]
        # two toasts were said, one clip each: each is right or wrong, the rest have no clip
        assert r["per_toast_clean"]["cheers"] in (0.0, 1.0)
        assert r["per_toast_clean"]["kanpai"] in (0.0, 1.0)
        assert all(r["per_toast_clean"][t] is None for t in CLASSES if t not in SAID)
        assert r["right_10db"] is None  # no noisy clip in this corpus
        assert 0.0 <= r["false_accept"] <= 1.0
    # flite's "rms" voice is one of the benchmark's report voices, which no fit heard: its
    # cheers and kahn pie are heard (tests/hardware/test_speech_spotter.py), claim or no claim
    assert out["now"]["right_clean"] == out["expecting"]["right_clean"] == 1.0
    # the cheers clip is no kanpai claim, nor the kanpai clip a cheers claim
    assert not any(k.startswith(("cheers -> kanpai", "kahn pie -> cheers"))
                   for k in out["expecting"]["false_accepts"])


def test_a_clip_heard_as_the_expected_toast_is_a_false_accept_named_by_its_words(
        corpus: tuple[Path, list[dict[str, Any]]]) -> None:
    root, rows = corpus
    # the kanpai clip, labelled as talk: every claim of kanpai it wins is a false accept
    relabelled = [dict(r, toast=None) if r["toast"] == "kanpai" else r for r in rows]
    out = judge_claims(root, relabelled, "spotter-en")["now"]
    assert out["false_accepts"].get("kahn pie -> kanpai") == 1
    # at least that one fire among the kanpai claim's four other clips, averaged over six toasts
    assert out["false_accept"] >= round(1 / len(rows) / 6, 4)
    # and with the clip labelled as the toast it is, that fire is a right claim, no false accept
    assert "kahn pie -> kanpai" not in judge_claims(root, rows, "spotter-en")["now"]["false_accepts"]
    assert read_wav(root / rows[0]["file"]).size > RATE // 2
