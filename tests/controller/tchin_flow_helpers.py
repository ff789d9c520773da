"""Drive the Tchin Tchin flow through the real replay runner (manual clock, seeded random)."""

from __future__ import annotations

import json
from typing import Any

from controller import replay

OPTIONS = {"events": False, "pre_s": 1.0, "window_s": 2.5, "veto_s": 3.0, "card_timeout_s": 20.0,
           "auto_reveal_s": None, "bounce_s": 0.02}
FOUR = {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}


def header(**over: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"game": "tchin-tchin", "seed": 7, "players": 4, "options": dict(OPTIONS),
                         "characters": dict(FOUR), "deck": ["D24", "D05"], "first": 1}
    opts = over.pop("options", {})
    h["options"].update(opts)
    h.update(over)
    return {k: v for k, v in h.items() if v is not None}


def run(lines: list[dict[str, Any]], **over: Any) -> list[dict[str, Any]]:
    """Replay ``lines`` (input dicts) after a header; every printed event, parsed back."""
    text = [json.dumps(header(**over))] + [json.dumps(x) for x in lines]
    h, inputs = replay.load(text, "test.jsonl")
    out: list[dict[str, Any]] = []
    replay.run(h, inputs, lambda ev: out.append(json.loads(replay.dumps(ev))))
    return out


def named(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == name]


def decisions(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """(t, event, station) for every event that names a station."""
    return [(e["t"], e["event"], e.get("station")) for e in events if "station" in e]
