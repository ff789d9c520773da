"""Raise Your Goblets for the README and the benchmark: scenes made by driving the real flow,
and complete bot games per second."""

from __future__ import annotations

import random
from typing import Any

from controller.clock import ManualClock
from controller.flow import FlowContext, Input
from controller.games.goblets.flow import GobletsFlow
from hardware.display.widgets import Scene
from models.goblets import to_dict
from models.goblets.bots import choose_action

DEMO_HEADER: dict[str, Any] = {
    "game": "goblets", "seed": 11, "players": 5, "host": 5,
    "options": {"variants": [], "characters": True},
    "characters": {"1": "Sommelier", "2": "Toastmaster", "3": "Glutton", "4": "Ogre Cook",
                   "5": "Taster"},
    "goblets": ["wine", "poison", "wine", "antidote", "poison"],
}


def _flow() -> tuple[GobletsFlow, ManualClock, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    clock = ManualClock()
    flow = GobletsFlow(FlowContext(clock=clock, rng=random.Random(DEMO_HEADER["seed"]),
                                   sink=events.append), dict(DEMO_HEADER))
    flow.start()
    return flow, clock, events


#: the LEDs at each scene of the last demo (the README's pictures show them under the screen)
LEDS: dict[str, dict[int, str]] = {}


def demo_scenes() -> list[tuple[str, Scene]]:
    """The table, a private pour and the Toast's reveal, from a scripted game on the real flow."""
    flow, clock, _ = _flow()
    t = 0.0
    LEDS.clear()

    def lit() -> dict[int, str]:
        return dict(flow.ctx.leds.states)  # type: ignore[attr-defined]

    def feed(**kw: Any) -> None:
        nonlocal t
        t += 0.5
        clock.advance_to(t)
        flow.handle(Input(t=t, **kw))

    def do(action: dict[str, Any]) -> None:
        feed(kind="do", action=action)

    do({"type": "pour", "seat": 1, "token": "wine", "goblet": 1})
    do({"type": "pour", "seat": 1, "token": "poison", "goblet": 3})
    do({"type": "rotate", "seat": 2, "direction": "cw"})
    do({"type": "pour", "seat": 2, "token": "antidote", "goblet": 2})
    out = [("table", flow.scene())]
    LEDS["table"] = lit()
    feed(kind="press", station=3)  # seat 3 holds its buzzer: its private menu opens
    feed(kind="nav", nav="ok")  # Pour
    feed(kind="nav", nav="next")  # Poison
    out.append(("private-pour", flow.scene()))
    LEDS["private-pour"] = lit()
    feed(kind="release", station=3)
    # everyone empties their wine and seat 3 calls the Toast; then final actions pass
    while flow.engine.state.course == 1:
        eng = flow.engine
        step = eng.step
        assert step is not None
        unit = eng.state.units[step.unit]
        if step.kind == "turn" and step.seat == 3 and not step.acted and \
                unit.screen["wine"] == 0 and eng.state.phase == "turns":  # type: ignore[index]
            do({"type": "toast", "seat": 3})
        elif step.kind == "turn" and unit.screen["wine"]:  # type: ignore[index]
            do({"type": "pour", "seat": step.seat, "token": "wine", "goblet": unit.place})
        else:
            do({"type": "pass", "seat": step.seat})
    out.append(("toast-reveal", flow.scene()))
    LEDS["toast-reveal"] = lit()
    rng = random.Random(5)  # the rest of the game, played by the box's own player
    while not flow.finished:
        do(to_dict(choose_action(flow.engine, rng)))
    out.append(("end", flow.scene()))
    return out
