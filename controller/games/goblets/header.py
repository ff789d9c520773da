"""Raise Your Goblets set-up questions (players, variants, characters) and its header.

A header (a replay's line 1, or what the set-up questions made) is read here into the
engine's typed set-up (:class:`Options`, the :class:`FixedDeal`, the host)::

    {"game": "goblets", "seed": 3, "players": 5, "host": 1,
     "options": {"variants": ["memory"], "characters": true},
     "characters": {"1": "Juggler"}, "targets": {"1": "McToadery", ...},
     "goblets": ["wine", "poison", ...], "loyalty": {...}, "tie_break": [...]}

``targets``, ``goblets`` and ``loyalty`` may be keyed by course (``{"1": ..., "2": ...}``).
"""

from __future__ import annotations

import random
from typing import Any

from controller.flow import HeaderError, Question, first_unknown
from controller.menu import OFF_ON
from models.goblets.characters import Character
from models.goblets.engine import Game
from models.goblets.houses import House
from models.goblets.setup import FixedDeal, SetupError
from models.goblets.state import RUSSIAN, WINETASTERS, Options
from models.goblets.tokens import Token


def _banquet(answers: dict[str, Any]) -> bool:
    return int(answers.get("players", 4)) >= 4


def setup_questions(settings: dict[str, Any]) -> list[Question]:
    """What the host answers with the pad before a game of Raise Your Goblets."""
    players = [(f"{n}" + (" (Russian Goblette)" if n <= 3 else " (Winetasters)" if n >= 7
                          else ""), n) for n in range(2, 13)]
    return [
        Question("players", "How many players?", players, default=settings.get("players", 4)),
        Question("characters", "Character cards?", OFF_ON, when=_banquet, default=True),
        Question("memory", "Raise Your Memory (no coaster colours)?", OFF_ON, when=_banquet,
                 default=False),
        Question("legacy", "Legacy (the poisoned draw a new character)?", OFF_ON,
                 when=lambda a: _banquet(a) and bool(a.get("characters", True)), default=False),
        Question("bots", "Seats the box plays?", bot_choices, default=0),
    ]


def bot_choices(answers: dict[str, Any]) -> list[tuple[str, int]]:
    """None, or the last one, two, ... seats (at least one seat stays a player's)."""
    players = int(answers.get("players", 4))
    return [("none: everyone plays", 0)] + [
        (f"the last seat ({players})" if n == 1 else f"the last {n} seats ({players - n + 1}-{players})", n)
        for n in range(1, players)]


def header_from_answers(answers: dict[str, Any], seed: int, settings: dict[str, Any]) -> \
        dict[str, Any]:
    """The replay header for the answers; Russian Goblette and Winetasters follow the count."""
    variants = [v for v in ("memory", "legacy") if answers.get(v)]
    players = int(answers["players"])
    header: dict[str, Any] = {"game": "goblets", "seed": seed, "players": players,
                              "options": {"variants": variants,
                                          # Russian Goblette plays without characters
                                          "characters": bool(answers.get("characters", True)) and players >= 4}}
    bots = int(answers.get("bots") or 0)
    if bots:
        header["bots"] = list(range(players - bots + 1, players + 1))
    check_header(header)
    return header


def check_header(header: dict[str, Any]) -> None:
    """Raise :class:`HeaderError` naming what the game cannot start from."""
    try:
        options_from_header(header)
    except SetupError as exc:
        raise HeaderError(f"goblets: {exc}") from None


def game_from_header(header: dict[str, Any], rng: random.Random) -> Game:
    """A game (not yet started) from a header; :class:`SetupError` names what is wrong."""
    options, fixed, host = options_from_header(header)
    return Game(options, rng, fixed, host)


def _seat(raw: Any, players: int, what: str) -> int:
    try:
        seat = int(raw)
    except (TypeError, ValueError):
        raise SetupError(f"{what}: {raw!r} is not a seat number") from None
    if not 1 <= seat <= players:
        raise SetupError(f"{what}: seat {seat} is not at this table (seats 1-{players})")
    return seat


def _by_course(raw: Any) -> dict[int, Any]:
    """A per-course mapping ``{"1": ..., "2": ...}``, or a bare deal meaning course 1."""
    if not raw:
        return {}
    if isinstance(raw, dict) and all(isinstance(v, (dict, list)) for v in raw.values()):
        try:
            return {int(k): v for k, v in raw.items()}
        except ValueError:
            raise SetupError(f"per-course deals are keyed by course number, got {list(raw)}") \
                from None
    return {1: raw}


#: the header's fields and options (a misspelt one would be another game: refused by name)
HEADER_KEYS = ("game", "seed", "players", "options", "host", "characters", "targets", "goblets",
               "loyalty", "tie_break", "bots")
OPTION_KEYS = ("variants", "characters")


def options_from_header(header: dict[str, Any]) -> tuple[Options, FixedDeal, int]:
    """Options, fixed deal and host from a replay header; :class:`SetupError` names what is wrong."""
    if (key := first_unknown(header, HEADER_KEYS)) is not None:
        raise SetupError(f"unknown header field {key!r} (known: {', '.join(HEADER_KEYS)})")
    players = header.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 12:
        raise SetupError(f"players must be a whole number from 2 to 12, got {players!r}")
    opts = header.get("options") or {}
    if not isinstance(opts, dict):
        raise SetupError(f"options must be an object, got {opts!r}")
    if (key := first_unknown(opts, OPTION_KEYS)) is not None:
        raise SetupError(f"unknown option {key!r} (known: {', '.join(OPTION_KEYS)})")
    variants = opts.get("variants", [])
    if not isinstance(variants, list):
        raise SetupError(f"options.variants must be a list, got {variants!r}")
    known = {"memory", "legacy", "russian", "winetasters"}
    for v in variants:
        if v not in known:
            raise SetupError(f"unknown variant {v!r} (known: {', '.join(sorted(known))})")
    options = Options(players, memory="memory" in variants, legacy="legacy" in variants,
                      characters=bool(opts.get("characters", True)))
    if "russian" in variants and options.mode != RUSSIAN:
        raise SetupError(f"Russian Goblette is for 2-3 players, not {players}")
    if "winetasters" in variants and options.mode != WINETASTERS:
        raise SetupError(f"Winetasters is for 7-12 players, not {players}")
    host = _seat(header.get("host", 1), players, "host")
    return options, _fixed(header, options), host


def _fixed(header: dict[str, Any], options: Options) -> FixedDeal:
    n = options.players
    chars: dict[int, Character] = {}
    for seat, name in (header.get("characters") or {}).items():
        try:
            ch = Character.parse(name)
        except ValueError as exc:
            raise SetupError(f"characters: {exc}") from None
        if ch in chars.values():
            raise SetupError(f"characters: {ch.title} is dealt twice (one card of each)")
        chars[_seat(seat, n, "characters")] = ch
    targets: dict[int, dict[int, House]] = {}
    for course, deal in _by_course(header.get("targets") or {}).items():
        try:
            targets[course] = {_seat(s, n, "targets"): House.parse(h) for s, h in deal.items()}
        except (ValueError, AttributeError) as exc:
            raise SetupError(f"targets: {exc}") from None
    goblets: dict[int, list[Token]] = {}
    raw_goblets = header.get("goblets")
    if raw_goblets:
        for course, pours in _by_course(raw_goblets).items():
            try:
                goblets[course] = [Token.parse(t) for t in pours]
            except (ValueError, TypeError) as exc:
                raise SetupError(f"goblets: {exc}") from None
    loyalty: dict[int, dict[int, str]] = {}
    for course, deal in _by_course(header.get("loyalty") or {}).items():
        for card in deal.values():
            if card not in ("loyal", "traitor"):
                raise SetupError(f"loyalty: {card!r} is not a Winetaster card (loyal or traitor)")
        loyalty[course] = {_seat(s, n, "loyalty"): c for s, c in deal.items()}
    tie = header.get("tie_break")
    try:
        tie_tokens = [Token.parse(t) for t in tie] if tie else None
    except (ValueError, TypeError) as exc:
        raise SetupError(f"tie_break: {exc}") from None
    return FixedDeal(chars, targets, goblets, loyalty, tie_tokens)
