"""The referee's inputs (frozen actions) and its timing options.

Every action carries the time it happened, in seconds on the box's clock. The
``to_dict``/:func:`action_from_dict` pair is the replay's ``do`` format::

    {"type": "buzz", "t": 2.0, "stations": [3, 5]}     presses at the same instant
    {"type": "toast", "t": 1.9, "end": 2.4, "word": "salud"}
    {"type": "tick", "t": 4.5}                          time passes (timers fall due)
    {"type": "hearing", "t": 6.0, "available": false}   the microphone was lost (or came back)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.base import UnknownAction


@dataclass(frozen=True)
class Options:
    """The referee's timings, in seconds (rules page defaults)."""

    pre_s: float = 1.0
    """How long before a press a toast may start and still count for it."""
    window_s: float = 2.5
    """How long after a press a toast may end and still count for it."""
    veto_s: float = 3.0
    """How long the players not invited have to veto a correct claim."""
    card_timeout_s: float = 20.0
    """How long after its reveal a card nobody wins is discarded."""
    auto_reveal_s: float | None = None
    """Reveal the next card by itself this long after the last one ended (None: never)."""
    speech: bool = True
    """False when the box hears nothing (no microphone, speech off): a claim's toast is then
    taken as said, and the veto vote alone decides."""


@dataclass(frozen=True)
class Buzz:
    """Buzzer presses at one instant (exact ties share the instant)."""

    t: float
    stations: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "buzz", "t": self.t, "stations": list(self.stations)}


@dataclass(frozen=True)
class Toast:
    """A toast heard by the recogniser: ``word`` a toast id, from ``t`` to ``end``."""

    t: float
    end: float
    word: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "toast", "t": self.t, "end": self.end, "word": self.word}


@dataclass(frozen=True)
class Tick:
    """Time has reached ``t``: whatever falls due by then is decided."""

    t: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": "tick", "t": self.t}


@dataclass(frozen=True)
class Hearing:
    """From ``t`` on, the box can (or cannot) hear toasts: the microphone came back, or was lost."""

    t: float
    available: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": "hearing", "t": self.t, "available": self.available}


Action = Buzz | Toast | Tick | Hearing


def action_from_dict(d: Mapping[str, Any], t: float | None = None) -> Action:
    """Parse a ``do`` payload; ``t`` is used when the payload has none. Raises UnknownAction."""
    kind = d.get("type")
    when = d.get("t", t)
    if isinstance(when, bool) or not isinstance(when, (int, float)):
        raise UnknownAction(f"a {kind or 'do'} action needs a time 't'")
    when = float(when)
    if kind == "buzz":
        stations = d.get("stations", [d["station"]] if "station" in d else None)
        if not isinstance(stations, list) or not stations or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in stations
        ):
            raise UnknownAction("a buzz needs 'stations': a list of station numbers")
        return Buzz(when, tuple(sorted(set(stations))))
    if kind == "toast":
        end = d.get("end", when)
        word = d.get("word")
        if not isinstance(word, str) or isinstance(end, bool) or not isinstance(end, (int, float)):
            raise UnknownAction("a toast needs 'word' (a toast id) and 'end' (seconds)")
        return Toast(when, float(end), word)
    if kind == "tick":
        return Tick(when)
    if kind == "hearing":
        available = d.get("available")
        if not isinstance(available, bool):
            raise UnknownAction("a hearing action needs 'available': true or false")
        return Hearing(when, available)
    raise UnknownAction(f"unknown Tchin Tchin action {kind!r} (expected buzz, toast, tick or hearing)")
