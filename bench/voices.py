"""The synthetic voices the speech corpus is spoken with, and how to make each one talk.

Every voice belongs to a family (espeak, espeak-robotic, flite, festival; the spotter's training
adds SVOX Pico's) and to one split:
``tune`` voices are the ones the recogniser's thresholds are chosen on, ``report`` voices are
held back and only measured.  A voice whose synthesizer is missing on this machine is skipped.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: toast id -> what the synthesizers are asked to say (spelled normally, espeak-ng says
#: "tee-chin" and flite spells letters, so the toasts are respelled as they sound)
TOAST_SPELLINGS: dict[str, str] = {
    "prost": "prost",
    "cheers": "cheers",
    "tchin tchin": "chin chin",
    "kanpai": "kahn pie",
    "salud": "sah lude",
    "na zdorovie": "nazdorovya",
}

#: words that sound near a toast, or are common at a party: none may be heard as a toast
DISTRACTOR_WORDS: tuple[str, ...] = (
    "cheese", "hello", "salad", "post", "can't pay", "chicken", "sorry",
    "toast", "chips", "thank you",
)

#: party chatter the box must not take for a toast
CHATTER_SENTENCES: tuple[str, ...] = (
    "pass me the crisps please",
    "who is going to deal the next card",
    "I think it is my turn now",
)

#: what the babble noise is made of (other people talking across the table)
BABBLE_SENTENCES: tuple[str, ...] = (
    "the weather was lovely on saturday afternoon",
    "did you see the match last night",
    "she moved to a new flat near the station",
    "we should order some more pizza for everyone",
    "my brother is coming over later with his friends",
    "that film was much longer than I expected",
    "could you turn the music down a little bit",
    "I have never been to that restaurant before",
)


@dataclass(frozen=True)
class Voice:
    """One synthetic speaker: a synthesizer, its voice name and a speaking rate."""

    id: str
    family: str
    synth: str
    name: str
    rate: float = 1.0
    split: str = "tune"

    @property
    def robotic(self) -> bool:
        """Robotic espeak-ng variants are reported but not targeted."""
        return self.family == "espeak-robotic"

    @property
    def mbrola_database(self) -> str | None:
        """The MBROLA voice database an espeak-ng ``mb-<db>[-<lang>]`` voice speaks with (its
        Debian package is ``mbrola-<db>``); None for any other voice."""
        if self.synth == "espeak" and self.name.startswith("mb-"):
            return self.name[3:].split("-")[0]
        return None

    def available(self) -> bool:
        """Whether this machine has the synthesizer (and voice) installed."""
        if self.synth == "pico":
            try:
                _pico(self.name)
            except (ImportError, RuntimeError):
                return False
            return True
        exe = {"espeak": "espeak-ng", "flite": "flite", "festival": "text2wave"}[self.synth]
        if shutil.which(exe) is None:
            return False
        if self.synth == "festival":
            return any(Path("/usr/share/festival/voices").glob(f"*/{self.name}"))
        if self.mbrola_database is not None:
            return (Path("/usr/share/mbrola") / self.mbrola_database).is_dir()
        return True

    def say(self, text: str, wav_path: Path) -> None:
        """Write ``text`` spoken by this voice to ``wav_path`` (synthesizer's own rate)."""
        if self.synth == "espeak":
            wpm = str(int(round(160 * self.rate)))
            cmd = ["espeak-ng", "-v", self.name, "-s", wpm, "-w", str(wav_path), text]
            subprocess.run(cmd, check=True, capture_output=True)
        elif self.synth == "pico":
            engine = _pico(self.name)
            engine.rate = int(round(100 * self.rate))
            pcm = engine.speak(text) or b""
            with wave.open(str(wav_path), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(16000)
                w.writeframes(pcm)
        elif self.synth == "flite":
            stretch = f"duration_stretch={1.0 / self.rate:.3f}"
            cmd = ["flite", "-voice", self.name, "--setf", stretch, "-t", text, "-o", str(wav_path)]
            subprocess.run(cmd, check=True, capture_output=True)
        else:
            encoding = festival_encoding(self.name)
            try:
                data = (text + "\n").encode(encoding)
            except UnicodeEncodeError as err:
                raise ValueError(f"festival's {self.name} reads {encoding}, which cannot write "
                                 f"{text!r}") from err
            with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
                f.write(data)
            try:
                stretch = f"(Parameter.set 'Duration_Stretch {1.0 / self.rate:.3f})"
                cmd = ["text2wave", "-eval", f"(voice_{self.name})", "-eval", stretch,
                       "-o", str(wav_path), f.name]
                done = subprocess.run(cmd, check=True, capture_output=True, timeout=60)
            finally:
                Path(f.name).unlink(missing_ok=True)
            if not wav_path.exists() or wav_path.stat().st_size <= 44:  # no more than a header
                # festival says nothing and exits 0 when a voice's language files are missing
                # (Debian's festival-hi, -mr, -te are only recommended by their voices)
                said = done.stderr.decode("utf-8", "replace").strip()[:200]
                raise RuntimeError(f"festival's {self.name} said nothing for {text!r}: {said}")


#: festival reads its text as bytes, each voice's language in its own 8-bit character set: a
#: Czech voice given UTF-8 spells "Čin čin" out as symbols (2.2 s of it, against 0.86 s said in
#: ISO-8859-2), an Italian one cannot say "Salùd" at all.  Every other voice here reads UTF-8
#: (English is ASCII; the Hindi, Marathi, Telugu and Russian voices' scripts are UTF-8).
FESTIVAL_ENCODINGS: tuple[tuple[str, str], ...] = (
    ("czech_", "iso-8859-2"),
    ("hy_fi_", "iso-8859-1"), ("suo_fi_", "iso-8859-1"),  # Finnish
    ("upc_ca_", "iso-8859-1"),  # Catalan
    ("lp_diphone", "iso-8859-1"), ("pc_diphone", "iso-8859-1"),  # Italian
)


def festival_encoding(name: str) -> str:
    """The character set festival's voice ``name`` reads its text in."""
    return next((enc for prefix, enc in FESTIVAL_ENCODINGS if name.startswith(prefix)), "utf-8")


def _pico(name: str) -> Any:
    """A fresh SVOX Pico engine for a voice name "<language>" or "<language>@<pitch %>" (the
    ``ttspico`` package: the synthesizer and its six voices, en-US, en-GB, de-DE, es-ES, fr-FR
    and it-IT, built from source).  Fresh for every utterance (10 ms): an engine's output
    depends on what it said before, a fresh one's never does."""
    import ttspico

    language, _, pitch = name.partition("@")
    engine = ttspico.TtsEngine(language)
    if pitch:
        engine.pitch = int(pitch)
    return engine


def _espeak(name: str, wpm: int, split: str, family: str = "espeak") -> Voice:
    vid = f"espeak-{name.replace('+', '-')}-{wpm}".replace(" ", "_")
    return Voice(vid, family, "espeak", name, wpm / 160, split)


ALL_VOICES: tuple[Voice, ...] = (
    _espeak("en-us", 140, "tune"),
    _espeak("en-gb", 180, "tune"),
    _espeak("en-gb-scotland", 160, "tune"),
    _espeak("en-029", 160, "tune"),
    _espeak("en-gb-x-gbcwmd", 150, "tune"),
    _espeak("en-us+m7", 130, "tune"),
    _espeak("en-us+f3", 180, "report"),
    _espeak("en-gb+f2", 140, "report"),
    _espeak("en-gb-x-rp+m3", 160, "report"),
    _espeak("en-us-nyc+f4", 160, "report"),
    _espeak("en-gb-x-gbclan+m5", 170, "report"),
    _espeak("en-gb+f5", 190, "report"),
    _espeak("en-us+Robosoft", 160, "tune", "espeak-robotic"),
    _espeak("en-us+UniRobot", 160, "report", "espeak-robotic"),
    _espeak("en-gb+Mr serious", 150, "report", "espeak-robotic"),
    Voice("flite-kal", "flite", "flite", "kal", 1.0, "tune"),
    Voice("flite-awb", "flite", "flite", "awb", 1.0, "tune"),
    Voice("flite-slt-slow", "flite", "flite", "slt", 0.8, "tune"),
    Voice("flite-kal16", "flite", "flite", "kal16", 1.0, "report"),
    Voice("flite-rms", "flite", "flite", "rms", 1.0, "report"),
    Voice("flite-slt", "flite", "flite", "slt", 1.0, "report"),
    Voice("flite-awb-fast", "flite", "flite", "awb", 1.2, "report"),
    Voice("festival-kal", "festival", "festival", "kal_diphone", 1.0, "tune"),
    Voice("festival-ked", "festival", "festival", "ked_diphone", 1.0, "report"),
    Voice("festival-slt-hts", "festival", "festival", "cmu_us_slt_arctic_hts", 1.0, "report"),
)

#: voices that only speak in the babble (never a target speaker)
BABBLE_VOICES: tuple[Voice, ...] = (
    _espeak("en-us+m2", 170, "babble"),
    _espeak("en-gb+f1", 160, "babble"),
    Voice("flite-rms-babble", "flite", "flite", "rms", 1.1, "babble"),
    Voice("flite-slt-babble", "flite", "flite", "slt", 0.95, "babble"),
    _espeak("en-gb-x-rp+m6", 150, "babble"),
)


#: extra voices the toast spotter is trained on (never reported on): espeak-ng variants that no
#: report or babble voice uses, at several rates, and the tune voices of the other families
#: at other speeds
SPOTTER_EXTRA_VOICES: tuple[Voice, ...] = (
    *(_espeak(f"{accent}+{variant}", wpm, "train")
      for accent, variant, wpm in (
          ("en-us", "m1", 150), ("en-us", "m4", 170), ("en-gb", "m7", 160),
          ("en-us", "Andy", 160), ("en-gb", "Gene", 150), ("en-us", "Lee", 175),
          ("en-gb-scotland", "Michael", 150), ("en-us", "Storm", 165), ("en-029", "anika", 160),
          ("en-gb", "belinda", 145), ("en-us", "edward", 170), ("en-gb-x-gbcwmd", "iven", 160),
          ("en-us", "john", 140), ("en-gb", "max", 180), ("en-us", "norbert", 150),
          ("en-gb", "quincy", 165), ("en-us", "rob", 155), ("en-gb-scotland", "steph", 170),
          ("en-us", "zac", 150), ("en-us", "Alicia", 160), ("en-gb", "Annie", 150),
          ("en-us", "Linda", 170), ("en-gb", "Adam", 160), ("en-us", "David", 145),
          ("en-gb", "Paul", 175), ("en-us", "Robert", 160), ("en-gb", "victor", 150),
          ("en-us", "travis", 165), ("en-gb", "shelby", 160), ("en-us", "klatt4", 155),
          # the report voices' accents, with variants no report, babble or validation voice uses
          ("en-us-nyc", "m4", 150), ("en-us-nyc", "Alicia", 170), ("en-us-nyc", "edward", 160),
          ("en-gb-x-rp", "m7", 165), ("en-gb-x-rp", "belinda", 155), ("en-gb-x-rp", "max", 170),
          ("en-gb-x-rp", "m1", 145), ("en-gb-x-gbclan", "m4", 160),
          ("en-gb-x-gbclan", "Linda", 175), ("en-gb-x-gbclan", "john", 150),
      )),
    Voice("flite-kal-slow", "flite", "flite", "kal", 0.85, "train"),
    Voice("flite-kal-fast", "flite", "flite", "kal", 1.15, "train"),
    Voice("flite-awb-slow", "flite", "flite", "awb", 0.9, "train"),
    Voice("flite-slt-slower", "flite", "flite", "slt", 0.7, "train"),
    Voice("festival-kal-slow", "festival", "festival", "kal_diphone", 0.85, "train"),
    Voice("festival-kal-fast", "festival", "festival", "kal_diphone", 1.15, "train"),
    Voice("flite-kal-0.8", "flite", "flite", "kal", 0.8, "train"),
    Voice("flite-kal-0.9", "flite", "flite", "kal", 0.9, "train"),
    Voice("flite-awb-0.8", "flite", "flite", "awb", 0.8, "train"),
    Voice("flite-awb-1.05", "flite", "flite", "awb", 1.05, "train"),
    Voice("flite-slt-0.75", "flite", "flite", "slt", 0.75, "train"),
    Voice("flite-slt-0.85", "flite", "flite", "slt", 0.85, "train"),
    Voice("festival-kal-0.9", "festival", "festival", "kal_diphone", 0.9, "train"),
    Voice("festival-kal-1.1", "festival", "festival", "kal_diphone", 1.1, "train"),
)

#: held out of the spotter's training to choose its threshold
SPOTTER_VALIDATION_IDS: frozenset[str] = frozenset({
    "espeak-en-us-Lee-175", "espeak-en-gb-Annie-150", "espeak-en-us-rob-155",
    "flite-kal-fast", "espeak-en-gb-quincy-165",
})
