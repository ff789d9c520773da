"""Helpers for the Tchin Tchin referee tests: a table from a short description, events as dicts."""

from __future__ import annotations

from typing import Any

from models.tchin_tchin import Buzz, Options, Referee, Table, Tick, Toast

FOUR = "FR JP MX RU"
SIX = "DE EN FR JP MX RU"


def referee(chars: str = FOUR, deck: tuple[str, ...] | list[str] = ("D24",), first: int = 1,
            **options: Any) -> Referee:
    """Stations 1.. get the codes in ``chars`` in order (seats clockwise)."""
    table = Table({i + 1: c for i, c in enumerate(chars.split())}, tuple(deck), first)
    ref = Referee(table, Options(**options))
    ref.start()
    return ref


def press(ref: Referee, t: float, *stations: int) -> list[dict[str, Any]]:
    return [h.as_dict() for h in ref.apply(Buzz(t, tuple(stations)))]


def say(ref: Referee, t: float, end: float, word: str) -> list[dict[str, Any]]:
    return [h.as_dict() for h in ref.apply(Toast(t, end, word))]


def tick(ref: Referee, t: float) -> list[dict[str, Any]]:
    return [h.as_dict() for h in ref.apply(Tick(t))]


def named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == name]


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["event"] for e in events]


def win_card(ref: Referee, station: int, word: str, t: float) -> list[dict[str, Any]]:
    """``station`` claims at ``t`` saying ``word`` and nobody vetoes: every event up to the win."""
    out = press(ref, t, station)
    out += say(ref, t + 0.1, t + 0.5, word)
    out += tick(ref, t + 0.5 + ref.options.veto_s)
    return out
