"""Setting up Tchin Tchin with the menu pad: players, events, tourist, characters, first revealer.

The shell asks :func:`setup_questions` one by one (each answer is a
:class:`~controller.menu.MenuState` choice) and turns the answers into a game
header with :func:`header_from_answers`; :func:`header_from_menus` does the same
from finished menus.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from controller.flow import Question
from controller.menu import OFF_ON, MenuState
from models.tchin_tchin.actions import Options
from models.tchin_tchin.cards import CHARACTERS, TOURISTS, player_name
from models.tchin_tchin.setup import FOUR_PLAYERS, MAX_PLAYERS, MIN_PLAYERS

RULES = Options()  # the rules page's timings: the one place they are written

RANDOM = "random"


def _players(a: Mapping[str, Any]) -> int:
    return int(a.get("players", MIN_PLAYERS))


def _tourists(a: Mapping[str, Any]) -> list[str]:
    n = _players(a)
    if n == 8:
        return sorted(TOURISTS)
    if n == 7:
        # the host picking the characters with the tourist left to chance picks it too
        return [str(a["tourist"])] if a.get("tourist") in TOURISTS else sorted(TOURISTS)
    return []


def codes_in_play(a: Mapping[str, Any]) -> list[str]:
    """The codes the host may pick from for this many players (5 players: any five of six)."""
    if _players(a) == 4:
        return list(FOUR_PLAYERS)
    return list(CHARACTERS) + _tourists(a)


def _pick_question(station: int) -> Question:
    def choices(a: dict[str, Any]) -> list[tuple[str, Any]]:
        taken = {a.get(f"station_{s}") for s in range(1, station)}
        if taken & set(TOURISTS) and _players(a) == 7:
            taken |= set(TOURISTS)  # one tourist at 7 players
        return [(f"{c}: {player_name(c)}", c) for c in codes_in_play(a) if c not in taken]

    def when(a: dict[str, Any]) -> bool:
        return a.get("characters") == "picked" and station <= _players(a)

    return Question(f"station_{station}", f"Buzzer {station} plays", choices, when=when)


def setup_questions(settings: Mapping[str, Any]) -> list[Question]:
    """The set-up menus, in order; later ones depend on earlier answers."""
    usual = min(max(int(settings.get("players", MIN_PLAYERS) or MIN_PLAYERS), MIN_PLAYERS), MAX_PLAYERS)
    qs = [
        Question("players", "How many players?",
                 [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)], default=usual),
        Question("events", "Event cards?", OFF_ON,
                 default=bool(settings.get("events", False))),
        Question("tourist", "Which tourist joins?",
                 [("draw at random", RANDOM), ("the tourist man", "TM"), ("the tourist woman", "TW")],
                 when=lambda a: _players(a) == 7, default=RANDOM),
        Question("characters", "Characters", [("dealt at random", "dealt"), ("picked by the host", "picked")],
                 default="dealt"),
    ]
    qs += [_pick_question(s) for s in range(1, MAX_PLAYERS + 1)]
    qs.append(Question("intro", "Introduce the players first?",
                       [("yes: each shows their gesture and says their toast", True), ("no", False)],
                       default=True))
    qs.append(Question("first", "Who reveals the first card?",
                       lambda a: [("draw at random", RANDOM)]
                       + [(f"buzzer {s}", s) for s in range(1, _players(a) + 1)], default=RANDOM))
    return qs


def header_from_answers(answers: Mapping[str, Any], seed: int,
                        settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game header for these answers (seats clockwise by buzzer number)."""
    settings = settings or {}
    players = _players(answers)
    auto = settings.get("auto_reveal_s") or None
    header: dict[str, Any] = {
        "game": "tchin-tchin", "seed": seed, "players": players,
        "options": {"events": bool(answers.get("events", settings.get("events", False))),
                    "pre_s": RULES.pre_s, "window_s": RULES.window_s, "veto_s": RULES.veto_s,
                    "card_timeout_s": RULES.card_timeout_s, "auto_reveal_s": auto},
    }
    for key in ("pre_s", "window_s", "veto_s", "card_timeout_s", "bounce_s"):
        if key in settings:
            header["options"][key] = settings[key]
    if answers.get("characters") == "picked":
        header["characters"] = {str(s): answers[f"station_{s}"] for s in range(1, players + 1)}
    elif players == 7 and answers.get("tourist") in TOURISTS:
        # the host chose the tourist: deal the rest at random from the game's seed
        codes = list(CHARACTERS) + [str(answers["tourist"])]
        random.Random(seed).shuffle(codes)
        header["characters"] = {str(s): c for s, c in zip(range(1, players + 1), codes)}
    if answers.get("first") not in (None, RANDOM):
        header["first"] = int(answers["first"])
    if answers.get("intro"):
        header["intro"] = True
    return header


def header_from_menus(menus: Mapping[str, MenuState[Any]], seed: int,
                      settings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The header from finished set-up menus, keyed like the questions ("players", "events", ...)."""
    return header_from_answers({k: m.current.value for k, m in menus.items()}, seed, settings)
