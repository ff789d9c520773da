"""Reading a Tchin Tchin header (replay line 1, or what the set-up menus made).

::

    {"game": "tchin-tchin", "seed": 7, "players": 5,
     "options": {"events": false, "pre_s": 1.0, "window_s": 2.5, "veto_s": 3.0,
                 "card_timeout_s": 20.0, "auto_reveal_s": null, "bounce_s": 0.02},
     "characters": {"1": "FR", ...}, "deck": ["D24", "S1", ...], "first": 3, "intro": false}

``characters``, ``deck`` and ``first`` are optional: a missing one is dealt from
the seeded random, per the set-up rules. Anything wrong is a HeaderError that
names the field.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from controller.debounce import DEFAULT_BOUNCE_S
from controller.flow import HeaderError, first_unknown
from models.base import IllegalAction
from models.tchin_tchin import Options, Table, deal

#: the header's fields, and its options besides the referee's (:class:`Options`)
HEADER_KEYS = ("game", "seed", "players", "options", "characters", "deck", "first", "intro")
BOX_OPTION_KEYS = ("events", "bounce_s", "intro")


def _unknown(given: Mapping[str, Any], known: tuple[str, ...], what: str) -> None:
    if (key := first_unknown(given, known)) is not None:
        raise HeaderError(f"unknown {what} {key!r} (known: {', '.join(known)})")


@dataclass(frozen=True)
class TchinHeader:
    """A checked header: the dealt table, the referee's options and the box's own."""

    table: Table
    options: Options
    events: bool
    bounce_s: float
    intro: bool


def read_header(header: Mapping[str, Any], rng: random.Random,
                stations: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)) -> TchinHeader:
    """Check a header and deal what it leaves out (characters, then deck, then first)."""
    players = header.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise HeaderError(f"'players' must be a whole number, not {players!r}")
    opts = header.get("options") or {}
    if not isinstance(opts, Mapping):
        raise HeaderError("'options' must be an object")
    # a misspelt field would not be an error but another game: it is refused, by name
    _unknown(header, HEADER_KEYS, "header field")
    _unknown(opts, BOX_OPTION_KEYS + tuple(f.name for f in fields(Options)), "option")
    events = opts.get("events", False)
    if not isinstance(events, bool):
        raise HeaderError(f"option events must be true or false, not {events!r}")
    bounce = opts.get("bounce_s", DEFAULT_BOUNCE_S)
    if bounce is None:
        bounce = 0.0
    if isinstance(bounce, bool) or not isinstance(bounce, (int, float)) or bounce < 0:
        raise HeaderError(f"option bounce_s must be a number of seconds >= 0, not {bounce!r}")
    intro = header.get("intro", opts.get("intro", False))
    if not isinstance(intro, bool):
        raise HeaderError(f"'intro' must be true or false, not {intro!r}")
    try:
        options = read_options(opts)
        if options.auto_reveal_s == 0:
            options = Options(**{**options.__dict__, "auto_reveal_s": None})
        seats = stations[:players] if len(stations) >= players else None
        table = deal(players, rng, events=events, stations=seats,
                     characters=_characters(header.get("characters")),
                     deck=_deck(header.get("deck")), first=_first(header.get("first")))
    except IllegalAction as exc:
        raise HeaderError(exc.reason) from None
    return TchinHeader(table, options, events, float(bounce), intro)


def read_options(opts: Mapping[str, Any]) -> Options:
    """The referee's options from a header's ``options`` (the box's own keys are read above)."""
    kwargs: dict[str, Any] = {}
    for f in fields(Options):
        if f.name not in opts:
            continue
        v = opts[f.name]
        if f.name == "speech":
            if not isinstance(v, bool):
                raise HeaderError(f"option speech must be true or false, not {v!r}")
            kwargs[f.name] = v
            continue
        if v is None and f.name == "auto_reveal_s":
            kwargs[f.name] = None
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise HeaderError(f"option {f.name} must be a number of seconds >= 0, not {v!r}")
        kwargs[f.name] = float(v)
    return Options(**kwargs)


def _characters(raw: Any) -> dict[int, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise HeaderError("'characters' must map stations to codes, e.g. {\"1\": \"FR\"}")
    out: dict[int, str] = {}
    for key, code in raw.items():
        try:
            station = int(key)
        except (TypeError, ValueError):
            raise HeaderError(f"'characters': {key!r} is not a station number") from None
        if not isinstance(code, str):
            raise HeaderError(f"'characters': station {station} needs a code like \"FR\", not {code!r}")
        out[station] = code.upper()
    return out


def _deck(raw: Any) -> list[str] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise HeaderError("'deck' must be a list of card ids, top first, e.g. [\"D24\", \"S1\"]")
    return [c.upper() for c in raw]


def _first(raw: Any) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise HeaderError(f"'first' must be a station number, not {raw!r}")
    try:
        return int(raw)
    except ValueError:
        raise HeaderError(f"'first' must be a station number, not {raw!r}") from None
