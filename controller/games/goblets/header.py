"""Raise Your Goblets set-up questions (players, variants, characters) and the header."""

from __future__ import annotations

from typing import Any

from controller.flow import HeaderError, Question
from models.goblets.setup import SetupError, options_from_header

ON_OFF = [("Off", False), ("On", True)]


def _banquet(answers: dict[str, Any]) -> bool:
    return int(answers.get("players", 4)) >= 4


def setup_questions(settings: dict[str, Any]) -> list[Question]:
    """What the host answers with the pad before a game of Raise Your Goblets."""
    players = [(f"{n}" + (" (Russian Goblette)" if n <= 3 else " (Winetasters)" if n >= 7
                          else ""), n) for n in range(2, 13)]
    return [
        Question("players", "How many players?", players, default=settings.get("players", 4)),
        Question("characters", "Character cards?", [("On", True), ("Off", False)],
                 when=_banquet, default=True),
        Question("memory", "Raise Your Memory (no coaster colours)?", ON_OFF, when=_banquet,
                 default=False),
        Question("legacy", "Legacy (the poisoned draw a new character)?", ON_OFF,
                 when=_banquet, default=False),
    ]


def header_from_answers(answers: dict[str, Any], seed: int, settings: dict[str, Any]) -> \
        dict[str, Any]:
    """The replay header for the answers; Russian Goblette and Winetasters follow the count."""
    variants = [v for v in ("memory", "legacy") if answers.get(v)]
    header = {"game": "goblets", "seed": seed, "players": int(answers["players"]),
              "options": {"variants": variants,
                          "characters": bool(answers.get("characters", True))}}
    check_header(header)
    return header


def check_header(header: dict[str, Any]) -> None:
    """Raise :class:`HeaderError` naming what the game cannot start from."""
    try:
        options_from_header(header)
    except SetupError as exc:
        raise HeaderError(f"goblets: {exc}") from None
