"""A tiny game used to test the core without any real game: "countdown".

Each press starts a 2 s timer that emits ``ring``; a ``say`` is echoed as ``heard``;
three rings end the game.
"""

from __future__ import annotations

from controller.flow import GameFlow, Input
from controller.games import register
from hardware.display.widgets import Scene, Text


@register
class Countdown(GameFlow):
    game = "countdown-test"
    title = "Countdown"

    def start(self) -> None:
        self.rings = 0
        self.done = False
        self.ctx.emit("ready", players=self.header["players"], coin=self.ctx.rng.randrange(1000))

    def handle(self, inp: Input) -> None:
        if self.done:
            return
        if inp.kind == "press":
            station = inp.station
            self.ctx.emit("armed", station=station)
            self.ctx.clock.call_at(inp.t + 2.0, lambda: self._ring(station))
        elif inp.kind == "say":
            self.ctx.emit("heard", word=inp.word, end=inp.end)
        elif inp.kind == "nav":
            self.ctx.emit("nav", button=inp.nav)

    def _ring(self, station: int | None) -> None:
        if self.done:
            return
        self.rings += 1
        self.ctx.emit("ring", station=station)
        if self.rings >= 3:
            self.done = True
            self.ctx.emit("game_over")

    def scene(self) -> Scene:
        return Scene("Countdown", (Text(f"rings: {self.rings}"),))

    @property
    def finished(self) -> bool:
        return self.done
