"""PocketSphinx, the zero-download default, on real synthesized speech."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from speech_clips import RATE, floor_noise, say

from hardware.speech.audio import NotAWavFile, write_wav
from hardware.speech.heard import SpeechModelError
from hardware.speech.lexicon import LEXICON_DIR, TOAST_IDS, load_lexicon
from hardware.speech.pocketsphinx_engine import PocketSphinxEngine
from hardware.speech.select import recognise_file
from models.toasts import TOASTS

FLITE_TOASTS = {"cheers": "cheers", "tchin tchin": "chin chin", "salud": "sah lude",
                "kanpai": "kahn pie", "prost": "prost"}


@pytest.fixture(scope="module")
def engine() -> PocketSphinxEngine:
    return PocketSphinxEngine()


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    tmp = tmp_path_factory.mktemp("ps")
    said = {tid: say(tmp, "flite", "kal", text) for tid, text in FLITE_TOASTS.items()}
    said["hello"] = say(tmp, "flite", "kal", "hello")
    said["thank you"] = say(tmp, "flite", "kal", "thank you")
    return said


def test_hears_the_toasts_flite_says(engine: PocketSphinxEngine,
                                     clips: dict[str, np.ndarray]) -> None:
    right = 0
    for tid in FLITE_TOASTS:
        heard = engine.classify(clips[tid])
        assert len(heard) >= 1, f"no speech found in {tid!r}"
        assert all(h.toast in (None, tid) for h in heard), f"{tid!r} heard as {heard}"
        right += any(h.toast == tid for h in heard)
    assert right >= 4, f"only {right} of {len(FLITE_TOASTS)} toasts heard"


def test_other_words_are_no_toast(engine: PocketSphinxEngine,
                                  clips: dict[str, np.ndarray]) -> None:
    for word in ("hello", "thank you"):
        heard = engine.classify(clips[word])
        assert heard, f"no speech found in {word!r}"
        assert [h.toast for h in heard] == [None] * len(heard), f"{word!r} heard as {heard}"


def test_times_count_from_the_start_of_the_samples(engine: PocketSphinxEngine,
                                                   clips: dict[str, np.ndarray]) -> None:
    samples = np.concatenate([floor_noise(1.0, seed=7), clips["cheers"]])
    heard = engine.classify(samples)
    toast = next(h for h in heard if h.toast == "cheers")
    assert 1.4 <= toast.start <= 1.75  # 1 s extra + 0.5 s of padding before the word
    assert toast.start < toast.end <= len(samples) / RATE
    assert 0.0 < toast.confidence <= 1.0


def test_silence_is_no_speech(engine: PocketSphinxEngine) -> None:
    assert engine.classify(floor_noise(2.0)) == []


def test_recognise_file_reads_any_rate_and_channels(tmp_path: Path, engine: PocketSphinxEngine,
                                                    clips: dict[str, np.ndarray]) -> None:
    x = clips["cheers"].astype(np.float64)
    n = int(len(x) * 44100 / RATE)
    resampled = np.interp(np.arange(n) * RATE / 44100, np.arange(len(x)), x).astype(np.int16)
    stereo = np.stack([resampled, resampled], axis=1).reshape(-1)
    path = tmp_path / "cheers-44k-stereo.wav"
    import wave

    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        w.writeframes(stereo.tobytes())
    assert [h.toast for h in recognise_file(path, engine) if h.toast] == ["cheers"]


def test_recognise_file_names_a_file_that_is_no_wav(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.wav"
    bogus.write_text("not audio")
    with pytest.raises(NotAWavFile, match="notes.wav"):
        recognise_file(bogus, engine=None)


def test_every_lexicon_covers_exactly_the_six_toasts() -> None:
    assert set(TOAST_IDS) == set(TOASTS)
    for path in sorted(LEXICON_DIR.glob("*.json")):
        lex = load_lexicon(path)
        assert {e.toast for e in lex.entries} == set(TOASTS), path.name
        assert all(e.forms for e in lex.entries), path.name


def test_a_pronunciation_with_an_unknown_phone_is_named(tmp_path: Path) -> None:
    data = json.loads((LEXICON_DIR / "pocketsphinx-en.json").read_text())
    data["toasts"]["prost"]["pronunciations"] = ["P R QQ S T"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SpeechModelError, match="QQ"):
        PocketSphinxEngine(bad)


def test_a_lexicon_missing_a_toast_is_named(tmp_path: Path) -> None:
    data = json.loads((LEXICON_DIR / "pocketsphinx-en.json").read_text())
    del data["toasts"]["salud"]
    bad = tmp_path / "short.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SpeechModelError, match="salud"):
        load_lexicon(bad)


def test_write_then_read_keeps_the_samples(tmp_path: Path) -> None:
    from hardware.speech.audio import read_wav

    pcm = floor_noise(0.3, seed=3)
    write_wav(tmp_path / "x.wav", pcm)
    assert np.array_equal(read_wav(tmp_path / "x.wav"), pcm)


def test_the_second_opinion_names_what_won_the_stretch(engine: PocketSphinxEngine,
                                                       clips: dict[str, np.ndarray],
                                                       tmp_path: Path) -> None:
    def stretch(samples: np.ndarray) -> tuple[np.ndarray, int, int]:
        x, spans = engine.prepare(samples)
        return x, spans[0].start - engine.pad, spans[-1].end + engine.pad

    assert engine.winner(*stretch(clips["cheers"])) == ("toast", "cheers")
    # a look-alike word is won by its own entry or by the phone loop (which, depends on what
    # the decoder heard before: its cepstral mean follows the room), never by a toast
    kind, toast = engine.winner(*stretch(say(tmp_path, "flite", "kal", "cheese")))
    assert toast is None and kind in ("near miss", "phones")
    quiet = floor_noise(0.5).astype(np.float32) / 32768
    assert engine.winner(quiet, 0, len(quiet))[1] is None
