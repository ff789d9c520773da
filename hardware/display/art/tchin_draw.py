"""Drawing helpers for the Tchin Tchin card art: a unit square mapped onto a glyph's rectangle."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame as pg

from hardware.display.fonts import font_path

Colour = tuple[int, int, int]
INK: Colour = (35, 30, 30)


class Canvas:
    """Draw in unit coordinates (0..1, y down) inside the biggest centred box of ``aspect``."""

    def __init__(self, surface: Any, rect: Any, aspect: float = 1.0) -> None:
        w, h = rect.width, rect.height
        if w / max(1, h) > aspect:
            w = int(h * aspect)
        else:
            h = int(w / aspect)
        self.s = surface
        self.box = pg.Rect(0, 0, max(1, w), max(1, h))
        self.box.center = rect.center
        self.line = max(2, min(self.box.width, self.box.height) // 40)

    def p(self, x: float, y: float) -> tuple[int, int]:
        return (self.box.left + round(x * self.box.width), self.box.top + round(y * self.box.height))

    def r(self, x: float, y: float, w: float, h: float) -> Any:
        left, top = self.p(x, y)
        return pg.Rect(left, top, max(1, round(w * self.box.width)), max(1, round(h * self.box.height)))

    def rect(self, x: float, y: float, w: float, h: float, colour: Colour, radius: float = 0,
             outline: bool = False) -> None:
        rad = round(radius * min(self.box.width, self.box.height))
        pg.draw.rect(self.s, colour, self.r(x, y, w, h), border_radius=rad)
        if outline:
            pg.draw.rect(self.s, INK, self.r(x, y, w, h), width=self.line, border_radius=rad)

    def poly(self, pts: Sequence[tuple[float, float]], colour: Colour, outline: bool = True) -> None:
        pix = [self.p(x, y) for x, y in pts]
        pg.draw.polygon(self.s, colour, pix)
        if outline:
            pg.draw.polygon(self.s, INK, pix, width=self.line)

    def circle(self, x: float, y: float, radius: float, colour: Colour, outline: bool = False,
               width: int = 0) -> None:
        rad = max(1, round(radius * min(self.box.width, self.box.height)))
        pg.draw.circle(self.s, colour, self.p(x, y), rad, width=width)
        if outline:
            pg.draw.circle(self.s, INK, self.p(x, y), rad, width=self.line)

    def ellipse(self, x: float, y: float, w: float, h: float, colour: Colour, outline: bool = False) -> None:
        pg.draw.ellipse(self.s, colour, self.r(x, y, w, h))
        if outline:
            pg.draw.ellipse(self.s, INK, self.r(x, y, w, h), width=self.line)

    def lines(self, pts: Sequence[tuple[float, float]], colour: Colour = INK, width: int = 0,
              closed: bool = False) -> None:
        pg.draw.lines(self.s, colour, closed, [self.p(x, y) for x, y in pts], width or self.line)

    def arc(self, x: float, y: float, w: float, h: float, start: float, stop: float,
            colour: Colour = INK, width: int = 0) -> None:
        pg.draw.arc(self.s, colour, self.r(x, y, w, h), start, stop, width or self.line)

    def text(self, text: str, x: float, y: float, size: float, colour: Colour = INK) -> None:
        px = max(8, round(size * self.box.height))
        font = pg.font.Font(font_path(bold=True), px)
        img = font.render(text, True, colour)
        self.s.blit(img, img.get_rect(center=self.p(x, y)))

    def frame(self, colour: Colour, radius: float = 0.08) -> None:
        """A background panel with an outline, the whole box."""
        self.rect(0, 0, 1, 1, colour, radius, outline=True)
