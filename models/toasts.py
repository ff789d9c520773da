"""The six toasts the box listens for, and how a heard word is named."""

from __future__ import annotations

import re
import unicodedata

#: toast id -> what the table shouts
TOASTS: dict[str, str] = {
    "prost": "Prost!",
    "cheers": "Cheers!",
    "tchin tchin": "Tchin Tchin!",
    "kanpai": "Kanpai!",
    "salud": "Salud!",
    "na zdorovie": "Na Zdorovie!",
}

_ALIASES = {
    "tchintchin": "tchin tchin",
    "chin chin": "tchin tchin",
    "chinchin": "tchin tchin",
    "nazdorovie": "na zdorovie",
    "na zdorovye": "na zdorovie",
    "kampai": "kanpai",
}


def toast_id(word: str) -> str | None:
    """The toast id for a spoken or typed word, or None when it is no toast.

    >>> toast_id("Na Zdorovie!")
    'na zdorovie'
    >>> toast_id("Tchin-Tchin")
    'tchin tchin'
    >>> toast_id("¡Salúd!"), toast_id("Kanpaï"), toast_id("Chin-chin!")
    ('salud', 'kanpai', 'tchin tchin')
    >>> toast_id("hello") is None
    True
    """
    # accents folded to their letters, a hyphen read as a space, anything else dropped
    folded = "".join(" " if unicodedata.category(c) == "Pd" or c == "_" else c
                     for c in unicodedata.normalize("NFKD", word.lower().replace("ı", "i"))
                     if not unicodedata.combining(c))
    key = re.sub(r"[^a-z ]", "", folded)
    key = re.sub(r"\s+", " ", key).strip()
    key = _ALIASES.get(key, key)
    return key if key in TOASTS else None
