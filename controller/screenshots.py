"""The README's screenshots: real screens of the box, drawn headless.

The menus come from a real :class:`~controller.shell.Shell` driven with the
pad; each game adds its own scenes through its module's ``demo_scenes()``,
which drives the real game flow with scripted inputs.
"""

from __future__ import annotations

import importlib
import logging
import tempfile
from pathlib import Path

from controller.journal import Journal
from controller.shell import Shell
from hardware.display.widgets import Scene

log = logging.getLogger(__name__)


def shell_scenes() -> list[tuple[str, Scene]]:
    with tempfile.TemporaryDirectory() as tmp:
        shell = Shell(Journal(Path(tmp) / "j.sqlite3"))
        out = [("main-menu", shell.scene())]
        for button in ("next", "next", "next", "ok"):  # down to Settings, open it
            shell.nav(button)
        out.append(("settings", shell.scene()))
        return out


def game_scenes() -> list[tuple[str, Scene]]:
    out: list[tuple[str, Scene]] = []
    for game in ("tchin_tchin", "cheers", "goblets"):
        demo = None
        for name in (f"controller.games.{game}", f"controller.games.{game}_demo"):
            try:
                demo = getattr(importlib.import_module(name), "demo_scenes", None)
            except ModuleNotFoundError:
                continue
            except Exception as exc:  # a game being repaired must not stop the others' screens
                log.error("no screenshots for %s: %s", game, exc)
            if demo is not None:
                break
        if demo is None:
            continue
        prefix = game.replace("_", "-")
        out += [(f"{prefix}-{name}", scene) for name, scene in demo()]
    return out


def write_all(out_dir: Path, size: tuple[int, int] = (1280, 720)) -> list[Path]:
    from hardware.display.render import Renderer

    renderer = Renderer(size, "headless")
    paths = []
    for name, scene in shell_scenes() + game_scenes():
        renderer.draw(scene)
        paths.append(renderer.save_png(out_dir / f"{name}.png"))
    return paths
