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


TOASTS = ("prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie")


def _table(rng: np.random.Generator) -> tuple[Enrolment, np.ndarray, np.ndarray]:
    """Two taught toasts whose templates are random mel frames, and a stretch of 'room' frames."""
    cheers = rng.standard_normal((30, 32)).astype(np.float32)
    salud = rng.standard_normal((30, 32)).astype(np.float32)
    hidden = np.ones(4, np.float32)
    e = Enrolment([Template.of("cheers", cheers, hidden), Template.of("salud", salud, hidden)])
    return e, cheers, salud


def _said(template: np.ndarray, rng: np.random.Generator, blur: float = 0.3) -> np.ndarray:
    """Room frames, then the template said again a little differently (what matching sees)."""
    return np.concatenate([rng.standard_normal((60, 32)),
                           template + blur * rng.standard_normal(template.shape)]).astype(np.float32)


def _p(**toasts: float) -> np.ndarray:
    p = np.zeros(7, np.float32)
    for name, value in toasts.items():
        p[TOASTS.index(name.replace("_", " ")) + 1] = value
    p[0] = 1 - p.sum()
    return p


def test_a_taught_toast_fires_only_when_it_matches_clearly_better_than_the_tables_other_toasts():
    rng = np.random.default_rng(1)
    e, cheers, salud = _table(rng)
    h = np.ones(4, np.float32)
    assert e.match(_said(cheers, rng), h, _p(cheers=0.2), TOASTS) == 2
    # the same sound said by a table whose salud is a look-alike of its cheers: not heard, since
    # it matches cheers no better than salud; with a salud unlike it, heard
    near = cheers + 0.08 * rng.standard_normal(cheers.shape).astype(np.float32)
    alike = Enrolment([e.templates[0], Template.of("salud", near, h)])
    said = _said(cheers, rng, 0.1)
    assert alike.match(said, h, _p(cheers=0.2), TOASTS) is None
    assert e.match(said, h, _p(cheers=0.2), TOASTS) == 2
    # nothing like any template: not heard
    assert e.match(rng.standard_normal((90, 32)).astype(np.float32), h, _p(cheers=0.3), TOASTS) is None
    # the network with no inkling of it (under min_probability): not heard either
    assert e.match(_said(cheers, rng), h, _p(cheers=0.001), TOASTS) is None


def test_a_taught_toast_that_matches_one_of_its_look_alike_words_as_well_is_not_heard():
    rng = np.random.default_rng(4)
    e, cheers, _ = _table(rng)
    h = np.ones(4, np.float32)
    said = _said(cheers, rng, 0.1)
    unlike = {"cheers": [rng.standard_normal((25, 32)).astype(np.float32)]}
    assert e.match(said, h, _p(cheers=0.2), TOASTS, unlike) == 2
    # "chairs" said the way this player says "cheers": the template is no clearer a match
    alike = {"cheers": [cheers + 0.05 * rng.standard_normal(cheers.shape).astype(np.float32)]}
    assert e.match(said, h, _p(cheers=0.2), TOASTS, alike) is None
    # a look-alike of another toast is no reason to refuse this one
    assert e.match(said, h, _p(cheers=0.2), TOASTS, {"salud": alike["cheers"]}) == 2


def test_the_shipped_look_alikes_cover_every_toast_and_none_is_a_benchmark_word(spotter):
    from bench.make_lookalikes import LOOKALIKES
    from bench.voices import DISTRACTOR_WORDS

    assert set(spotter.lookalikes) == set(spotter.toasts)
    assert all(len(ms) >= 8 and all(m.shape[1] == 32 and len(m) >= 5 for m in ms)
               for ms in spotter.lookalikes.values())
    assert not {w for ws in LOOKALIKES.values() for w in ws} & set(DISTRACTOR_WORDS)


def test_one_taught_toast_alone_is_not_used_and_the_network_keeps_its_own_threshold():
    rng = np.random.default_rng(2)
    cheers = rng.standard_normal((30, 32)).astype(np.float32)
    e = Enrolment([Template.of("cheers", cheers, np.ones(4, np.float32))])
    assert not e.in_use() and e.threshold_for("cheers", 0.6) == 0.6
    assert e.match(_said(cheers, rng), np.ones(4, np.float32), _p(cheers=0.3), TOASTS) is None


def test_with_the_templates_in_use_the_network_alone_needs_more_for_a_taught_toast():
    e, _, _ = _table(np.random.default_rng(3))
    assert e.in_use()
    assert e.threshold_for("cheers", 0.6) == e.sure_threshold > 0.6
    assert e.threshold_for("kanpai", 0.6) == 0.6  # not taught: the spotter's own threshold


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
