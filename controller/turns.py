"""What the turn-based games share: how inputs are routed.

A ``do`` line goes straight to the engine; a buzzer press (not contact bounce) opens
(or answers) a private view; its release closes it; the pad drives the open view's menus. After
the game is over a ``do`` still reaches the engine, which refuses it by name.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from controller.debounce import Debounce
from controller.flow import FlowContext, GameFlow, HeaderError, Input
from controller.privacy import PrivateGate
from models.base import IllegalAction


def bots_from_header(header: dict[str, Any], game: str, players: int) -> frozenset[int]:
    """The seats the box plays itself (a header's ``bots``: a list of seats 1 to ``players``);
    a :class:`HeaderError` names a bad list."""
    bots = header.get("bots", [])
    if not isinstance(bots, list) or any(
            not isinstance(b, int) or isinstance(b, bool) or not 1 <= b <= players for b in bots):
        raise HeaderError(f"{game}: 'bots' must list seats 1-{players}, got {bots!r}")
    return frozenset(bots)


class TurnBasedFlow(GameFlow):
    gate: PrivateGate | None = None

    def __init__(self, ctx: FlowContext, header: dict[str, Any]) -> None:
        super().__init__(ctx, header)
        self.debounce = Debounce()

    def handle(self, inp: Input) -> None:
        if self.finished:
            if inp.kind == "do":
                self._do(inp.action)  # refused by the engine: the game is over, nothing changes
            return
        if inp.kind == "do":
            self._do(inp.action)
        elif inp.kind == "press" and inp.station is not None:
            if self.debounce.press(inp.station, inp.t):
                self.ctx.emit("ignored", station=inp.station, reason="bounce")
            else:
                self._press(inp.station)
        elif inp.kind == "release" and inp.station is not None:
            self.debounce.release(inp.station, inp.t)
            if self.gate is not None:
                self.gate.release(inp.station)
        elif inp.kind == "nav" and inp.nav is not None:
            self._nav(inp.nav)
        self._leds()

    def _illegal(self, raw: Any, exc: IllegalAction) -> None:
        """An action the engine refused: said, with its reason; nothing changed."""
        seat = raw.get("seat") if isinstance(raw, dict) else None
        self.ctx.emit("illegal", seat=seat, error=type(exc).__name__, reason=exc.reason, do=raw)
        self.ctx.sound.play("error")

    @abstractmethod
    def _do(self, action: dict[str, Any] | None) -> None: ...

    @abstractmethod
    def _press(self, station: int) -> None: ...

    @abstractmethod
    def _nav(self, button: str) -> None: ...

    @abstractmethod
    def _leds(self) -> None: ...
