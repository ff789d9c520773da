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
from hardware.speech.enrol import MAX_COPIES, Enrolment, EnrolRefused, Template, make_template, noisy_copy
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
    x, _ = spotter.windows(cheers)
    dim = spotter.net.features(x[:1]).shape[1]
    # the clip as said and the box's own noisy copies: unit-length rows of the networks' features
    assert t.toast == "cheers" and 2 <= len(t.features) <= MAX_COPIES and t.features.shape[1] == dim
    assert np.allclose(np.linalg.norm(t.features, axis=1), 1.0, atol=1e-3)
    assert float(t.features[0] @ t.features[-1]) < 0.999  # the noise changed what was heard
    again = Template.from_dict(json.loads(json.dumps(t.to_dict())))
    assert again.toast == t.toast and np.array_equal(again.features, t.features)


def test_the_noisy_copy_is_the_clip_under_pink_noise_at_10_db_the_same_every_time(cheers):
    spans = [(8000, len(cheers) - 8000)]
    a, b = noisy_copy(cheers, spans), noisy_copy(cheers, spans)
    assert np.array_equal(a, b) and a.dtype == np.int16 and len(a) == len(cheers)
    speech = cheers[8000: len(cheers) - 8000].astype(np.float64)
    noise = (a.astype(np.float64) - cheers)[8000: len(cheers) - 8000]
    snr = 10 * np.log10(np.mean(speech ** 2) / np.mean(noise ** 2))
    assert 8.0 < snr < 14.0  # active power counts the loud frames only: a little over 10 dB


def test_a_template_of_another_kind_or_shape_is_refused_by_name():
    with pytest.raises(ValueError, match="older kind"):
        Template.from_dict({"toast": "cheers", "mel": [[0.0] * 32] * 10, "hidden": [1.0]})
    with pytest.raises(ValueError, match="wrong shape"):
        Template.from_dict({"toast": "cheers", "features": [[0.1] * 16] * (MAX_COPIES + 1)})
    with pytest.raises(ValueError, match="wrong shape"):
        Template.from_dict({"toast": "cheers", "features": [float("nan")] * 16})


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


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def test_enrolment_keeps_at_most_four_clips_per_toast_the_intro_clip_last_to_go():
    e = Enrolment()
    f = np.ones((2, 16), np.float32)
    e.add(Template.of("salud", f, "intro"))
    for _ in range(5):
        e.add(Template.of("salud", f, "confirmed"))
    assert len(e) == 4 and [t.source for t in e.templates].count("intro") == 1
    e.load([t.to_dict() for t in e.templates[:2]])
    assert len(e) == 2


TOASTS = ("prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie")
DIM = 64


def _table(rng: np.random.Generator) -> tuple[Enrolment, np.ndarray, np.ndarray]:
    """Two taught toasts whose templates are random directions."""
    cheers, salud = _unit(rng.standard_normal(DIM)), _unit(rng.standard_normal(DIM))
    return Enrolment([Template.of("cheers", cheers), Template.of("salud", salud)]), cheers, salud


def _near(f: np.ndarray, rng: np.random.Generator, cos: float) -> np.ndarray:
    """A direction at about cosine ``cos`` to ``f``: the same toast heard a little differently."""
    other = rng.standard_normal(len(f))
    other = _unit(other - (other @ f) * f)
    return _unit(cos * f + np.sqrt(1 - cos ** 2) * other)


def _p(**toasts: float) -> np.ndarray:
    p = np.zeros(7, np.float32)
    for name, value in toasts.items():
        p[TOASTS.index(name.replace("_", " ")) + 1] = value
    p[0] = 1 - p.sum()
    return p


def test_a_taught_toast_the_network_does_not_fire_is_heard_when_its_template_matches_clearly():
    rng = np.random.default_rng(1)
    e, cheers, salud = _table(rng)
    assert e.decide(0, _p(cheers=0.2), _near(cheers, rng, 0.97), TOASTS) == 2
    # not close enough, or no clearer than the table's other toast: not heard
    assert e.decide(0, _p(cheers=0.2), _near(cheers, rng, e.min_similarity - 0.05), TOASTS) == 0
    both = _unit(cheers + salud)
    alike = Enrolment([e.templates[0], Template.of("salud", _near(cheers, rng, 0.99))])
    assert alike.decide(0, _p(cheers=0.2), _near(cheers, rng, 0.97), TOASTS) == 0
    assert e.decide(0, _p(cheers=0.2), both, TOASTS) == 0
    # the network with no inkling of it (under min_probability): not heard either
    assert e.decide(0, _p(cheers=e.min_probability / 3), _near(cheers, rng, 0.97), TOASTS) == 0
    # the best copy counts: a template whose noisy copy matches is heard
    noisy = _unit(rng.standard_normal(DIM))
    two = Enrolment([Template.of("cheers", np.stack([cheers, noisy])), Template.of("salud", salud)])
    assert two.decide(0, _p(cheers=0.2), _near(noisy, rng, 0.97), TOASTS) == 2


def test_an_unsure_network_firing_of_a_taught_toast_needs_its_template_to_agree():
    rng = np.random.default_rng(3)
    e, cheers, salud = _table(rng)
    sure, unsure = (e.sure_probability + 1) / 2, e.sure_probability - 0.2
    # sure: fired whatever the templates say
    assert e.decide(2, _p(cheers=sure), _near(salud, rng, 0.97), TOASTS) == 2
    # unsure: fired if it sounds like this table's cheers, not if it sounds like its salud
    assert e.decide(2, _p(cheers=unsure), _near(cheers, rng, e.agree_similarity + 0.1), TOASTS) == 2
    assert e.decide(2, _p(cheers=unsure), _near(cheers, rng, e.agree_similarity - 0.1), TOASTS) == 0
    assert e.decide(2, _p(cheers=unsure), _near(salud, rng, 0.97), TOASTS) == 0
    assert e.decide(2, _p(cheers=unsure), _unit(rng.standard_normal(DIM)), TOASTS) == 0
    # a toast nobody taught keeps the network's word
    assert e.decide(4, _p(kanpai=0.45), _near(salud, rng, 0.97), TOASTS) == 4


def test_one_taught_toast_alone_is_not_used_and_the_network_decides():
    rng = np.random.default_rng(2)
    cheers = _unit(rng.standard_normal(DIM))
    e = Enrolment([Template.of("cheers", cheers)])
    assert not e.in_use()
    assert e.decide(0, _p(cheers=0.3), cheers, TOASTS) == 0
    assert e.decide(2, _p(cheers=0.45), _unit(rng.standard_normal(DIM)), TOASTS) == 2


def test_templates_of_a_spotter_of_another_shape_are_left_out():
    rng = np.random.default_rng(5)
    e, cheers, _ = _table(rng)
    assert e.similarities(_unit(rng.standard_normal(DIM + 8)), TOASTS).max() == -1
    assert e.decide(2, _p(cheers=0.45), _unit(rng.standard_normal(DIM + 8)), TOASTS) == 2


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
    threads: list[str] = []
    done = threading.Event()
    listener.start()
    try:
        for _ in range(6000):
            if listener._filled > 5 * RATE:
                break
            done.wait(0.02)
        t0 = listener.time_of(0)
        listener.learn_heard("cheers", t0 + 2.5, t0 + 2.5 + (len(cheers) - RATE) / RATE,
                             lambda toast, template, reason, clip: (
                                 results.append((toast, template, reason)),
                                 threads.append(threading.current_thread().name), done.set()))
        listener.learn_heard("cheers", t0 - 60.0, t0 - 59.0, lambda *a: results.append(a))  # long gone
        done.wait(600)  # only against a hang
    finally:
        listener.stop()
    assert len(results) == 1
    toast, template, reason = results[0]
    assert toast == "cheers" and reason is None and isinstance(template, Template)
    assert template.source == "confirmed"
    # learned off the listener's worker: the next toast's verdict does not wait for it
    assert threads[0].startswith("mic-learner")


def test_classify_may_judge_as_if_a_card_waited_for_a_toast(tmp_path, cheers, capsys):
    import io

    from controller.speech_cli import classify_main
    from hardware.speech.audio import write_wav

    clip = tmp_path / "cheers.wav"
    write_wav(clip, cheers)
    out = io.StringIO()
    # a card waiting for Kanpai still hears the Cheers that was said (a wrong word, in a game)
    assert classify_main([str(clip), "--engine", "spotter", "--expect", "Kanpai!"], out) == 0
    assert json.loads(out.getvalue())["toast"] == "cheers"
    with pytest.raises(SystemExit):
        classify_main([str(clip), "--engine", "spotter", "--expect", "hello"], io.StringIO())
    assert "--expect ['hello']: expected toasts" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        classify_main([str(clip), "--engine", "pocketsphinx", "--expect", "cheers"], io.StringIO())
    assert "--expect needs the toast spotter" in capsys.readouterr().err
