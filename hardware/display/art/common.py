"""Pictures shared by every game: player badges and simple symbols."""

from __future__ import annotations

from typing import Any

from hardware.display.art import painter

#: one colour per station, also used on the simulator's LED strip
STATION_COLOURS = [
    (230, 80, 70), (70, 150, 230), (90, 190, 100), (240, 190, 60),
    (170, 100, 210), (240, 140, 50), (60, 200, 200), (220, 110, 170),
    (150, 150, 150), (120, 90, 60), (200, 200, 90), (100, 120, 200),
]


@painter("station")
def draw_station(surface: Any, rect: Any, glyph: Any) -> None:
    """A round badge with the station's number, in the station's colour."""
    import pygame as pg

    n = int(glyph.name) if glyph.name.isdigit() else 0
    colour = STATION_COLOURS[(n - 1) % len(STATION_COLOURS)] if n else (150, 150, 150)
    radius = min(rect.width, rect.height) // 2 - 2
    pg.draw.circle(surface, colour, rect.center, radius)
    pg.draw.circle(surface, (30, 30, 30), rect.center, radius, width=max(2, radius // 10))
    font = pg.font.Font(pg.font.match_font("dejavusans,freesans", bold=True), max(8, int(radius * 1.1)))
    img = font.render(glyph.name, True, (20, 20, 20))
    surface.blit(img, img.get_rect(center=rect.center))
