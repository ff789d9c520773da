"""Cheers ingredient art: five ingredients, each with its own colour AND its own shape.

Shapes carry the meaning for colour-blind players: Grenadine a round fruit
(circle), Mint a leaf (triangle), Lemon a sun (star), Cassis a berry cluster
(three circles), Curaçao a gem (diamond); each also carries its initials.

Glyph kinds:
- ``ingredient``: one icon, ``name`` an ingredient id (``"mint"``).
- ``cheers-card``: a whole card face, ``name`` ``"big/small"`` (``"mint/lemon"``):
  the BIG icon fills the top, the SMALL icon (what it clinks with) sits in a band below.
"""

from __future__ import annotations

import math
from typing import Any

from hardware.display.art import painter
from hardware.display.fonts import font_path

#: colour, initials and shape per ingredient id
INGREDIENT_ART: dict[str, tuple[tuple[int, int, int], str, str]] = {
    "grenadine": ((214, 48, 60), "Gr", "circle"),
    "mint": ((46, 170, 90), "Mi", "triangle"),
    "lemon": ((246, 212, 48), "Le", "star"),
    "cassis": ((128, 64, 170), "Ca", "berries"),
    "curacao": ((40, 120, 225), "Cu", "diamond"),
}
OUTLINE = (30, 26, 34)


def _font(px: int) -> Any:
    import pygame as pg

    return pg.font.Font(font_path(bold=True), max(8, px))


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.48
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def draw_ingredient(surface: Any, rect: Any, name: str, with_initials: bool = True) -> None:
    """One ingredient icon, as large as fits in ``rect``."""
    import pygame as pg

    colour, initials, shape = INGREDIENT_ART.get(name, ((150, 150, 150), "?", "circle"))
    r = max(4, min(rect.width, rect.height) // 2 - 2)
    cx, cy = rect.center
    line = max(2, r // 10)
    if shape == "circle":
        pg.draw.circle(surface, colour, (cx, cy), r)
        pg.draw.circle(surface, OUTLINE, (cx, cy), r, width=line)
        text_at = (cx, cy)
    elif shape == "triangle":
        pts = [(cx, cy - r), (cx + r * 0.95, cy + r * 0.8), (cx - r * 0.95, cy + r * 0.8)]
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, OUTLINE, pts, width=line)
        text_at = (cx, int(cy + r * 0.3))
    elif shape == "star":
        pts = _star(cx, cy + r * 0.06, r)
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, OUTLINE, pts, width=line)
        text_at = (cx, int(cy + r * 0.08))
    elif shape == "berries":
        br = int(r * 0.52)
        centres = [(cx, int(cy - r * 0.42)), (int(cx - r * 0.46), int(cy + r * 0.36)),
                   (int(cx + r * 0.46), int(cy + r * 0.36))]
        for c in centres:
            pg.draw.circle(surface, colour, c, br)
        for c in centres:
            pg.draw.circle(surface, OUTLINE, c, br, width=line)
        text_at = (cx, int(cy + r * 0.05))
    else:  # diamond
        pts = [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
        pg.draw.polygon(surface, colour, pts)
        pg.draw.polygon(surface, OUTLINE, pts, width=line)
        text_at = (cx, cy)
    # the initials (for colour-blind players) only where they are as big as the screen's text;
    # smaller, the shapes alone tell the ingredients apart
    if with_initials and int(r * 0.55) >= round(28 * surface.get_abs_parent().get_height() / 720):
        ink = (30, 26, 34) if name == "lemon" else (250, 248, 240)
        img = _font(int(r * 0.55)).render(initials, True, ink)
        surface.blit(img, img.get_rect(center=text_at))


@painter("ingredient")
def paint_ingredient(surface: Any, rect: Any, glyph: Any) -> None:
    draw_ingredient(surface, rect, glyph.name)


@painter("cheers-card")
def paint_card(surface: Any, rect: Any, glyph: Any) -> None:
    """An ingredient card face: BIG icon on top, the SMALL (clinking) icon in a band below."""
    import pygame as pg

    big, _, small = glyph.name.partition("/")
    band_h = max(10, int(rect.height * 0.32))
    top = pg.Rect(rect.left, rect.top, rect.width, rect.height - band_h)
    draw_ingredient(surface, top.inflate(-4, -4), big)
    band = pg.Rect(rect.left + 2, top.bottom, rect.width - 4, band_h)
    pg.draw.rect(surface, (225, 218, 200), band, border_radius=max(3, band_h // 4))
    pg.draw.line(surface, OUTLINE, (band.left + 4, band.top), (band.right - 4, band.top), 1)
    icon = pg.Rect(0, 0, int(band_h * 0.9), int(band_h * 0.9))
    icon.center = band.center
    draw_ingredient(surface, icon, small, with_initials=band_h >= 36)
