"""Tchin Tchin card art, drawn by the project: six flags and six drinks (landmarks, event
cards and tourists are in :mod:`tchin_places`). Bold shapes and strong colours, to read
from across a table. Glyphs: ``Glyph("flag", "RU")``, ``Glyph("drink", "tequila")``,
``Glyph("landmark", "big_ben")``, ``Glyph("event", "middleman")``, ``Glyph("tourist", "TW")``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame as pg

from hardware.display.art import painter
from hardware.display.art.tchin_draw import INK, Canvas

WHITE = (250, 250, 250)
RED = (206, 32, 41)


def _stripes(c: Canvas, colours: list[tuple[int, int, int]], vertical: bool) -> None:
    n = len(colours)
    for i, col in enumerate(colours):
        if vertical:
            c.rect(i / n, 0, 1 / n + 0.002, 1, col)
        else:
            c.rect(0, i / n, 1, 1 / n + 0.002, col)


def _flag_de(c: Canvas) -> None:
    _stripes(c, [(20, 20, 20), (221, 0, 0), (255, 206, 0)], vertical=False)


def _flag_en(c: Canvas) -> None:
    c.rect(0, 0, 1, 1, WHITE)
    c.rect(0.42, 0, 0.16, 1, RED)
    c.rect(0, 0.38, 1, 0.24, RED)


def _flag_fr(c: Canvas) -> None:
    _stripes(c, [(0, 85, 164), WHITE, (239, 65, 53)], vertical=True)


def _flag_jp(c: Canvas) -> None:
    c.rect(0, 0, 1, 1, WHITE)
    c.circle(0.5, 0.5, 0.3, (188, 0, 45))


def _flag_mx(c: Canvas) -> None:
    _stripes(c, [(0, 104, 71), WHITE, (206, 17, 38)], vertical=True)
    c.ellipse(0.42, 0.36, 0.16, 0.28, (140, 90, 40))  # the eagle, as a brown badge
    c.arc(0.40, 0.55, 0.20, 0.14, 3.3, 6.1, (0, 104, 71))


def _flag_ru(c: Canvas) -> None:
    _stripes(c, [WHITE, (0, 57, 166), (213, 43, 30)], vertical=False)


FLAGS: dict[str, Callable[[Canvas], None]] = {
    "DE": _flag_de, "EN": _flag_en, "FR": _flag_fr, "JP": _flag_jp, "MX": _flag_mx, "RU": _flag_ru,
}


@painter("flag")
def draw_flag(surface: Any, rect: Any, glyph: Any) -> None:
    """A nation's flag (3:2) with a dark border; an unknown code is a grey flag with its name."""
    c = Canvas(surface, rect, 1.5)
    draw = FLAGS.get(glyph.name.upper())
    if draw is None:
        c.rect(0, 0, 1, 1, (190, 190, 190))
        c.text(glyph.name, 0.5, 0.5, 0.4)
    else:
        draw(c)
    pg.draw.rect(surface, INK, c.box, width=c.line)


# -- drinks ----------------------------------------------------------------------------
GLASS = (215, 235, 245)


def _beer(c: Canvas) -> None:
    c.rect(0.22, 0.28, 0.44, 0.6, (240, 180, 40), 0.05, outline=True)  # the mug of beer
    c.arc(0.56, 0.40, 0.26, 0.34, -1.6, 1.6, INK, c.line * 3)  # handle
    for x in (0.33, 0.44, 0.55):
        c.lines([(x, 0.36), (x, 0.80)], (250, 215, 110), c.line)
    for x, r in ((0.27, 0.09), (0.38, 0.11), (0.50, 0.10), (0.61, 0.08)):
        c.circle(x, 0.27, r, WHITE, outline=False)  # foam


def _tea(c: Canvas) -> None:
    c.ellipse(0.1, 0.72, 0.8, 0.14, (235, 235, 245), outline=True)  # saucer
    c.poly([(0.2, 0.42), (0.72, 0.42), (0.64, 0.76), (0.28, 0.76)], (245, 245, 250))
    c.rect(0.24, 0.46, 0.44, 0.06, (160, 90, 40))  # the tea inside
    c.arc(0.64, 0.46, 0.2, 0.2, -1.6, 1.6, INK, c.line * 2)
    for x in (0.34, 0.46, 0.58):
        c.lines([(x, 0.36), (x - 0.04, 0.28), (x + 0.02, 0.2), (x - 0.02, 0.12)], (150, 150, 160))


def _champagne(c: Canvas) -> None:
    c.poly([(0.36, 0.06), (0.64, 0.06), (0.58, 0.52), (0.42, 0.52)], GLASS)
    c.poly([(0.375, 0.18), (0.625, 0.18), (0.58, 0.5), (0.42, 0.5)], (245, 215, 120), outline=False)
    c.rect(0.48, 0.52, 0.04, 0.32, GLASS, outline=True)  # stem
    c.ellipse(0.34, 0.82, 0.32, 0.08, GLASS, outline=True)
    for x, y in ((0.47, 0.3), (0.53, 0.4), (0.5, 0.24), (0.45, 0.44)):
        c.circle(x, y, 0.015, WHITE)


def _sake(c: Canvas) -> None:
    c.poly([(0.14, 0.82), (0.16, 0.42), (0.26, 0.3), (0.28, 0.16), (0.36, 0.16), (0.38, 0.3),
            (0.48, 0.42), (0.50, 0.82)], (245, 245, 235))  # the tokkuri bottle
    c.rect(0.2, 0.5, 0.24, 0.16, (40, 70, 140))
    c.poly([(0.56, 0.58), (0.90, 0.58), (0.84, 0.80), (0.62, 0.80)], (245, 245, 235))  # the bowl
    c.ellipse(0.58, 0.56, 0.3, 0.06, (230, 230, 210), outline=True)


def _tequila(c: Canvas) -> None:
    c.poly([(0.2, 0.36), (0.6, 0.36), (0.55, 0.84), (0.25, 0.84)], GLASS)  # shot glass
    c.poly([(0.215, 0.46), (0.585, 0.46), (0.55, 0.82), (0.25, 0.82)], (250, 220, 120), outline=False)
    c.circle(0.72, 0.46, 0.16, (120, 190, 60), outline=True)  # lime
    c.circle(0.72, 0.46, 0.11, (200, 235, 140))
    for a in ((0.72, 0.35), (0.72, 0.57), (0.61, 0.46), (0.83, 0.46)):
        c.lines([(0.72, 0.46), a], (120, 190, 60), max(1, c.line // 2))
    for x, y in ((0.74, 0.78), (0.8, 0.82), (0.68, 0.84), (0.86, 0.76)):
        c.circle(x, y, 0.02, WHITE, outline=True)  # salt


def _vodka(c: Canvas) -> None:
    c.poly([(0.24, 0.9), (0.24, 0.4), (0.32, 0.3), (0.32, 0.1), (0.44, 0.1), (0.44, 0.3), (0.52, 0.4),
            (0.52, 0.9)], (225, 240, 250))  # bottle
    c.rect(0.3, 0.06, 0.16, 0.06, (206, 32, 41), outline=True)  # cap
    c.rect(0.26, 0.52, 0.24, 0.2, (206, 32, 41))
    c.text("V", 0.38, 0.62, 0.14, WHITE)
    c.poly([(0.62, 0.62), (0.84, 0.62), (0.81, 0.9), (0.65, 0.9)], GLASS)  # glass


DRINKS: dict[str, Callable[[Canvas], None]] = {
    "beer": _beer, "tea": _tea, "champagne": _champagne, "sake": _sake, "tequila": _tequila,
    "vodka": _vodka,
}


@painter("drink")
def draw_drink(surface: Any, rect: Any, glyph: Any) -> None:
    """A drink on a warm round panel."""
    c = Canvas(surface, rect, 1.0)
    c.frame((255, 236, 200), 0.2)
    draw = DRINKS.get(glyph.name)
    if draw is None:
        c.text(glyph.name, 0.5, 0.5, 0.2)
    else:
        draw(c)


# landmarks, events and tourists register themselves on import
from hardware.display.art import tchin_places  # noqa: F401,E402
