"""Toast lexicons: data files that say how each toast is spelled or pronounced for one engine.

One JSON file per engine and model language (``lexicons/<engine>-<lang>.json``), so teaching
the box another language needs a file, not code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.speech.heard import SpeechModelError

LEXICON_DIR = Path(__file__).parent / "lexicons"

#: the six toast ids (kept here as data for the recognisers; the rules have their own copy)
TOAST_IDS: tuple[str, ...] = (
    "prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie",
)


@dataclass(frozen=True)
class ToastEntry:
    """One toast's ways of being said, and the lowest score accepted for it."""

    toast: str
    forms: tuple[str, ...]
    min_score: float


@dataclass(frozen=True)
class Lexicon:
    """All six toasts for one engine and language."""

    engine: str
    language: str
    entries: tuple[ToastEntry, ...]
    extra: dict[str, Any]

    def entry(self, toast: str) -> ToastEntry:
        """The entry of one toast id."""
        for e in self.entries:
            if e.toast == toast:
                return e
        raise KeyError(toast)


def load_lexicon(name_or_path: str | Path) -> Lexicon:
    """Load ``lexicons/<name>.json`` (or a path), checking that it covers exactly the six toasts.

    The forms are read from ``pronunciations`` (phones) or ``spellings`` (words).
    """
    path = Path(name_or_path)
    if not path.suffix:
        path = LEXICON_DIR / f"{name_or_path}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise SpeechModelError(f"toast lexicon {path} does not exist") from err
    except json.JSONDecodeError as err:
        raise SpeechModelError(f"toast lexicon {path} is not valid JSON: {err}") from err
    toasts = data.get("toasts", {})
    if set(toasts) != set(TOAST_IDS):
        missing = sorted(set(TOAST_IDS) - set(toasts))
        unknown = sorted(set(toasts) - set(TOAST_IDS))
        raise SpeechModelError(
            f"toast lexicon {path}: missing toasts {missing}, unknown toasts {unknown}")
    entries = []
    for tid in TOAST_IDS:
        t = toasts[tid]
        forms = tuple(t.get("pronunciations") or t.get("spellings") or ())
        if not forms:
            raise SpeechModelError(f"toast lexicon {path}: {tid!r} has no pronunciations/spellings")
        entries.append(ToastEntry(tid, forms, float(t.get("min_score", 0.0))))
    extra = {k: v for k, v in data.items() if k not in ("toasts", "engine", "language")}
    return Lexicon(data.get("engine", ""), data.get("language", ""), tuple(entries), extra)
