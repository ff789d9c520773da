"""The desktop simulator's keyboard and LEDs.

Keys 1-8 are the buzzers, the arrows, Enter and Backspace the menu pad; T lets
you type a toast when no microphone is wanted: Enter says it, or a key 1-8 says
it and presses that buzzer at the same instant (a gesture, a toast and a press).
The toast is said at the instant it is sent, and the referee judges it as it
judges a spoken one. Presses and releases are stamped on ``time.monotonic``
when the key event is read.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from hardware.buttons import ButtonEvent
from hardware.display.colours import STATION_COLOURS
from hardware.display.fonts import font_path

NAV_KEYS = {"left": "prev", "up": "prev", "right": "next", "down": "next",
            "return": "ok", "enter": "ok", "backspace": "back", "escape": "back"}


@dataclass(frozen=True)
class TypedToast:
    """A toast typed on the keyboard, as if the recogniser had heard it said at ``t``."""

    t: float
    text: str


class Keyboard:
    """Turns pygame key events into the box's button events, and pushes them as the panel
    does: each :class:`ButtonEvent` to ``on_event``, each typed toast to ``on_toast``."""

    def __init__(self, on_event: Callable[[ButtonEvent], None] | None = None,
                 on_toast: Callable[[TypedToast], None] | None = None) -> None:
        self.typing: str | None = None
        self.on_event = on_event
        self.on_toast = on_toast

    def handle(self, event: Any) -> None:
        """One window event: push what it means (nothing, for a key that is not the box's)."""
        for ev in self.translate(event):
            if isinstance(ev, TypedToast):
                if self.on_toast is not None:
                    self.on_toast(ev)
            elif self.on_event is not None:
                self.on_event(ev)

    def translate(self, event: Any) -> list[ButtonEvent | TypedToast]:
        import pygame as pg

        if event.type not in (pg.KEYDOWN, pg.KEYUP):
            return []
        now = time.monotonic()
        down = event.type == pg.KEYDOWN
        name = pg.key.name(event.key)
        if self.typing is not None:
            if not down:
                return []
            if name in ("return", "enter"):
                text, self.typing = self.typing, None
                return [TypedToast(now, text)] if text.strip() else []
            shifted = bool(event.unicode) and event.unicode != name  # "!" is Shift+1: typed, not a buzzer
            if name in [str(i) for i in range(1, 9)] and not shifted:  # say it and press at once
                text, self.typing = self.typing, None
                said: list[ButtonEvent | TypedToast] = [TypedToast(now, text)] if text.strip() else []
                return said + [ButtonEvent(now, True, station=int(name))]
            if name == "escape":
                self.typing = None
            elif name == "backspace":
                self.typing = self.typing[:-1]
            elif event.unicode and event.unicode.isprintable():
                self.typing += event.unicode
            return []
        if name in [str(i) for i in range(1, 9)] and not getattr(event, "repeat", False):
            return [ButtonEvent(now, down, station=int(name))]
        if name in NAV_KEYS:
            return [ButtonEvent(now, down, nav=NAV_KEYS[name])]
        if name == "t" and down:
            self.typing = ""
        return []


def band_height(screen_height: int) -> int:
    """The LED band's height under a screen this tall (its text as big as the screen's smallest)."""
    return max(44, round(56 * screen_height / 720))


class SimLeds:
    """The LED strip drawn along the bottom of the simulator window."""

    FLASH_S = 0.5

    def __init__(self, stations: int = 8) -> None:
        self.states = {s: "off" for s in range(1, stations + 1)}
        self.flash_until: dict[int, float] = {}

    def set(self, station: int, state: str) -> None:
        if station not in self.states:
            return
        if state == "flash":  # drawn fast for a moment over the steady state
            self.flash_until[station] = time.monotonic() + self.FLASH_S
            return
        self.states[station] = state

    def draw(self, band: Any, typing: str | None = None, blink_on: bool | None = None) -> None:
        """Draw the LEDs (and the toast being typed) in the band below the scene; a blinking
        LED is drawn lit when ``blink_on`` (default: half the time)."""
        import pygame as pg

        pg.font.init()
        band.fill((12, 12, 16))
        w, h = band.get_size()
        r = max(6, h // 3)
        font = pg.font.Font(font_path(), max(14, h // 2))
        now = time.monotonic()
        if blink_on is None:
            blink_on = int(now * 4) % 2 == 0
        for s, state in self.states.items():
            x = 12 + r + (s - 1) * (2 * r + 14)
            lit = state == "on" or (state == "blink" and blink_on)
            if self.flash_until.get(s, 0.0) > now:
                lit = int(now * 12) % 2 == 0
            colour = STATION_COLOURS[s - 1] if lit else (50, 50, 60)
            pg.draw.circle(band, colour, (x, h // 2), r)
            label = font.render(str(s), True, (20, 20, 20) if lit else (150, 150, 160))
            band.blit(label, label.get_rect(center=(x, h // 2)))
        hint = (f"toast: {typing}_   (Enter says it, 1-8 says it and buzzes)" if typing is not None
                else "1-8 buzzers \u00b7 arrows, Enter, Backspace: pad \u00b7 T: toast")
        img = font.render(hint, True, (240, 240, 240) if typing is not None else (170, 170, 180))
        band.blit(img, img.get_rect(midright=(w - 12, h // 2)))
