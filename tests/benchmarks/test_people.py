"""Real people's recordings (bench.people) and the spotter measured on those no fit heard.

The recordings come from Debian's klettres-data and gcin-voice (make bench installs them); these
tests lay out folders of the same shape with short Ogg Vorbis files made by sox, so they run
without either package."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bench import people, real_speech
from bench.spotter_data import VOICES, utterances_for
from hardware.speech.audio import RATE


def _ogg(path: Path, seconds: float, freq: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["sox", "-R", "-n", "-r", "44100", "-c", "1", str(path), "synth",
                    str(seconds), "sine", str(freq), "vol", "0.3"], check=True, capture_output=True)


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A KLettres tree with Spanish (12 syllables) and a gcin tree with the spliced toasts'
    syllables for speaker 3 only, and a few others for both."""
    kl, gc = tmp_path / "klettres", tmp_path / "gcin"
    for i, syl in enumerate(("ba", "be", "bi", "bo", "bu", "ca", "ce", "ci", "co", "cu", "sa",
                             "lu")):
        _ogg(kl / "es" / "syllab" / f"{syl}.ogg", 0.2 + 0.01 * i, 300 + 20 * i)
    for i, syl in enumerate(("ㄎㄢ4", "ㄆㄞ4", "ㄆㄞ2", "ㄑㄧㄣ4", "ㄑㄧㄣ2")):
        _ogg(gc / syl / "3.ogg", 0.25, 250 + 30 * i)
    for i, syl in enumerate(("ㄅㄚ", "ㄅㄚ2", "ㄇㄚ", "ㄇㄚ3", "ㄋㄧ", "ㄋㄧ3", "ㄏㄠ", "ㄏㄠ3", "ㄉㄚ",
                             "ㄉㄚ4", "ㄍㄜ")):
        for who in ("3", "5"):
            _ogg(gc / syl / f"{who}.ogg", 0.2, 400 + 25 * i)
    monkeypatch.setattr(people, "KLETTRES", kl)
    monkeypatch.setattr(people, "GCIN", gc)
    people.load.cache_clear()
    return kl, gc


@pytest.fixture
def talk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A KTuberling tree (Danish names in Ogg Vorbis, French in WAV, Nynorsk in Opus) and a
    Fish Fillets tree of Dutch lines in two levels, with a grunt and an empty file."""
    kt, ff = tmp_path / "ktuberling", tmp_path / "fillets"
    for d in ("fr", "nn"):
        (kt / d).mkdir(parents=True)
    for i, name in enumerate(("moon_ufo", "tv_tree", "tie", "hat", "nose", "eye", "sloejfe",
                              "pizza_ananas", "skirt", "bow", "egypt_well")):
        _ogg(kt / "da" / f"{name}.ogg", 0.3 + 0.02 * i, 300 + 15 * i)
        subprocess.run(["sox", "-R", "-n", "-r", "22050", "-c", "1", "-b", "16",
                        str(kt / "fr" / f"{name}.wav"), "synth", "0.4", "sine", "500", "vol",
                        "0.3"], check=True, capture_output=True)
        (kt / "nn" / f"{name}.opus").write_bytes(b"OggS")
    for level in ("cave", "keys"):
        for i in range(6):
            _ogg(ff / level / "nl" / f"{level[:3]}-m-line{i}.ogg", 1.0 + 0.1 * i, 200 + 30 * i)
        _ogg(ff / level / "nl" / f"{level[:3]}-x-grunt.ogg", 0.5, 900)
        _ogg(ff / level / "cs" / f"{level[:3]}-v-radek.ogg", 1.0, 330)
    (ff / "cave" / "nl" / "cav-v-empty.ogg").write_bytes(b"OggS" + bytes(100))
    monkeypatch.setattr(people, "KTUBERLING", kt)
    monkeypatch.setattr(people, "FILLETS", ff)
    people.load.cache_clear()
    return kt, ff


def test_talking_people_are_their_words_and_lines_not_grunts_or_empty_files(talk) -> None:
    assert [p.name for p in people.recordings("ktuberling-fr")][:2] == ["bow.wav", "egypt_well.wav"]
    assert len(people.recordings("ktuberling-da")) == 11
    assert not people.available("ktuberling-nn")  # Opus: sox cannot read it
    lines = people.recordings("fillets-nl")
    assert len(lines) == 12 and all("-m-" in p.name for p in lines)
    assert [p.name for p in people.recordings("fillets-cs")] == ["cav-v-radek.ogg",
                                                                  "key-v-radek.ogg"]
    words = people.strings("ktuberling-fr", 10)
    assert words == people.strings("ktuberling-fr", 10)
    for text in words:
        assert 1 <= len(text.split()) <= 3 and all(w.endswith(".wav") for w in text.split())
        assert len(people.say("ktuberling-fr", text)) >= int(0.3 * RATE) * len(text.split())
    said = people.strings("fillets-nl", 50)
    assert len(said) == 12 == len(set(said))  # each line at most once
    assert all(len(t.split()) == 1 for t in said)
    assert len(people.say("fillets-nl", "cave/nl/cav-m-line0")) == pytest.approx(RATE, abs=400)
    with pytest.raises(ValueError, match="unknown speaker 'fillets'"):
        people.recordings("fillets")


def test_the_talking_people_are_split_once_and_only_one_side_is_fitted(talk) -> None:
    assert not set(people.TALK_FITTED) & set(people.TALK_HELD_OUT)
    langs = {s.removeprefix("ktuberling-") for s in people.TALK_FITTED
             + people.TALK_HELD_OUT if s.startswith("ktuberling-")}
    assert langs == set(people.KTUBERLING_LANGS)
    assert "fillets-nl" in people.TALK_HELD_OUT and "fillets-cs" in people.TALK_FITTED
    fitted = {v.person for v in VOICES if v.family == "people"}
    assert set(people.TALK_FITTED) <= fitted and not fitted & set(people.TALK_HELD_OUT)
    lines = [v for v in VOICES if v.person == "fillets-cs"][0]
    assert len({v.id for v in VOICES}) == len(VOICES)  # KTuberling's fr is not KLettres's fr
    assert all(u.label == 0 and u.train for u in utterances_for(lines))
    # the fixture's two Czech lines, each said once, however many lines a dub may give
    assert sorted(u.text for u in utterances_for(lines)) == ["cave/cs/cav-v-radek",
                                                             "keys/cs/key-v-radek"]
    assert people.says_lines("fillets-cs") and not people.says_lines("ktuberling-fr")
    assert not people.says_lines("klettres-es")


def test_the_fitted_and_held_out_speakers_never_meet_and_cover_every_language() -> None:
    langs = {lang for g in people.GROUPS for lang in g}
    assert not set(people.FITTED) & set(people.HELD_OUT)
    assert {s.removeprefix("klettres-") for s in people.FITTED + people.HELD_OUT
            if s.startswith("klettres-")} == langs
    # close kin on one side: a held-out language's kin is never fitted
    assert {"klettres-ru", "klettres-uk"} <= set(people.FITTED)
    assert {"klettres-en", "klettres-en_GB"} <= set(people.FITTED)
    assert {"gcin-3", "gcin-5"} <= set(people.HELD_OUT)


def test_only_fitted_speakers_are_training_voices_and_they_say_no_toast() -> None:
    voices = [v for v in VOICES if v.family == "people"]
    assert sorted(v.person for v in voices) == sorted(people.FITTED + people.TALK_FITTED)
    for v in voices:
        assert v.person not in people.HELD_OUT
        assert all(u.label == 0 and u.train for u in utterances_for(v))


def test_strings_are_the_speakers_own_recordings_the_same_every_time(folders) -> None:
    a = people.strings("klettres-es", 20)
    assert a == people.strings("klettres-es", 20)
    assert a != people.strings("klettres-es", 20, seed=1)
    names = {p.stem for p in people.recordings("klettres-es")}
    for text in a:
        parts = text.split()
        assert 1 <= len(parts) <= 4 and len(set(parts)) == len(parts)
        assert all(p.startswith("es/syllab/") and p.rsplit("/", 1)[1] in names for p in parts)


def test_an_utterance_is_its_recordings_one_after_another(folders) -> None:
    one = people.say("klettres-es", "es/syllab/sa")
    two = people.say("klettres-es", "es/syllab/sa es/syllab/lu")
    lu = people.say("klettres-es", "es/syllab/lu")
    gap = len(two) - len(one) - len(lu)
    assert 0 <= gap <= 0.150 * RATE
    assert np.array_equal(two[: len(one)], one)
    tight = people.say("gcin-3", "ㄎㄢ4/3 ㄆㄞ4/3", most_gap_ms=40)
    assert len(tight) - 2 * int(0.25 * RATE) <= 0.040 * RATE + 2 * RATE // 100


def test_a_missing_recording_or_an_unknown_speaker_is_named(folders) -> None:
    with pytest.raises(FileNotFoundError, match="zz.ogg"):
        people.say("klettres-es", "es/syllab/sa es/syllab/zz")
    with pytest.raises(ValueError, match="unknown speaker 'pocket-1'"):
        people.recordings("pocket-1")
    assert not people.available("klettres-fr")  # no such folder here
    assert people.strings("klettres-fr", 5) == []


def test_only_the_toasts_whose_syllables_the_speaker_has_are_spliced(folders) -> None:
    got = people.spliced("gcin-3")
    assert ("kanpai", "ㄎㄢ4/3 ㄆㄞ4/3") in got and ("tchin tchin", "ㄑㄧㄣ4/3 ㄑㄧㄣ4/3") in got
    assert all(toast in ("kanpai", "tchin tchin") for toast, _ in got)
    assert ("kanpai", "ㄎㄢ3/3 ㄆㄞ2/3") not in got  # ㄎㄢ3 was never recorded here
    assert people.spliced("gcin-5") == []


def test_the_held_out_people_are_measured_and_every_fire_is_counted(
        folders, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people, "HELD_OUT", ("klettres-es", "klettres-fr", "gcin-3"))
    monkeypatch.setattr(real_speech, "PEOPLE_STRINGS", 3)
    out = tmp_path / "people.json"
    keys = real_speech.people_run(out)
    report = json.loads(out.read_text())
    assert set(report["speakers"]) == {"klettres-es", "gcin-3"}  # fr has no recordings here
    assert all(r["strings"] == 3 for r in report["speakers"].values())
    fired = sum(len(r["fired"]) for r in report["speakers"].values())
    assert keys["speech_people_false_accept"] == report["false_accept"] == round(fired / 12, 3)
    spliced = report["speakers"]["gcin-3"]["spliced"]
    assert len(spliced) == 2 * len(people.spliced("gcin-3"))  # clean and pink
    right = sum(s["heard"] == s["toast"] for s in spliced)
    assert keys["speech_people_spliced_accuracy"] == round(right / len(spliced), 3)
    assert sum(report["fired_as"].values()) == fired


def test_held_out_talking_people_are_measured_apart(folders, talk, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people, "HELD_OUT", ("klettres-es",))
    monkeypatch.setattr(people, "TALK_HELD_OUT", ("ktuberling-da", "ktuberling-nn",
                                                  "fillets-nl"))
    monkeypatch.setattr(real_speech, "PEOPLE_STRINGS", 2)
    monkeypatch.setattr(real_speech, "TALK_STRINGS", 3)
    monkeypatch.setattr(real_speech, "TALK_LINES", 5)
    out = tmp_path / "people.json"
    keys = real_speech.people_run(out)
    report = json.loads(out.read_text())
    assert set(report["talking"]) == {"ktuberling-da", "fillets-nl"}  # no readable nn here
    assert report["talking"]["ktuberling-da"]["strings"] == 3
    assert report["talking"]["fillets-nl"]["strings"] == 5
    fired = sum(len(r["fired"]) for r in report["talking"].values())
    assert keys["speech_people_talk_false_accept"] == report["talk_false_accept"] == round(
        fired / 16, 3)
    assert report["speakers"]["klettres-es"]["strings"] == 2  # the syllables, as before
    assert sum(report["talk_fired_as"].values()) == fired


def test_no_recordings_is_an_error_that_says_what_to_install(folders, tmp_path: Path,
                                                             monkeypatch) -> None:
    monkeypatch.setattr(people, "HELD_OUT", ("klettres-fr",))
    with pytest.raises(RuntimeError, match="apt-get install klettres-data gcin-voice"):
        real_speech.people_run(tmp_path / "people.json")


def test_a_condition_that_is_not_measured_is_named() -> None:
    with pytest.raises(ValueError, match="unknown condition 'babble'"):
        real_speech.judged_clip(np.ones(RATE, np.float32) * 0.1, "babble", 1)
