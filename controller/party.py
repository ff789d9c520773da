"""The party around the games: play again with the same players, a quick start with the
last set-up, and leaving a game only once the host has said so.

The last set-up is kept in ``last_game.json`` beside the settings file: the game and the
answers its set-up questions were given (never a seed: each game is dealt afresh).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from controller.flow import Question
from controller.menu import MenuState, menu
from hardware.display.widgets import Banner, Menu, Scene, Text

log = logging.getLogger(__name__)

AGAIN, MAIN, STAY, LEAVE = "again", "main", "stay", "leave"
READY = "ready"  # the set-up question after the player count: start now, or the options first


def ready_question() -> Question:
    return Question(READY, "Start now with the usual options?",
                    [("Start now", True), ("Choose the options first", False)], default=True)


def _path(settings_path: Path | None) -> Path | None:
    return settings_path.with_name("last_game.json") if settings_path is not None else None


def remember(settings_path: Path | None, game: str, answers: dict[str, Any]) -> None:
    """Keep the game and its set-up answers for the next quick start."""
    path = _path(settings_path)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"game": game, "answers": answers}, indent=1))
    except (OSError, TypeError, ValueError) as exc:
        log.warning("last set-up not kept: %s", exc)


def recall(settings_path: Path | None) -> tuple[str, dict[str, Any]] | None:
    """The last game set up and its answers, if they were kept and still read."""
    path = _path(settings_path)
    if path is None or not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        if isinstance(data, dict) and isinstance(data.get("game"), str) and isinstance(data.get("answers"), dict):
            return data["game"], data["answers"]
        raise ValueError("not a game and its answers")
    except (OSError, ValueError) as exc:
        log.warning("last set-up in %s unreadable (%s): no quick start", path, exc)
        return None


def quick_start_label(title: str, answers: dict[str, Any]) -> str:
    players = answers.get("players")
    bots = answers.get("bots")
    box = f", {bots} by the box" if isinstance(bots, int) and not isinstance(bots, bool) and bots > 0 else ""
    return f"Quick start: {title}" + (f", {players} players{box}" if players else "")


def end_menu() -> MenuState[str]:
    return menu("", [("Play again, same players", AGAIN), ("Main menu", MAIN)])


def leave_menu() -> MenuState[str]:
    return menu("Leave this game?", [("No, keep playing", STAY), ("Yes, leave: the game ends here", LEAVE)])


def end_scene(game_scene: Scene, choice: MenuState[str]) -> Scene:
    """The game's end screen with what to do next under it."""
    return Scene(game_scene.title, game_scene.widgets + (choice.widget(),),
                 footer="Prev / Next to move, OK to choose", background=game_scene.background)


def leave_scene(game_scene: Scene, choice: MenuState[str]) -> Scene:
    return Scene(game_scene.title, (Banner("Leave this game?", colour=(150, 60, 40),
                                           subtitle="Nobody wins it; it cannot be resumed"),
                                    Menu(choice.widget().items, choice.cursor),
                                    Text("The game goes on behind this question", size="small")),
                 footer="OK to choose · Back: keep playing", background=game_scene.background)
