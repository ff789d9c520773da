"""Real people's voices from Debian's packages: recordings of letters, syllables and short words.

Every voice the spotter trains on is a synthesizer.  Two Debian packages carry recordings of
real people, one or two speakers a language:

- ``klettres-data`` (KDE's KLettres, GPL): each alphabet's letters and a language's syllables
  or short words, in 20 languages (Arabic, Czech, Danish, German, two Englishes, Spanish,
  French, Hebrew, Hungarian, Italian, Lithuanian, Malayalam, Norwegian, Low German, Dutch,
  Brazilian Portuguese, Russian, Tswana, Ukrainian), about 1,800 files;
- ``gcin-voice`` (gcin's Zhuyin sounds): every Mandarin syllable in every tone, said by two
  speakers (``3``: GPL-3 or LGPL-3; ``5``: CC BY 3.0), about 2,400 files.

None of them says a toast.  A string of one speaker's syllables ("sa lu ma", "ㄎㄢ4 ㄆㄞ2") is
real speech that is no toast: a *negative* spoken by a person.  And Mandarin has two of the
toasts in its syllables: kàn pái sounds as "kanpai" does, qìn qìn as "tchin tchin"; spliced from
one speaker's syllables they are the one toast-shaped thing real people say here
(:data:`SPLICED`).  They are crude (each syllable said alone, joined), and they are only ever
measured, never fitted.

The speakers are split once, by a rule fixed before any of them was measured or fitted on: the
KLettres languages in alphabetical order, a language and its close kin one group (the two
Englishes; Russian and Ukrainian), every other group is *fitted* (:data:`FITTED`), the rest and
both Mandarin speakers are *held out* (:data:`HELD_OUT`) for :mod:`bench.real_speech`.

Two more packages carry real people *talking*: whole words and sentences, not letters.

- ``ktuberling-data`` (KDE's KTuberling, GPL): the name of every piece of the potato game said
  by a speaker of each language ("pizzeria pepperoni", "Little Tux"), about 70 to 210 files in
  the twelve languages that name them all;
- ``fillets-ng-data-nl`` and ``fillets-ng-data-cs`` (Fish Fillets NG, GPL): the game's
  dialogue, lines of one to eleven seconds said by actors (the two fish above all), in Dutch
  (about 1,500) and in the Czech original (about 1,750); the lines marked ``-x-`` are grunts and
  noises, and a few files are empty, and neither is used.  (Its English lines are a handful of
  such noises, so English is not used.)

They are split by the same kind of rule, fixed before any of them was measured: KTuberling's
twelve languages in alphabetical order, every other one fitted (:data:`TALK_FITTED`: Catalan,
German, French, Lithuanian, Russian, Ukrainian), the rest held out (:data:`TALK_HELD_OUT`; Norwegian
Nynorsk's recordings are Opus files, which sox does not read, so it is left out); of Fish
Fillets's dubs, the Czech original fitted, the Dutch held out.
"""

from __future__ import annotations

import random
import subprocess
import zlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from hardware.speech.audio import RATE

KLETTRES = Path("/usr/share/klettres")
GCIN = Path("/usr/share/gcin-voice/ogg")
KTUBERLING = Path("/usr/share/ktuberling/sounds")
FILLETS = Path("/usr/share/games/fillets-ng/sound")

#: KLettres's languages, a group of close kin together, in alphabetical order
GROUPS: tuple[tuple[str, ...], ...] = (
    ("ar",), ("cs",), ("da",), ("de",), ("en", "en_GB"), ("es",), ("fr",), ("he",), ("hu",),
    ("it",), ("lt",), ("ml",), ("nb",), ("nds",), ("nl",), ("pt_BR",), ("ru", "uk"), ("tn",))
#: the speakers the spotter's recipe fits on (every other group, the first included)
FITTED: tuple[str, ...] = tuple(f"klettres-{lang}" for g in GROUPS[::2] for lang in g)
#: the speakers only ever measured: the other groups and both Mandarin speakers
HELD_OUT: tuple[str, ...] = (*(f"klettres-{lang}" for g in GROUPS[1::2] for lang in g),
                             "gcin-3", "gcin-5")

#: KTuberling's languages that name every piece (the others name a dozen), alphabetical
KTUBERLING_LANGS: tuple[str, ...] = ("ca", "da", "de", "el", "fr", "gl", "lt", "nn", "ru", "sl",
                                     "uk", "wa")
#: the talking people the spotter's recipe fits on, and those only ever measured
TALK_FITTED: tuple[str, ...] = (
    *(f"ktuberling-{lang}" for lang in KTUBERLING_LANGS[::2]), "fillets-cs")
TALK_HELD_OUT: tuple[str, ...] = (
    *(f"ktuberling-{lang}" for lang in KTUBERLING_LANGS[1::2]), "fillets-nl")

#: toasts spliced from one Mandarin speaker's syllables (Zhuyin; no digit is the first tone)
SPLICED: dict[str, tuple[tuple[str, str], ...]] = {
    "kanpai": (("ㄎㄢ4", "ㄆㄞ4"), ("ㄎㄢ4", "ㄆㄞ2"), ("ㄎㄢ3", "ㄆㄞ2"), ("ㄎㄢ", "ㄆㄞ4")),
    "tchin tchin": (("ㄑㄧㄣ4", "ㄑㄧㄣ4"), ("ㄑㄧㄣ2", "ㄑㄧㄣ4"), ("ㄑㄧㄣ", "ㄑㄧㄣ"),
                    ("ㄑㄧㄣ3", "ㄑㄧㄣ4")),
}


def _folder(speaker: str) -> tuple[Path, str]:
    """The package folder of ``speaker`` (``klettres-<lang>``, ``gcin-<3|5>``,
    ``ktuberling-<lang>`` or ``fillets-<lang>``) and the speaker's name in it."""
    kind, _, name = speaker.partition("-")
    base = {"klettres": KLETTRES, "gcin": GCIN, "ktuberling": KTUBERLING,
            "fillets": FILLETS}.get(kind)
    if base is None or not name:
        raise ValueError(f"unknown speaker {speaker!r}: klettres-<language>, gcin-<3|5>, "
                         "ktuberling-<language> or fillets-<language>")
    return base, name


def recordings(speaker: str) -> list[Path]:
    """The speaker's recordings, sorted; empty where the package is not installed."""
    base, name = _folder(speaker)
    if base == KTUBERLING:  # Ogg Vorbis or WAV, by language
        return sorted(p for p in (base / name).glob("*.*") if p.suffix in (".ogg", ".wav"))
    if base == FILLETS:  # the lines said, not the grunts and noises (-x-) or empty files
        return sorted(p for p in base.glob(f"*/{name}/*.ogg")
                      if "-x-" not in p.name and p.stat().st_size > 4096)
    pattern = {KLETTRES: f"{name}/*/*.ogg", GCIN: f"*/{name}.ogg"}
    return sorted(base.glob(pattern[base]))


def says_lines(speaker: str) -> bool:
    """Whether each of the speaker's recordings is a whole line of dialogue (Fish Fillets), said
    alone, rather than a letter, syllable or name to be strung with others."""
    return _folder(speaker)[0] == FILLETS


def available(speaker: str) -> bool:
    return len(recordings(speaker)) >= 10


@lru_cache(maxsize=4096)
def load(path: Path) -> np.ndarray:
    """One recording as float32 at 16 kHz, its silence trimmed."""
    from bench.corpus import trim

    if not path.exists():
        raise FileNotFoundError(f"no recording {path}")
    raw = subprocess.run(["sox", "-R", str(path), "-r", str(RATE), "-c", "1", "-b", "16",
                          "-e", "signed", "-t", "raw", "-"], check=True,
                         capture_output=True).stdout
    x = trim(np.frombuffer(raw, np.int16).astype(np.float32) / 32768.0)
    if len(x) < RATE // 20:
        raise ValueError(f"{path} holds no sound")
    return x


def strings(speaker: str, n: int, seed: int = 0) -> list[str]:
    """``n`` strings of the speaker's recordings, as text ("es/syllab/sa es/syllab/lu"): one to
    four letters or syllables, one to three of KTuberling's names, one line of Fish Fillets
    (each line at most once); the same every time for the same speaker and seed; none where
    the speaker's package is not installed."""
    files = recordings(speaker)
    if not files:
        return []
    base, _ = _folder(speaker)
    rng = random.Random(zlib.crc32(f"{speaker}/{seed}".encode()))
    if says_lines(speaker):
        return [str(p.relative_to(base).with_suffix(""))
                for p in rng.sample(files, min(n, len(files)))]
    if base == KTUBERLING:  # the file's own name, as it may be a WAV
        return [" ".join(str(p.relative_to(base)) for p in rng.sample(files, rng.choice(
            (1, 1, 2, 3)))) for _ in range(n)]
    out = []
    for _ in range(n):
        k = rng.choice((1, 2, 2, 3, 3, 4))
        out.append(" ".join(str(p.relative_to(base).with_suffix(""))
                            for p in rng.sample(files, min(k, len(files)))))
    return out


def spliced(speaker: str) -> list[tuple[str, str]]:
    """The toasts :data:`SPLICED` from a Mandarin speaker's syllables, as (toast, text) for
    :func:`say`; those whose syllables the speaker lacks are left out."""
    _, who = _folder(speaker)
    return [(toast, " ".join(f"{syl}/{who}" for syl in seq))
            for toast, seqs in SPLICED.items() for seq in seqs
            if all((GCIN / syl / f"{who}.ogg").exists() for syl in seq)]


def say(speaker: str, text: str, most_gap_ms: int = 150) -> np.ndarray:
    """A string of :func:`strings` or :func:`spliced` as one utterance: its recordings one after
    another, 0 to ``most_gap_ms`` apart (the gap drawn from the text, so the same every time;
    a spliced toast's syllables at most 40 ms apart, as one word's are)."""
    base, _ = _folder(speaker)
    gap_ms = zlib.crc32(text.encode()) % (most_gap_ms + 1)
    gap = np.zeros(int(RATE * gap_ms / 1000), np.float32)
    parts: list[np.ndarray] = []
    for i, rel in enumerate(text.split()):
        if i:
            parts.append(gap)
        named = base / rel
        parts.append(load(named if named.suffix in (".ogg", ".wav") else base / f"{rel}.ogg"))
    return np.concatenate(parts)
