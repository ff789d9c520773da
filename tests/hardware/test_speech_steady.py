"""Beeps are not toasts: the held-pitch measure and the spotter's veto on it."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import pytest
from speech_clips import RATE, floor_noise, say

from bench.corpus import pink_noise
from bench.party_sounds import sound
from bench.real_speech import judged_clip
from hardware.speech.heard import SpeechModelError
from hardware.speech.lexicon import LEXICON_DIR
from hardware.speech.spotter import SpotterEngine
from hardware.speech.steady import steady_share


def _beeps(freqs: list[float], beep_s: float = 0.15, gap_s: float = 0.08) -> np.ndarray:
    parts = []
    for f in freqs:
        t = np.arange(int(beep_s * RATE)) / RATE
        parts += [0.3 * np.sin(2 * np.pi * f * t), np.zeros(int(gap_s * RATE))]
    return (np.concatenate(parts) * 32767).astype(np.int16)


def _with_pink(pcm: np.ndarray, snr_db: float, seed: int = 0) -> np.ndarray:
    noise = pink_noise(len(pcm), np.random.default_rng(seed))
    loud = pcm[np.abs(pcm) > 0].astype(np.float64)
    gain = np.sqrt(np.mean(loud ** 2) / np.mean(noise ** 2)) * 10 ** (-snr_db / 20)
    return np.clip(pcm + noise * gain, -32768, 32767).astype(np.int16)


def test_a_tune_of_beeps_holds_its_pitch() -> None:
    assert steady_share(_beeps([660, 880, 660, 990])) == 1.0


def test_beeps_in_pink_noise_at_10_db_still_hold_their_pitch() -> None:
    share = steady_share(_with_pink(_beeps([523, 523, 784]), 10.0))
    assert share is not None and share >= 0.7


def test_a_sweep_does_not_hold_its_pitch() -> None:
    t = np.arange(RATE) / RATE
    sweep = 0.3 * np.sin(2 * np.pi * (300 * t + 400 * t ** 2))  # 300 Hz gliding to 1100 Hz
    share = steady_share((sweep * 32767).astype(np.int16))
    assert share is not None and share < 0.2


@pytest.mark.parametrize(("synth", "voice", "text"), [
    ("flite", "slt", "chin chin"), ("flite", "kal", "prost"), ("espeak", "en-us", "cheers"),
    ("espeak", "de", "prost"), ("espeak", "en-us+f3", "kahn pie")])
def test_a_voice_glides_even_a_flat_synthesizer(tmp_path: Path, synth: str, voice: str,
                                                text: str) -> None:
    share = steady_share(say(tmp_path, synth, voice, text))
    # None: too few loud frames to tell (a short, clipped "Prost"), which vetoes nothing either
    assert share is None or share < 0.6, f"{voice} saying {text!r}: {share}"
    if synth == "flite":  # long enough to judge
        assert share is not None


def test_silence_or_a_stretch_too_short_has_no_verdict() -> None:
    assert steady_share(np.zeros(RATE, np.int16)) is None
    assert steady_share(_beeps([800], beep_s=0.05)) is None
    assert steady_share(np.zeros(0, np.int16)) is None


@pytest.fixture(scope="module")
def engine() -> SpotterEngine:
    return SpotterEngine()


def test_the_spotter_drops_a_string_of_beeps_it_would_take_for_a_toast(
        engine: SpotterEngine) -> None:
    # beeps that the networks alone take for "tchin tchin"
    clip = judged_clip(sound("chirps 4"), "clean", zlib.crc32(b"chirps 4 clean"))
    assert engine.steady_veto is not None
    assert engine.classify(clip) == []
    engine.steady_veto = None
    try:
        assert [h.toast for h in engine.classify(clip)] == ["tchin tchin"]
    finally:
        engine.steady_veto = SpotterEngine().steady_veto


def test_a_toast_said_after_a_beep_is_heard(engine: SpotterEngine, tmp_path: Path) -> None:
    toast = say(tmp_path, "flite", "rms", "cheers")
    clip = np.concatenate([_beeps([1000, 1000]), floor_noise(0.6), toast])
    assert [h.toast for h in engine.classify(clip)] == ["cheers"]


@pytest.mark.parametrize("veto", ["high", 0, 1.5, True])
def test_a_steady_veto_that_is_no_share_is_named(tmp_path: Path, veto: object) -> None:
    lex = json.loads((LEXICON_DIR / "spotter-en.json").read_text())
    lex["steady_veto"] = veto
    lex["weights"] = [str(LEXICON_DIR / w) for w in lex["weights"]]
    path = tmp_path / "spotter-en.json"
    path.write_text(json.dumps(lex))
    with pytest.raises(SpeechModelError, match="steady_veto"):
        SpotterEngine(path)
