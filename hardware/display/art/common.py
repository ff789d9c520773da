"""Pictures shared by every game: player badges and simple symbols."""

from __future__ import annotations

from typing import Any

from hardware.display.art import painter
from hardware.display.colours import STATION_COLOURS
from hardware.display.fonts import font_path

__all__ = ["STATION_COLOURS"]


@painter("station")
def draw_station(surface: Any, rect: Any, glyph: Any) -> None:
    """A round badge with the station's number, in the station's colour."""
    import pygame as pg

    n = int(glyph.name) if glyph.name.isdigit() else 0
    colour = STATION_COLOURS[(n - 1) % len(STATION_COLOURS)] if n else (150, 150, 150)
    radius = min(rect.width, rect.height) // 2 - 2
    pg.draw.circle(surface, colour, rect.center, radius)
    pg.draw.circle(surface, (30, 30, 30), rect.center, radius, width=max(2, radius // 10))
    font = pg.font.Font(font_path(bold=True), max(8, int(radius * 1.1)))
    img = font.render(glyph.name, True, (20, 20, 20))
    surface.blit(img, img.get_rect(center=rect.center))
