"""Enrolment: a player's own toast learned as a template (numbers, exact once journaled), refused
with a reason when the clip cannot teach, and used by the toast spotter; the live listener learns
from the next stretch of speech."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest
from speech_clips import RATE, floor_noise, say

from hardware.speech.capture import Listener
from hardware.speech.enrol import Enrolment, EnrolRefused, Template, dtw_end_costs, make_template
from hardware.speech.file_mic import FileMicrophone


@pytest.fixture(scope="module")
def spotter():
    from hardware.speech.spotter import SpotterEngine

    return SpotterEngine()


@pytest.fixture(scope="module")
def cheers(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    return say(tmp_path_factory.mktemp("enrol"), "flite", "kal", "cheers")


def test_a_clear_toast_is_learned_as_numbers_that_survive_the_journal_exactly(spotter, cheers):
    t = make_template(spotter, cheers, "cheers")
    assert t.toast == "cheers" and t.mel.shape[1] == 32 and len(t.mel) >= 20
    again = Template.from_dict(json.loads(json.dumps(t.to_dict())))
    assert again.toast == t.toast and np.array_equal(again.mel, t.mel) and np.array_equal(again.hidden, t.hidden)


def test_a_clip_heard_as_another_toast_is_refused_with_the_reason(spotter, cheers):
    with pytest.raises(EnrolRefused, match="heard cheers, not salud"):
        make_template(spotter, cheers, "salud")


def test_a_clip_that_clips_is_refused(spotter, cheers):
    loud = np.clip(cheers.astype(np.int32) * 40, -32768, 32767).astype(np.int16)
    with pytest.raises(EnrolRefused, match="too loud"):
        make_template(spotter, loud, "cheers")


def test_a_clip_without_speech_is_refused(spotter):
    with pytest.raises(EnrolRefused, match="no speech"):
        make_template(spotter, floor_noise(2.0, 4), "cheers")


def test_warping_finds_a_template_where_it_ends_in_a_longer_stretch():
    rng = np.random.default_rng(0)
    template = rng.standard_normal((20, 32)).astype(np.float32)
    query = np.concatenate([rng.standard_normal((30, 32)), np.repeat(template, 2, axis=0)[::2],
                            rng.standard_normal((5, 32))]).astype(np.float32)
    costs = dtw_end_costs(template, query)
    assert int(np.argmin(costs)) == 49 and costs[49] < 0.01
    assert costs[10] > 1.0


def test_enrolment_keeps_at_most_four_clips_per_toast_the_intro_clip_last_to_go():
    e = Enrolment()
    mel, hidden = np.zeros((10, 32), np.float32), np.ones(4, np.float32)
    e.add(Template.of("salud", mel, hidden, "intro"))
    for _ in range(5):
        e.add(Template.of("salud", mel, hidden, "confirmed"))
    assert len(e) == 4 and [t.source for t in e.templates].count("intro") == 1
    e.load([t.to_dict() for t in e.templates[:2]])
    assert len(e) == 2


def test_the_spotter_hears_a_learned_toast_and_forgets_it_with_its_enrolment(spotter, cheers):
    template = make_template(spotter, cheers, "cheers")
    spotter.enrolment = Enrolment([template])
    try:
        heard = [h.toast for h in spotter.classify(np.concatenate([floor_noise(1.0, 2), cheers]))]
    finally:
        spotter.enrolment = None
    assert heard == ["cheers"]


def test_the_listener_learns_from_the_next_stretch_of_speech(spotter, cheers, tmp_path):
    salud = say(tmp_path, "flite", "kal", "sah lude")
    mic = FileMicrophone(realtime=False)
    results: list[tuple[str, object, str | None]] = []
    done = threading.Event()

    def learned(toast, template, reason, clip):
        results.append((toast, template, reason))
        if template is not None:
            done.set()

    listener = Listener(spotter, lambda h: None, stream_factory=mic, stall_s=600)
    listener.learn("salud", learned)
    mic.play(cheers, at=2.5)  # the wrong toast first: refused, and the player says it again
    mic.play(salud, at=5.0)
    listener.start()
    try:
        end = time.monotonic() + 600  # only against a hang: a slow CPU takes as long as it needs
        while not done.is_set() and listener._filled <= 9 * RATE and time.monotonic() < end:
            done.wait(0.02)
    finally:
        listener.stop()
    assert [(toast, reason) for toast, _, reason in results] == [
        ("salud", "heard cheers, not salud: say salud again"), ("salud", None)]
    assert isinstance(results[-1][1], Template) and results[-1][1].toast == "salud"


def test_classify_enrols_clips_and_names_a_refused_one(tmp_path, cheers, capsys):
    import io

    from controller.speech_cli import classify_main
    from hardware.speech.audio import write_wav

    clip = tmp_path / "cheers.wav"
    write_wav(clip, cheers)
    out = io.StringIO()
    status = classify_main([str(clip), "--engine", "spotter", "--enrol", f"{clip}=cheers",
                            "--enrol", f"{clip}=Salud!"], out)
    err = capsys.readouterr().err
    assert status == 1
    assert f"enrolment clip {clip} refused: heard cheers, not salud" in err and "enrolled: 1 of 2" in err
    assert json.loads(out.getvalue())["toast"] == "cheers"
    with pytest.raises(SystemExit):
        classify_main([str(clip), "--engine", "pocketsphinx", "--enrol", f"{clip}=cheers"], io.StringIO())
    assert "needs the toast spotter" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        classify_main([str(clip), "--engine", "spotter", "--enrol", f"{clip}=hello"], io.StringIO())
    assert "expected WAV=TOAST" in capsys.readouterr().err


@pytest.mark.realtime
def test_the_listener_learns_a_toast_it_already_heard_from_its_ring(spotter, cheers):
    mic = FileMicrophone(realtime=True)  # the ring keeps the last 10 s of real time
    mic.play(cheers, at=2.0)
    listener = Listener(spotter, lambda h: None, stream_factory=mic, stall_s=600)
    results: list[tuple[str, object, str | None]] = []
    done = threading.Event()
    listener.start()
    try:
        for _ in range(6000):
            if listener._filled > 5 * RATE:
                break
            done.wait(0.02)
        t0 = listener.time_of(0)
        listener.learn_heard("cheers", t0 + 2.5, t0 + 2.5 + (len(cheers) - RATE) / RATE,
                             lambda toast, template, reason, clip: (results.append((toast, template, reason)),
                                                                    done.set()))
        listener.learn_heard("cheers", t0 - 60.0, t0 - 59.0, lambda *a: results.append(a))  # long gone
        done.wait(600)  # only against a hang
    finally:
        listener.stop()
    assert len(results) == 1
    toast, template, reason = results[0]
    assert toast == "cheers" and reason is None and isinstance(template, Template)
    assert template.source == "confirmed"
