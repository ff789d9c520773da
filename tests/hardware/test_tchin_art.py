"""Tchin Tchin card art: every glyph is drawn by a real pygame painter, each one different."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

from hardware.display import art  # noqa: E402
from hardware.display.widgets import Glyph  # noqa: E402

GLYPHS = (
    [("flag", c) for c in ("DE", "EN", "FR", "JP", "MX", "RU")]
    + [("drink", d) for d in ("beer", "tea", "champagne", "sake", "tequila", "vodka")]
    + [("landmark", x) for x in ("brandenburg_gate", "big_ben", "eiffel_tower", "himeji_castle",
                                 "mayan_pyramid", "red_square")]
    + [("event", e) for e in ("my_round", "same_again", "middleman")]
    + [("tourist", t) for t in ("TM", "TW")]
)


def draw(kind: str, name: str) -> bytes:
    pygame.font.init()
    painters = art.load()
    surface = pygame.Surface((160, 160))
    surface.fill((0, 0, 0))
    painters[kind](surface, pygame.Rect(0, 0, 160, 160), Glyph(kind, name))
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.parametrize("kind, name", GLYPHS)
def test_every_tchin_glyph_paints_something(kind: str, name: str) -> None:
    pixels = draw(kind, name)
    colours = {pixels[i:i + 3] for i in range(0, len(pixels), 3 * 7)}
    assert len(colours) >= 3, f"{kind}/{name} is nearly blank"


def test_every_tchin_glyph_looks_different() -> None:
    images = {draw(k, n) for k, n in GLYPHS}
    assert len(images) == len(GLYPHS)


def test_an_unknown_name_is_drawn_not_an_error() -> None:
    assert draw("flag", "XX") != draw("flag", "FR")
