"""The README's screenshots: real screens of the box, drawn headless.

The menus come from a real :class:`~controller.shell.Shell` driven with the
pad; each game in the registry adds its own scenes through its ``demo.demo_scenes()``,
which drives the real game flow with scripted inputs. A demo module may also keep the
LEDs of each scene in ``LEDS`` (and a toast being typed in ``TYPING``): those pictures
show the simulator's LED band under the screen, as the box's players see their buzzers.
"""

from __future__ import annotations

import importlib
import logging
import tempfile
from dataclasses import replace
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
        out += [(f"{prefix}-{name}", as_on_the_box(name, scene)) for name, scene in shots]
    return out


def as_on_the_box(name: str, scene: Scene) -> Scene:
    """A game's scene as the box draws it: the end screen with what to do next under it, every
    other with the hold-Back-to-leave ring in its footer."""
    from controller import party

    if name == "end":
        return party.end_scene(scene, party.end_menu())
    return replace(scene, hold=0.0)


def leds_of(name: str) -> tuple[dict[int, str], str | None] | None:
    """The LEDs (and a toast being typed) a game's demo kept for its scene ``name``."""
    for game in built_in():
        prefix = game.package.replace("_", "-") + "-"
        if not name.startswith(prefix):
            continue
        try:
            module = importlib.import_module(f"controller.games.{game.package}.demo")
        except ImportError:
            return None
        shot = name[len(prefix):]
        leds = getattr(module, "LEDS", {}).get(shot)
        return (leds, getattr(module, "TYPING", {}).get(shot)) if leds is not None else None
    return None


def write_all(out_dir: Path, size: tuple[int, int] = (1280, 720)) -> list[Path]:
    from hardware.display.render import Renderer
    from hardware.simulator import SimLeds, band_height

    plain = Renderer(size, "headless")
    banded = Renderer(size, "headless", reserve_bottom=band_height(size[1]))
    paths = []
    for name, scene in shell_scenes() + game_scenes():
        leds = leds_of(name)
        if leds is None:
            plain.draw(scene)
            paths.append(plain.save_png(out_dir / f"{name}.png"))
            continue
        banded.draw(scene)
        band = SimLeds(8)
        for station, state in leds[0].items():
            band.set(station, state)
        assert banded.band is not None
        band.draw(banded.band, leds[1], blink_on=True)
        paths.append(banded.save_png(out_dir / f"{name}.png", band=True))
    return paths
