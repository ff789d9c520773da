"""Raise Your Goblets art: goblets on coloured coaster rings, and tokens told apart by SHAPE
as well as colour (for colour-blind players).

Glyph kinds:
- ``goblet``: ``name`` the coaster ring's colour (``"brown"``, ``"green"``, ``"purple"``,
  ``"yellow"``, ``"blue"``, ``"red"``), ``"seat3"`` for the colour of seat 3's LED (the
  ring of that seat's house), or ``"none"`` when there are no rings.
- ``token``: ``name`` one of ``wine`` (red circle), ``poison`` (black triangle), ``antidote``
  (white square with a cross), ``unicorn`` (blue star), ``ogre`` (green hexagon), ``empty``.
"""

from __future__ import annotations

import math
from typing import Any

from hardware.display.art import painter
from hardware.display.colours import STATION_COLOURS

RINGS: dict[str, tuple[int, int, int]] = {
    "brown": (128, 82, 46), "green": (52, 150, 70), "purple": (128, 70, 170),
    "yellow": (236, 200, 50), "blue": (50, 110, 210), "red": (205, 45, 50),
}
TOKENS: dict[str, tuple[tuple[int, int, int], str]] = {
    "wine": ((170, 20, 45), "circle"),
    "poison": ((25, 25, 30), "triangle"),
    "antidote": ((245, 245, 240), "cross"),
    "unicorn": ((60, 130, 230), "star"),
    "ogre": ((60, 160, 60), "hexagon"),
}
OUTLINE = (30, 26, 34)
METAL = (205, 200, 185)
METAL_DARK = (140, 132, 115)


def _polygon(cx: float, cy: float, r: float, sides: int, start: float = -math.pi / 2,
             inner: float | None = None) -> list[tuple[float, float]]:
    pts = []
    n = sides * (2 if inner else 1)
    for i in range(n):
        rr = r if not inner or i % 2 == 0 else r * inner
        a = start + i * 2 * math.pi / n
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def draw_token(surface: Any, rect: Any, name: str) -> None:
    """One token as large as fits in ``rect``; its shape alone says what it is."""
    import pygame as pg

    r = max(4, min(rect.width, rect.height) // 2 - 2)
    cx, cy = rect.center
    line = max(2, r // 8)
    if name not in TOKENS:
        pg.draw.circle(surface, (120, 120, 120), (cx, cy), r, width=line)
        return
    colour, shape = TOKENS[name]
    if shape == "circle":
        pg.draw.circle(surface, colour, (cx, cy), r)
        pg.draw.circle(surface, OUTLINE, (cx, cy), r, width=line)
        pg.draw.circle(surface, (240, 200, 210), (cx - r // 3, cy - r // 3), max(2, r // 5))
    elif shape == "triangle":
        pts = _polygon(cx, cy + r * 0.15, r * 1.05, 3)
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, (200, 200, 200), pts, width=line)
        pg.draw.circle(surface, (230, 230, 230), (cx, int(cy + r * 0.05)), max(2, r // 4))
    elif shape == "cross":
        box = pg.Rect(0, 0, int(r * 1.7), int(r * 1.7))
        box.center = (cx, cy)
        pg.draw.rect(surface, colour, box, border_radius=max(2, r // 5))
        pg.draw.rect(surface, OUTLINE, box, width=line, border_radius=max(2, r // 5))
        arm = max(3, r // 3)
        pg.draw.rect(surface, (40, 160, 90), pg.Rect(cx - arm // 2, cy - int(r * 0.6), arm,
                                                    int(r * 1.2)))
        pg.draw.rect(surface, (40, 160, 90), pg.Rect(cx - int(r * 0.6), cy - arm // 2,
                                                    int(r * 1.2), arm))
    elif shape == "star":
        pts = _polygon(cx, cy, r, 5, inner=0.45)
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, OUTLINE, pts, width=line)
    elif shape == "hexagon":
        pts = _polygon(cx, cy, r, 6, start=0)
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, OUTLINE, pts, width=line)
        pg.draw.circle(surface, (20, 60, 20), (cx, cy), max(2, r // 3))


def draw_goblet(surface: Any, rect: Any, ring: str) -> None:
    """A goblet standing on its coaster ring (a grey dashed outline when there is none)."""
    import pygame as pg

    h = min(rect.height, int(rect.width * 1.3))
    w = int(h * 0.75)
    box = pg.Rect(0, 0, w, h)
    box.center = rect.center
    cx = box.centerx
    # coaster ring under the base
    ring_rect = pg.Rect(0, 0, int(w * 0.95), int(h * 0.18))
    ring_rect.midbottom = box.midbottom
    colour = RINGS.get(ring)
    if ring.startswith("seat") and ring[4:].isdigit():
        colour = STATION_COLOURS[(int(ring[4:]) - 1) % len(STATION_COLOURS)]
    if colour is not None:
        pg.draw.ellipse(surface, colour, ring_rect)
        pg.draw.ellipse(surface, OUTLINE, ring_rect, width=max(2, w // 40))
    else:
        for i in range(0, 360, 30):
            a = math.radians(i)
            x = ring_rect.centerx + ring_rect.width / 2 * math.cos(a)
            y = ring_rect.centery + ring_rect.height / 2 * math.sin(a)
            pg.draw.circle(surface, (130, 130, 130), (int(x), int(y)), max(1, w // 40))
    # base, stem and bowl
    base = pg.Rect(0, 0, int(w * 0.6), max(3, int(h * 0.07)))
    base.midbottom = (cx, ring_rect.centery + base.height // 2)
    pg.draw.ellipse(surface, METAL_DARK, base)
    stem_top = box.top + int(h * 0.5)
    pg.draw.rect(surface, METAL_DARK, pg.Rect(cx - max(2, w // 16), stem_top,
                                             max(4, w // 8), base.top - stem_top + 2))
    bowl = [(cx - w * 0.42, box.top + h * 0.06), (cx + w * 0.42, box.top + h * 0.06),
            (cx + w * 0.26, stem_top), (cx - w * 0.26, stem_top)]
    pg.draw.polygon(surface, METAL, bowl)
    pg.draw.polygon(surface, OUTLINE, bowl, width=max(2, w // 40))
    rim = pg.Rect(0, 0, int(w * 0.84), max(4, int(h * 0.08)))
    rim.center = (cx, int(box.top + h * 0.06))
    pg.draw.ellipse(surface, (90, 20, 35), rim)
    pg.draw.ellipse(surface, OUTLINE, rim, width=max(1, w // 60))


@painter("goblet")
def paint_goblet(surface: Any, rect: Any, glyph: Any) -> None:
    draw_goblet(surface, rect, glyph.name)


@painter("token")
def paint_token(surface: Any, rect: Any, glyph: Any) -> None:
    draw_token(surface, rect, glyph.name)
