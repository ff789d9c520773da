"""The synthesizers' voices of the benchmarks and the spotter's recipe: festival's quirks."""

from __future__ import annotations

import shutil
import wave
from pathlib import Path

import pytest

from bench.voices import Voice, festival_encoding

needs_festival = pytest.mark.skipif(shutil.which("text2wave") is None,
                                    reason="festival is installed by `make bench`")


def test_each_festival_voice_reads_its_languages_character_set() -> None:
    assert festival_encoding("czech_dita") == "iso-8859-2"
    assert festival_encoding("suo_fi_lj_diphone") == "iso-8859-1"
    assert festival_encoding("upc_ca_ona_hts") == "iso-8859-1"
    assert festival_encoding("pc_diphone") == "iso-8859-1"
    assert festival_encoding("kal_diphone") == "utf-8"
    assert festival_encoding("hindi_NSK_diphone") == "utf-8"


def test_a_word_a_festival_voice_cannot_write_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pc_diphone.*iso-8859-1.*Čin"):
        Voice("it", "festival", "festival", "pc_diphone").say("Čin čin", tmp_path / "x.wav")


@needs_festival
def test_a_festival_voice_that_says_nothing_is_an_error_not_a_missing_file(tmp_path: Path
                                                                            ) -> None:
    # (as the Hindi voice did without Debian's festival-hi: exit status 0, no file)
    with pytest.raises(RuntimeError, match="no_such_voice said nothing"):
        Voice("x", "festival", "festival", "no_such_voice").say("cheers", tmp_path / "x.wav")


def _seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


@needs_festival
def test_a_czech_voice_says_its_words_rather_than_spelling_their_bytes(tmp_path: Path) -> None:
    czech = Voice("cs", "festival", "festival", "czech_dita")
    if not czech.available():
        pytest.skip("festival's Czech voice is not installed")
    czech.say("Čin čin", tmp_path / "toast.wav")
    czech.say("Cin cin", tmp_path / "plain.wav")
    # read as UTF-8 the two háčeks became symbols said aloud: 2.2 s against 0.9
    assert _seconds(tmp_path / "toast.wav") < 1.3 * _seconds(tmp_path / "plain.wav")
