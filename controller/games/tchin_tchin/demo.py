"""Tchin Tchin's screens for the README: a short scripted game played on the real flow."""

from __future__ import annotations

import random

from controller.clock import ManualClock
from controller.flow import FlowContext, Input
from controller.games.tchin_tchin.flow import TchinTchinFlow
from hardware.display.widgets import Scene

#: the LEDs at each scene of the last demo (the README's pictures show them under the screen)
LEDS: dict[str, dict[int, str]] = {}
#: a toast being typed on the simulator's keyboard at a scene (the T key)
TYPING: dict[str, str] = {}


def demo_scenes() -> list[tuple[str, Scene]]:
    """Scenes for the README: a reveal, a claim, a veto, a Middleman duel and the end screen,
    made by playing a short scripted game on the real flow."""
    clock = ManualClock()
    ctx = FlowContext(clock=clock, rng=random.Random(1), sink=lambda ev: None)
    flow = TchinTchinFlow(ctx, {
        "game": "tchin-tchin", "seed": 1, "players": 6, "options": {"events": True},
        "characters": {"1": "DE", "2": "EN", "3": "FR", "4": "JP", "5": "MX", "6": "RU"},
        "deck": ["D24", "M1", "D05"], "first": 1})
    flow.start()
    shots: list[tuple[str, Scene]] = []
    LEDS.clear()
    TYPING.clear()

    def shot(name: str) -> None:
        shots.append((name, flow.scene()))
        LEDS[name] = dict(ctx.leds.states)  # type: ignore[attr-defined]

    def feed(t: float, kind: str, station: int | None = None, word: str | None = None,
             end: float | None = None) -> None:
        clock.advance_to(t)
        flow.handle(Input(t, kind, station=station, word=word, end=end))

    feed(0.5, "press", 1)
    feed(0.6, "release", 1)
    clock.advance_to(1.2)
    shot("reveal")
    feed(1.25, "press", 5)
    clock.advance_to(1.5)
    shot("claim")  # listening: the claimant's toast is being said (typed here, with T)
    TYPING["claim"] = "na zdorovie"
    feed(1.5, "say", word="na zdorovie", end=1.7)
    clock.advance_to(2.6)
    feed(2.6, "press", 1)
    clock.advance_to(2.7)
    shot("veto")
    feed(2.7, "release", 1)
    feed(3.0, "press", 6)  # ignored: a veto window is open and 6 is invited
    feed(3.1, "release", 6)
    clock.advance_to(7.0)
    feed(7.0, "press", 5)  # the winner reveals Middleman!: a duel between 4 and 6
    feed(7.1, "release", 5)
    clock.advance_to(8.0)
    shot("middleman")
    feed(8.5, "press", 6)
    feed(8.6, "say", word="kanpai", end=9.0)
    feed(8.7, "release", 6)
    clock.advance_to(13.0)
    feed(13.0, "press", 6)
    feed(13.1, "release", 6)
    feed(13.5, "press", 3)
    feed(13.6, "say", word="tchin tchin", end=14.0)
    clock.run_all()
    shot("end")
    return shots
