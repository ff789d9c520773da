"""Cheers driven for real on a manual clock: README screenshots and scripted checks.

:class:`ScriptedTable` builds the real flow (``FlowContext`` with a
``ManualClock`` and ``random.Random(seed)``) and feeds it inputs, like
``clinkbox replay``. :func:`demo_scenes` plays a short game through the menus
and returns the public table, a private turn and a cheers.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from controller.clock import ManualClock
from controller.flow import FlowContext, Input
from controller.games.cheers.flow import CheersFlow
from hardware.display.widgets import Scene
from models.cheers.bots import Bot

DEMO_HEADER: dict[str, Any] = {
    "game": "cheers", "seed": 2024, "players": 4, "options": {"split": "2+2"},
    "teams": {"A": [1, 3], "B": [2, 4]},
    "goals": {"A": ["grenadine", "grenadine", "mint", "mint", "lemon"],
              "B": ["cassis", "cassis", "curacao", "curacao", "lemon"]},
    # seat 1: Grenadine/mint, Mint/mint, Lemon/grenadine; seat 2: Cassis/lemon, ...
    "deck": ["C03", "C13", "C21", "C35", "C45", "C49", "C11", "C25", "C31", "C41", "C07", "C29"],
    "first": 1,
}


class ScriptedTable:
    """The real Cheers flow on a manual clock; ``events`` collects what it emits."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.events: list[dict[str, Any]] = []
        self.clock = ManualClock()
        self.ctx = FlowContext(clock=self.clock, rng=random.Random(header.get("seed", 0)),
                               sink=self.events.append)
        self.flow = CheersFlow(self.ctx, header)
        self.flow.start()
        self.t = 0.0

    def feed(self, kind: str, value: Any = None, dt: float = 0.5) -> None:
        """One input ``dt`` seconds after the last: press/release (station), nav, do (action)."""
        self.t += dt
        self.clock.advance_to(self.t)
        if kind in ("press", "release"):
            self.flow.handle(Input(self.t, kind, station=int(value)))
        elif kind == "nav":
            self.flow.handle(Input(self.t, "nav", nav=str(value)))
        elif kind == "do":
            self.flow.handle(Input(self.t, "do", action=value))
        else:
            raise ValueError(f"unknown input kind {kind!r}")

    def navs(self, *buttons: str) -> None:
        for b in buttons:
            self.feed("nav", b)

    def skip_to_table(self) -> None:
        """OK on the seating screen, then every seat skips its goal reveal."""
        self.feed("nav", "ok")
        for _ in range(self.flow.setup.players):
            self.feed("nav", "next")

    def named(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == event]


#: the LEDs at each scene of the last demo (the README's pictures show them under the screen)
LEDS: dict[str, dict[int, str]] = {}


def demo_scenes() -> list[tuple[str, Scene]]:
    """The public table, a private turn and a cheers, from a real game played via the pad."""
    table = ScriptedTable(DEMO_HEADER)
    table.skip_to_table()
    LEDS.clear()
    table.feed("press", 1)
    table.navs("ok", "next", "ok")           # play Mint/mint ...
    table.navs("next", "next", "next", "ok")  # ... in front of seat 4
    table.feed("release", 1)
    table.feed("do", {"type": "play", "seat": 2, "card": "C35", "to": 2})
    table.feed("do", {"type": "play", "seat": 3, "card": "C25", "to": 4})
    table.feed("do", {"type": "push", "seat": 4, "card": "C25", "to": 1})
    public = table.flow.scene()
    LEDS["table"] = dict(table.ctx.leds.states)  # type: ignore[attr-defined]
    table.feed("press", 1)
    table.navs("ok", "next")                 # about to play Lemon/grenadine
    turn = table.flow.scene()
    LEDS["turn"] = dict(table.ctx.leds.states)  # type: ignore[attr-defined]
    table.navs("ok", "next", "next", "ok")   # ... in front of seat 3
    table.feed("release", 1)
    table.feed("do", {"type": "play", "seat": 2, "card": "C45", "to": 1})  # its lemon clinks a Lemon
    table.feed("press", 1)
    cheers = table.flow.scene()
    LEDS["cheers"] = dict(table.ctx.leds.states)  # type: ignore[attr-defined]
    table.feed("release", 1)
    bot = Bot(random.Random(3))  # the rest of the game, played by the box's own player
    while not table.flow.finished:
        table.feed("do", bot.choose(table.flow.state).to_dict())
    return [("table", public), ("turn", turn), ("cheers", cheers), ("end", table.flow.scene())]


def render_demo(folder: str | Path = "/tmp") -> list[Path]:
    """Render :func:`demo_scenes` as PNGs (headless pygame) and return their paths."""
    from hardware.display.render import render_png

    return [render_png(scene, Path(folder) / f"cheers_{name}.png") for name, scene in demo_scenes()]
