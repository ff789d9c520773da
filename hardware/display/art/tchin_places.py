"""Tchin Tchin card art: the six landmarks, the event cards' shadow men and the two tourists."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.display.art import painter
from hardware.display.art.tchin_draw import INK, Canvas

SKY = (170, 215, 245)
STONE = (225, 205, 160)
SHADOW = (45, 45, 60)
WHITE = (250, 250, 250)


def _brandenburg_gate(c: Canvas) -> None:
    c.rect(0.1, 0.82, 0.8, 0.08, STONE, outline=True)  # base
    for i in range(6):
        c.rect(0.14 + i * 0.13, 0.40, 0.06, 0.42, STONE, outline=True)  # columns
    c.rect(0.08, 0.30, 0.84, 0.10, STONE, outline=True)  # entablature
    c.rect(0.36, 0.20, 0.28, 0.10, STONE, outline=True)
    c.poly([(0.42, 0.20), (0.46, 0.08), (0.54, 0.08), (0.58, 0.20)], (90, 140, 110))  # quadriga


def _big_ben(c: Canvas) -> None:
    c.rect(0.36, 0.34, 0.28, 0.58, (200, 170, 110), outline=True)  # tower
    c.circle(0.5, 0.30, 0.13, WHITE, outline=True)  # clock face
    c.lines([(0.5, 0.30), (0.5, 0.21)], INK)
    c.lines([(0.5, 0.30), (0.57, 0.30)], INK)
    c.rect(0.34, 0.14, 0.32, 0.06, (200, 170, 110), outline=True)
    c.poly([(0.36, 0.14), (0.5, 0.0), (0.64, 0.14)], (70, 90, 80))  # spire
    for y in (0.50, 0.64, 0.78):
        c.rect(0.44, y, 0.12, 0.07, (120, 100, 70))  # windows


def _eiffel_tower(c: Canvas) -> None:
    brown = (120, 85, 60)
    c.poly([(0.18, 0.94), (0.44, 0.30), (0.56, 0.30), (0.82, 0.94), (0.66, 0.94), (0.5, 0.62),
            (0.34, 0.94)], brown)  # legs and arch
    c.poly([(0.44, 0.30), (0.48, 0.04), (0.52, 0.04), (0.56, 0.30)], brown)  # top
    c.rect(0.28, 0.58, 0.44, 0.05, brown, outline=True)  # first floor
    c.rect(0.40, 0.30, 0.20, 0.04, brown, outline=True)  # second floor
    for k in range(4):
        y = 0.66 + k * 0.07
        c.lines([(0.3 - k * 0.02, y), (0.7 + k * 0.02, y + 0.05)], (160, 125, 95), max(1, c.line // 2))


def _himeji_castle(c: Canvas) -> None:
    roof = (60, 70, 90)
    c.rect(0.18, 0.72, 0.64, 0.2, (150, 140, 130), outline=True)  # stone base
    tiers = [(0.2, 0.56, 0.6), (0.27, 0.40, 0.46), (0.34, 0.24, 0.32)]
    for x, y, w in tiers:
        c.rect(x, y, w, 0.16, WHITE, outline=True)
        c.poly([(x - 0.06, y + 0.02), (x + w / 2, y - 0.06), (x + w + 0.06, y + 0.02)], roof)
    c.poly([(0.36, 0.18), (0.5, 0.06), (0.64, 0.18)], roof)


def _mayan_pyramid(c: Canvas) -> None:
    for i in range(5):
        w = 0.84 - i * 0.15
        c.rect(0.5 - w / 2, 0.80 - i * 0.13, w, 0.13, (190, 170, 120), outline=True)
    c.rect(0.42, 0.14, 0.16, 0.14, (170, 150, 100), outline=True)  # temple on top
    c.rect(0.46, 0.28, 0.08, 0.65, (150, 130, 90), outline=True)  # the stairs
    for k in range(9):
        c.lines([(0.46, 0.32 + k * 0.07), (0.54, 0.32 + k * 0.07)], INK, max(1, c.line // 2))


def _onion(c: Canvas, x: float, y: float, r: float, colour: tuple[int, int, int]) -> None:
    c.circle(x, y, r, colour, outline=True)
    c.poly([(x - r * 0.7, y - r * 0.6), (x, y - r * 2.0), (x + r * 0.7, y - r * 0.6)], colour)


def _red_square(c: Canvas) -> None:
    c.rect(0.08, 0.60, 0.84, 0.32, (190, 60, 50), outline=True)  # the walls
    for x in (0.22, 0.5, 0.78):
        c.rect(x - 0.07, 0.42, 0.14, 0.2, (210, 190, 150), outline=True)  # towers
    _onion(c, 0.22, 0.38, 0.08, (40, 150, 90))
    _onion(c, 0.5, 0.30, 0.12, (230, 180, 40))
    _onion(c, 0.78, 0.38, 0.08, (60, 90, 190))
    for x in (0.16, 0.28, 0.44, 0.56, 0.72, 0.84):
        c.rect(x - 0.02, 0.70, 0.04, 0.08, (120, 30, 30))


LANDMARKS: dict[str, Callable[[Canvas], None]] = {
    "brandenburg_gate": _brandenburg_gate, "big_ben": _big_ben, "eiffel_tower": _eiffel_tower,
    "himeji_castle": _himeji_castle, "mayan_pyramid": _mayan_pyramid, "red_square": _red_square,
}


@painter("landmark")
def draw_landmark(surface: Any, rect: Any, glyph: Any) -> None:
    """A landmark against the sky."""
    c = Canvas(surface, rect, 1.0)
    c.frame(SKY, 0.12)
    draw = LANDMARKS.get(glyph.name)
    if draw is None:
        c.text(glyph.name, 0.5, 0.5, 0.16)
    else:
        draw(c)


# -- event cards -----------------------------------------------------------------------
def _shadow_man(c: Canvas, x: float, scale: float = 1.0, colour: tuple[int, int, int] = SHADOW) -> None:
    c.circle(x, 0.34, 0.13 * scale, colour)
    c.poly([(x - 0.2 * scale, 0.96), (x - 0.16 * scale, 0.56), (x, 0.5), (x + 0.16 * scale, 0.56),
            (x + 0.2 * scale, 0.96)], colour, outline=False)
    c.rect(x - 0.16 * scale, 0.20, 0.32 * scale, 0.04, colour)  # hat brim
    c.rect(x - 0.09 * scale, 0.10, 0.18 * scale, 0.11, colour)


def _my_round(c: Canvas) -> None:
    _shadow_man(c, 0.5, 1.3)
    c.text("?", 0.5, 0.36, 0.26, WHITE)  # the big white question mark on his face


def _same_again(c: Canvas) -> None:
    _shadow_man(c, 0.4, 1.2)
    c.poly([(0.62, 0.46), (0.9, 0.46), (0.86, 0.86), (0.66, 0.86)], (215, 235, 245))  # empty glass
    c.text("?", 0.76, 0.66, 0.22, (40, 40, 60))


def _middleman(c: Canvas) -> None:
    _shadow_man(c, 0.2, 0.7, (90, 60, 110))
    _shadow_man(c, 0.8, 0.7, (90, 60, 110))
    _shadow_man(c, 0.5, 1.0)
    c.text("!", 0.5, 0.36, 0.16, WHITE)
    c.lines([(0.30, 0.62), (0.40, 0.66)], WHITE, c.line * 2)
    c.lines([(0.70, 0.62), (0.60, 0.66)], WHITE, c.line * 2)


EVENTS: dict[str, Callable[[Canvas], None]] = {
    "my_round": _my_round, "same_again": _same_again, "middleman": _middleman,
}


@painter("event")
def draw_event(surface: Any, rect: Any, glyph: Any) -> None:
    """An event card's picture: men in the shadow."""
    c = Canvas(surface, rect, 1.0)
    c.frame((235, 120, 90), 0.12)
    draw = EVENTS.get(glyph.name)
    if draw is None:
        c.text(glyph.name, 0.5, 0.5, 0.16)
    else:
        draw(c)


# -- tourists --------------------------------------------------------------------------
def _tourist(c: Canvas, woman: bool) -> None:
    skin, shirt = (240, 200, 160), ((230, 90, 150) if woman else (60, 160, 200))
    c.poly([(0.26, 0.98), (0.30, 0.62), (0.5, 0.56), (0.70, 0.62), (0.74, 0.98)], shirt)
    for x in (0.36, 0.5, 0.64):
        c.circle(x, 0.78, 0.04, (250, 230, 90))  # flowered shirt
    c.circle(0.5, 0.40, 0.15, skin, outline=True)
    if woman:
        c.ellipse(0.18, 0.22, 0.64, 0.12, (240, 210, 120), outline=True)  # sun hat
        c.ellipse(0.36, 0.12, 0.28, 0.16, (240, 210, 120), outline=True)
        c.rect(0.34, 0.26, 0.32, 0.06, (230, 90, 150))
    else:
        c.rect(0.32, 0.18, 0.36, 0.12, (240, 120, 40), 0.03, outline=True)  # cap
        c.rect(0.50, 0.26, 0.26, 0.05, (240, 120, 40), outline=True)
    c.circle(0.45, 0.40, 0.02, INK)
    c.circle(0.55, 0.40, 0.02, INK)
    c.arc(0.44, 0.40, 0.12, 0.1, 3.4, 6.0, INK)
    c.rect(0.36, 0.66, 0.28, 0.16, (40, 40, 40), 0.02, outline=True)  # the camera
    c.circle(0.5, 0.74, 0.05, (150, 170, 200), outline=True)


@painter("tourist")
def draw_tourist(surface: Any, rect: Any, glyph: Any) -> None:
    """The tourist man (TM) or woman (TW), camera at the ready."""
    c = Canvas(surface, rect, 1.0)
    c.frame((250, 190, 90), 0.12)
    _tourist(c, woman=glyph.name.upper() == "TW")
