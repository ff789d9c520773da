"""The enrolment benchmark judges every mode of a file on embeddings computed once: the kept
answers must give exactly what the spotter gives on its own, with or without a table's toasts."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from speech_clips import say  # noqa: E402

from bench.enrol_bench import ACCENT_VOICES, MODES, _Memo  # noqa: E402
from hardware.speech.enrol import Enrolment, make_template  # noqa: E402
from hardware.speech.spotter import SpotterEngine  # noqa: E402


def test_kept_embeddings_judge_every_mode_as_the_spotter_does(tmp_path):
    engine = SpotterEngine()
    cheers = say(tmp_path, "flite", "kal", "cheers")
    salud = say(tmp_path, "flite", "kal", "sah lude")
    table = Enrolment([make_template(engine, cheers, "cheers"), make_template(engine, salud, "salud")])
    clip = np.concatenate([salud, cheers])
    plain = {}
    for name, enrolment in (("none", None), ("table", table)):
        engine.enrolment = enrolment
        plain[name] = [(h.toast, h.end) for h in engine.classify(clip)]
    engine.embedder = memo = _Memo(engine.embedder)
    for _ in range(2):  # the second time every embedding comes from what was kept
        for name, enrolment in (("none", None), ("table", table)):
            engine.enrolment = enrolment
            assert [(h.toast, h.end) for h in engine.classify(clip)] == plain[name]
    assert memo.kept and plain["none"]
    # the enrolment clips are learned through the memo too, as the benchmark's workers do
    again = make_template(engine, cheers, "cheers")
    assert np.array_equal(again.features, table.templates[0].features)


def test_dev_and_held_out_voices_never_mix():
    dev = {v for v, _, _, split in ACCENT_VOICES if split == "dev"}
    held = {v for v, _, _, split in ACCENT_VOICES if split == "report"}
    assert len(dev) == 10 and len(held) == 6 and not dev & held
    assert [m for m, _, _ in MODES][0] == "none"
