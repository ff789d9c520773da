"""Cheers' game header: set-up questions, and the header turned into a dealt table.

Header (replay line 1)::

    {"game": "cheers", "seed": 7, "players": 4,
     "options": {"split": "2+2", "masquerade": false, "turn_cap": null},
     "teams": {"A": [1, 3], "B": [2, 4]},          # optional; or {"1": "A", "2": "B", ...}
     "goals": {"A": ["mint", "mint", "lemon", "cassis", "cassis"]},   # optional, per team
     "deck": ["C17", "C04", ...],                  # optional draw order, top first
     "first": 2}                                   # optional first player's seat

or, instead of ``first``, ``"first_station": 3``: the first player is whoever is at buzzer 3
when the game is set up (the host's pick of who had a drink most recently), at the seat the
seating gives them.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from controller.flow import HeaderError, Question, first_unknown
from controller.menu import OFF_ON
from models.cheers.setup import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SPLITS,
    Setup,
    SetupError,
    build_setup,
    default_split,
    seat_teams,
)

OPTION_KEYS = ("split", "masquerade", "turn_cap", "view_timeout_s")
HEADER_KEYS = ("game", "seed", "players", "options", "teams", "goals", "deck", "first",
               "first_station", "bots")
RANDOM = "random"
DEFAULT_VIEW_TIMEOUT_S = 45.0


def setup_questions(settings: dict[str, Any]) -> list[Question]:
    """Players, the team split where the seed gives a choice (5 and 6), Masquerade."""
    default_players = settings.get("players")
    if not isinstance(default_players, int) or isinstance(default_players, bool):
        default_players = 4
    default_players = min(max(default_players, MIN_PLAYERS), MAX_PLAYERS)  # the nearest count
    return [
        Question("players", "How many players?",
                 [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], default=default_players),
        Question("split", "Teams?",
                 lambda a: [(f"{s.replace('+', ' + ')} ({len(s.split('+'))} teams)", s)
                            for s in SPLITS[a["players"]]],
                 when=lambda a: len(SPLITS.get(a.get("players", 0), ())) > 1),
        Question("masquerade", "Masquerade (secret teams)?", OFF_ON, default=False),
        Question("bots", "Seats the box plays?", bot_choices, default=0),
        Question("first", "Who had a drink last? They start", first_choices,
                 default=RANDOM),
    ]


def first_choices(answers: dict[str, Any]) -> list[tuple[str, Any]]:
    """Random, or the player at a buzzer (the box's seats are not offered: nobody sits there)."""
    players = int(answers.get("players", MIN_PLAYERS))
    box = set(bot_seats(players, int(answers.get("bots") or 0)))
    return [("draw at random", RANDOM)] + [(f"buzzer {s}", s) for s in range(1, players + 1)
                                           if s not in box]


def bot_choices(answers: dict[str, Any]) -> list[tuple[str, int]]:
    """None, or the last one, two, ... seats (at least one seat stays a player's)."""
    players = int(answers.get("players", MIN_PLAYERS))
    return [("none: everyone plays", 0)] + [
        (f"the last seat ({players})" if n == 1 else f"the last {n} seats ({players - n + 1}-{players})", n)
        for n in range(1, players)]


def bot_seats(players: int, count: int) -> list[int]:
    """The stations nobody sits at: the last ``count`` (the players take the first ones)."""
    return list(range(players - count + 1, players + 1)) if count else []


def header_from_answers(answers: dict[str, Any], seed: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The header for the set-up answers; the box's seats are the last ones.

    House rule: with seats the box plays, the teams go by the seats (in the split's order, or
    drawn in secret under Masquerade) instead of a drawn seating, so the players keep their buzzers and the box
    keeps the seats the host gave it (a drawn seating moved a lone player to another buzzer)."""
    players = int(answers["players"])
    options = {k: v for k, v in answers.items() if k in OPTION_KEYS}
    header: dict[str, Any] = {"game": "cheers", "seed": seed, "players": players, "options": options}
    bots = bot_seats(players, int(answers.get("bots") or 0))
    if answers.get("first") not in (None, RANDOM):
        header["first_station"] = int(answers["first"])
    if bots:
        header["bots"] = bots
        # under Masquerade the teams are still drawn (in secret), but onto the seats as they
        # are: a drawn seating would move the players off the buzzers the host left them
        split = options.get("split") or default_split(players)
        header["teams"] = {str(seat): team for seat, team in
                           seat_teams(split, bool(options.get("masquerade")), random.Random(seed)).items()}
    return header


def _get(header: dict[str, Any], key: str) -> Any:
    options = header.get("options") or {}
    return options[key] if key in options else header.get(key)


def parse_header(header: dict[str, Any], rng: random.Random) -> tuple[Setup, float]:
    """The table the header describes (drawing from ``rng`` what it leaves open), and the
    private-view timeout. Any problem is a :class:`HeaderError` that names it."""
    options = header.get("options") or {}
    if not isinstance(options, dict):
        raise HeaderError("cheers: 'options' must be an object")
    # the table's fixed deal may also sit in the options (docs/rules/cheers.md)
    allowed = OPTION_KEYS + ("teams", "goals", "deck", "first")
    if (key := first_unknown(options, allowed)) is not None:
        raise HeaderError(f"cheers: unknown option {key!r} (known: {', '.join(allowed)})")
    if (key := first_unknown(header, HEADER_KEYS)) is not None:
        raise HeaderError(f"cheers: unknown header field {key!r}")
    masquerade = _get(header, "masquerade") or False
    if not isinstance(masquerade, bool):
        raise HeaderError(f"cheers: 'masquerade' must be true or false, not {masquerade!r}")
    timeout = _get(header, "view_timeout_s")
    timeout = DEFAULT_VIEW_TIMEOUT_S if timeout is None else timeout
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0:
        raise HeaderError(f"cheers: 'view_timeout_s' must be a positive number, not {timeout!r}")
    teams, goals, deck = _get(header, "teams"), _get(header, "goals"), _get(header, "deck")
    if teams is not None and not isinstance(teams, dict):
        raise HeaderError("cheers: 'teams' must be an object, {\"A\": [seats], ...} or {\"1\": \"A\", ...}")
    if goals is not None and not isinstance(goals, dict):
        raise HeaderError("cheers: 'goals' must be an object, {\"A\": [5 ingredients], ...}")
    if deck is not None and not isinstance(deck, list):
        raise HeaderError("cheers: 'deck' must be a list of card ids, top first")
    first, first_station = _get(header, "first"), header.get("first_station")
    if first is not None and first_station is not None:
        raise HeaderError("cheers: give 'first' (a seat) or 'first_station' (a buzzer), not both")
    players = header.get("players")
    if first_station is not None and (not isinstance(first_station, int) or isinstance(first_station, bool)
                                      or not isinstance(players, int) or not 1 <= first_station <= players):
        raise HeaderError(f"cheers: 'first_station' must be a buzzer from 1 to {players}, "
                          f"not {first_station!r}")
    split = _get(header, "split")
    if split is not None and not isinstance(split, str):
        raise HeaderError(f"cheers: 'split' must be text like \"3+2\", not {split!r}")
    try:
        setup = build_setup(
            header.get("players"),  # type: ignore[arg-type]
            rng,
            split=split,
            masquerade=masquerade,
            teams=teams,
            goals=goals,
            deck=deck,
            first=1 if first_station is not None else first,  # drawn last: nothing else moves
            turn_cap=_get(header, "turn_cap"),
        )
    except SetupError as exc:
        raise HeaderError(f"cheers: {exc}") from None
    if first_station is not None:
        setup = replace(setup, first=setup.seat_of_station.get(first_station, first_station))
    return setup, float(timeout)


def public_teams(setup: Setup) -> dict[str, list[int]] | None:
    """Teams as the table may see them (None under Masquerade)."""
    if setup.masquerade:
        return None
    out: dict[str, list[int]] = {}
    for seat, team in sorted(setup.teams.items()):
        out.setdefault(team, []).append(seat)
    return dict(sorted(out.items()))
