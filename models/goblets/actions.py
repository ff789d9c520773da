"""Actions as frozen dataclasses, with the replay's ``do`` format (``to_dict``/``parse_action``).

Goblets are named by their *place* on the table, 1..N (place k stands in front of seat k
in the 4-6 player game, in front of pair k with Winetasters, in a row of 6 in Russian
Goblette). Seats are 1..players, clockwise; your left neighbour is the next seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from models.goblets.errors import MalformedAction, UnknownAction
from models.goblets.tokens import Token


@dataclass(frozen=True)
class Pour:
    """Pour one token from behind your screen into a goblet (two at once: Bartender, once)."""

    seat: int
    goblet: int
    tokens: tuple[Token, ...]


@dataclass(frozen=True)
class Peek:
    """Look into your goblet (``goblet`` names another: Sommelier, Russian Goblette)."""

    seat: int
    goblet: int | None = None


@dataclass(frozen=True)
class Rotate:
    """Move every goblet ``steps`` places, ``cw`` (clockwise) or ``ccw`` (widdershins)."""

    seat: int
    direction: str
    steps: int = 1


@dataclass(frozen=True)
class Swap:
    """Exchange your goblet for the one at ``goblet``; Russian Goblette: any two ``goblets``."""

    seat: int
    goblet: int | None = None
    goblets: tuple[int, int] | None = None


@dataclass(frozen=True)
class Toast:
    """Call the Toast: the course's turns end and the toast phase begins."""

    seat: int


@dataclass(frozen=True)
class Pass:
    """End your turn (or decline a pending choice) without acting."""

    seat: int


@dataclass(frozen=True)
class Juggle:
    """Juggler: swap the places of any two goblets (an action, once per course)."""

    seat: int
    goblets: tuple[int, int]


@dataclass(frozen=True)
class Scheme:
    """Schemer: swap the coaster rings of two goblets (an action, once per course)."""

    seat: int
    goblets: tuple[int, int]


@dataclass(frozen=True)
class Spy:
    """Spy: look behind the screen of the player at seat ``target`` (an action, once per course)."""

    seat: int
    target: int


@dataclass(frozen=True)
class Transmute:
    """Alchemist: turn a Poison behind your screen into an Antidote, or back (free, once)."""

    seat: int
    into: Token


@dataclass(frozen=True)
class Plot:
    """Plotter, at the start of a course: swap target cards with the player at ``target``."""

    seat: int
    target: int


@dataclass(frozen=True)
class Taste:
    """Taster, before drinking: return one ``token`` from your goblet to the pool."""

    seat: int
    token: Token


@dataclass(frozen=True)
class Gamble:
    """Gambler, before drinking: swap your goblet with one the box picks at random."""

    seat: int


@dataclass(frozen=True)
class Drink:
    """Russian Goblette: drink the goblet at ``goblet``."""

    seat: int
    goblet: int


@dataclass(frozen=True)
class Choose:
    """Tie-break: take the tie goblet numbered ``goblet`` and reveal it."""

    seat: int
    goblet: int


Action = (Pour | Peek | Rotate | Swap | Toast | Pass | Juggle | Scheme | Spy | Transmute | Plot
          | Taste | Gamble | Drink | Choose)

TYPES: dict[str, type] = {
    "pour": Pour, "peek": Peek, "rotate": Rotate, "swap": Swap, "toast": Toast, "pass": Pass,
    "juggle": Juggle, "scheme": Scheme, "spy": Spy, "transmute": Transmute, "plot": Plot,
    "taste": Taste, "gamble": Gamble, "drink": Drink, "choose": Choose,
}
_NAMES = {cls: name for name, cls in TYPES.items()}
_DIRECTIONS = {"cw": "cw", "clockwise": "cw", "left": "cw", "ccw": "ccw",
               "widdershins": "ccw", "anticlockwise": "ccw", "counterclockwise": "ccw",
               "right": "ccw"}


def to_dict(action: Action) -> dict[str, Any]:
    """The replay's ``do`` payload for an action.

    >>> to_dict(Pour(2, 4, (Token.POISON,)))
    {'type': 'pour', 'seat': 2, 'goblet': 4, 'token': 'poison'}
    >>> to_dict(Rotate(1, "cw"))
    {'type': 'rotate', 'seat': 1, 'direction': 'cw'}
    """
    out: dict[str, Any] = {"type": _NAMES[type(action)], "seat": action.seat}
    if isinstance(action, Pour):
        out["goblet"] = action.goblet
        if len(action.tokens) == 1:
            out["token"] = action.tokens[0].value
        else:
            out["tokens"] = [t.value for t in action.tokens]
    elif isinstance(action, Peek):
        if action.goblet is not None:
            out["goblet"] = action.goblet
    elif isinstance(action, Rotate):
        out["direction"] = action.direction
        if action.steps != 1:
            out["steps"] = action.steps
    elif isinstance(action, Swap):
        if action.goblets is not None:
            out["goblets"] = list(action.goblets)
        else:
            out["goblet"] = action.goblet
    elif isinstance(action, (Juggle, Scheme)):
        out["goblets"] = list(action.goblets)
    elif isinstance(action, (Spy, Plot)):
        out["target"] = action.target
    elif isinstance(action, Transmute):
        out["into"] = action.into.value
    elif isinstance(action, Taste):
        out["token"] = action.token.value
    elif isinstance(action, (Drink, Choose)):
        out["goblet"] = action.goblet
    return out


def _int(payload: dict[str, Any], key: str) -> int:
    value = payload.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{payload.get('type')}: field {key!r} must be a whole number, "
                              f"got {value!r}")
    return value


def _pair(payload: dict[str, Any], key: str) -> tuple[int, int]:
    value = payload.get(key)
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise MalformedAction(f"{payload.get('type')}: field {key!r} must be two goblet "
                              f"places, got {value!r}")
    return (value[0], value[1])


def _token(payload: dict[str, Any], key: str) -> Token:
    try:
        return Token.parse(payload.get(key))
    except ValueError as exc:
        raise MalformedAction(f"{payload.get('type')}: {exc}") from None


def parse_action(payload: Any) -> Action:
    """An action from a ``do`` payload; a named error says what is wrong with a bad one.

    >>> parse_action({"type": "rotate", "seat": 1, "direction": "widdershins"})
    Rotate(seat=1, direction='ccw', steps=1)
    """
    if not isinstance(payload, dict):
        raise MalformedAction(f"an action must be an object with a 'type', got {payload!r}")
    kind = payload.get("type")
    if kind not in TYPES:
        raise UnknownAction(f"unknown action type {kind!r} (known: {', '.join(TYPES)})")
    seat = _int(payload, "seat")
    if kind == "pour":
        if "tokens" in payload:
            raw = payload["tokens"]
            if not isinstance(raw, list) or len(raw) not in (1, 2):
                raise MalformedAction(f"pour: 'tokens' must list one or two tokens, got {raw!r}")
            tokens = tuple(_token({"type": "pour", "t": r}, "t") for r in raw)
        else:
            tokens = (_token(payload, "token"),)
        return Pour(seat, _int(payload, "goblet"), tokens)
    if kind == "peek":
        return Peek(seat, _int(payload, "goblet") if payload.get("goblet") is not None else None)
    if kind == "rotate":
        direction = _DIRECTIONS.get(str(payload.get("direction", "")).lower())
        if direction is None:
            raise MalformedAction(f"rotate: direction must be 'cw' or 'ccw', "
                                  f"got {payload.get('direction')!r}")
        steps = _int(payload, "steps") if "steps" in payload else 1
        return Rotate(seat, direction, steps)
    if kind == "swap":
        if "goblets" in payload:
            return Swap(seat, goblets=_pair(payload, "goblets"))
        return Swap(seat, goblet=_int(payload, "goblet"))
    if kind in ("juggle", "scheme"):
        return TYPES[kind](seat, _pair(payload, "goblets"))  # type: ignore[no-any-return]
    if kind in ("spy", "plot"):
        key = "target" if "target" in payload else "with"
        return TYPES[kind](seat, _int(payload, key))  # type: ignore[no-any-return]
    if kind == "transmute":
        return Transmute(seat, _token(payload, "into"))
    if kind == "taste":
        return Taste(seat, _token(payload, "token"))
    if kind in ("drink", "choose"):
        return TYPES[kind](seat, _int(payload, "goblet"))  # type: ignore[no-any-return]
    return TYPES[kind](seat)  # type: ignore[no-any-return]
