"""The README's screenshots: real screens of the box, drawn headless.

The menus come from a real :class:`~controller.shell.Shell` driven with the
pad; each game in the registry adds its own scenes through its ``demo.demo_scenes()``,
which drives the real game flow with scripted inputs.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from controller.games import built_in
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
    for game in built_in():
        try:
            demo = game.demo()
            if demo is None:
                continue
            shots = demo()
        except Exception as exc:  # a game being repaired must not stop the others' screens
            log.error("no screenshots for %s: %s", game.package, exc)
            continue
        prefix = game.package.replace("_", "-")
        out += [(f"{prefix}-{name}", scene) for name, scene in shots]
    return out


def write_all(out_dir: Path, size: tuple[int, int] = (1280, 720)) -> list[Path]:
    from hardware.display.render import Renderer

    renderer = Renderer(size, "headless")
    paths = []
    for name, scene in shell_scenes() + game_scenes():
        renderer.draw(scene)
        paths.append(renderer.save_png(out_dir / f"{name}.png"))
    return paths
