"""The actions of Cheers, as frozen values with a ``to_dict``/``from_dict`` pair.

This is the replay's ``do`` format (see docs/rules/cheers.md, "Replay action format")::

    {"type": "play", "seat": 2, "card": "C17", "to": 3}
    {"type": "push", "seat": 2, "card": "C05", "to": 4}
    {"type": "discard_hand", "seat": 2}
    {"type": "cheers", "seat": 3, "clink": "C04", "give": [1, 4]}
    {"type": "limit_discard", "seat": 4, "card": "C33"}

In ``cheers``, ``give[0]`` receives the played card and ``give[1]`` the card it
clinked with. ``give`` may also be written as a map, card id -> seat or seat ->
card id; ``keep_clink`` is accepted for ``clink``.

>>> action_from_dict({"type": "play", "seat": 2, "card": "c17", "to": 3})
Play(seat=2, card='C17', to=3)
>>> Cheers(3, "C04", (1, 4)).to_dict()
{'type': 'cheers', 'seat': 3, 'clink': 'C04', 'give': [1, 4]}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from models.cheers.cards import card as card_by_id
from models.cheers.errors import BadAction, UnknownAction


@dataclass(frozen=True)
class Play:
    """Play ``card`` from ``seat``'s hand in front of seat ``to`` (``seat`` itself allowed)."""

    seat: int
    card: str
    to: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card, "to": self.to}


@dataclass(frozen=True)
class Push:
    """Push ``card`` from in front of ``seat`` to another player's front. Never a cheers."""

    seat: int
    card: str
    to: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "push", "seat": self.seat, "card": self.card, "to": self.to}


@dataclass(frozen=True)
class DiscardHand:
    """Discard the whole hand face down."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "discard_hand", "seat": self.seat}


@dataclass(frozen=True)
class Cheers:
    """The target's cheers: ``clink`` is the front card that clinks with the played card;
    ``give`` = (seat receiving the played card, seat receiving the clinked card)."""

    seat: int
    clink: str
    give: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "cheers", "seat": self.seat, "clink": self.clink, "give": list(self.give)}


@dataclass(frozen=True)
class LimitDiscard:
    """A front over the limit: its owner discards ``card`` from it, face down."""

    seat: int
    card: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "limit_discard", "seat": self.seat, "card": self.card}


Action = Play | Push | DiscardHand | Cheers | LimitDiscard
ACTION_TYPES = ("play", "push", "discard_hand", "cheers", "limit_discard")


def _seat(raw: Mapping[str, Any], key: str) -> int:
    value = raw.get(key)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadAction(f"{raw.get('type')}: '{key}' must be a seat number, got {value!r}")
    return value


def _card(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key)
    if value is None:
        raise BadAction(f"{raw.get('type')}: '{key}' (a card id like 'C17') is missing")
    try:
        return card_by_id(str(value)).id
    except ValueError as exc:
        raise BadAction(f"{raw.get('type')}: {exc}") from None


def _give_list(give: Any) -> tuple[int, int]:
    if not isinstance(give, (list, tuple)) or len(give) != 2:
        raise BadAction("cheers: 'give' must be two seats [for the played card, for the clinked card]")
    pair = {"a": give[0], "b": give[1], "type": "cheers"}
    return _seat(pair, "a"), _seat(pair, "b")


def _give_map(
    give: Mapping[str, Any], played: str | None, clink: str
) -> tuple[str, tuple[int, int]]:
    """``{"C17": 1, "C04": 4}`` or ``{"1": "C17", "4": "C04"}`` -> (clink, (played's seat, clink's seat))."""
    by_card: dict[str, int] = {}
    try:
        for key, value in give.items():
            if str(key).strip().isdigit():  # seat -> card
                by_card[card_by_id(str(value)).id] = int(key)
            else:  # card -> seat
                by_card[card_by_id(str(key)).id] = _seat(give, key)
    except ValueError as exc:
        if isinstance(exc, BadAction):
            raise
        raise BadAction(f"cheers: {exc}") from None
    if len(by_card) != 2:
        raise BadAction("cheers: 'give' must name exactly two cards, each with its own seat")
    if not clink:
        if played is None:  # no cheers is waiting: the engine refuses it for that reason
            clink = list(by_card)[-1]
        elif played not in by_card:
            raise BadAction("cheers: say which card clinks ('clink') or name the played card in 'give'")
        else:
            clink = next(c for c in by_card if c != played)
    if clink not in by_card:
        raise BadAction(f"cheers: 'give' does not say where the clinked card {clink} goes")
    other = next(c for c in by_card if c != clink)
    if played is not None and other != played:
        raise BadAction(f"cheers: 'give' names {other}, but the played card is {played}")
    return clink, (by_card[other], by_card[clink])


def action_from_dict(raw: Mapping[str, Any], played: str | None = None) -> Action:
    """Parse a ``do`` payload. ``played`` (the card being clinked) lets a cheers' ``give``
    map be checked; unknown types raise :class:`UnknownAction`, bad fields :class:`BadAction`."""
    if not isinstance(raw, Mapping):
        raise BadAction(f"an action must be a JSON object, got {raw!r}")
    kind = raw.get("type")
    if kind == "play":
        return Play(_seat(raw, "seat"), _card(raw, "card"), _seat(raw, "to"))
    if kind == "push":
        return Push(_seat(raw, "seat"), _card(raw, "card"), _seat(raw, "to"))
    if kind == "discard_hand":
        return DiscardHand(_seat(raw, "seat"))
    if kind == "cheers":
        key = "clink" if "clink" in raw else "keep_clink"
        clink = _card(raw, key) if raw.get(key) is not None else ""
        give = raw.get("give")
        if isinstance(give, Mapping):
            clink, seats = _give_map(give, played, clink)
        else:
            seats = _give_list(give)
        return Cheers(_seat(raw, "seat"), clink, seats)
    if kind == "limit_discard":
        return LimitDiscard(_seat(raw, "seat"), _card(raw, "card"))
    raise UnknownAction(f"unknown action type {kind!r} (expected one of {', '.join(ACTION_TYPES)})")
