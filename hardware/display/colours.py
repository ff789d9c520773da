"""The stations' colours: each LED, its seat chip on the screen and its banner share one."""

from __future__ import annotations

#: one colour per station, also used on the simulator's LED strip
STATION_COLOURS = [
    (230, 80, 70), (70, 150, 230), (90, 190, 100), (240, 190, 60),
    (170, 100, 210), (240, 140, 50), (60, 200, 200), (220, 110, 170),
    (150, 150, 150), (120, 90, 60), (200, 200, 90), (100, 120, 200),
]
