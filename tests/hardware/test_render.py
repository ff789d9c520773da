"""Real pygame-ce rendering, headless: scenes become PNGs a person can look at."""

from __future__ import annotations

import pygame
import pytest

from hardware.display.render import Renderer, render_png
from hardware.display.widgets import Banner, Card, Glyph, Grid, Menu, Row, Scene, Text, Timer


def pixels(path):
    img = pygame.image.load(str(path))
    return img, {img.get_at((x, y))[:3] for x in range(0, img.get_width(), 16) for y in range(0, img.get_height(), 16)}


def test_a_scene_is_written_as_a_png_of_the_screen_size(tmp_path):
    p = render_png(Scene("Hello", (Text("world"),)), tmp_path / "a.png", size=(640, 360))
    img, colours = pixels(p)
    assert img.get_size() == (640, 360)
    assert len(colours) > 2, "something was drawn on the background"


def test_the_menu_cursor_is_drawn_in_the_accent_colour(tmp_path):
    r = Renderer((800, 600), "headless")
    accent = (242, 190, 60)

    def accent_rows(cursor):
        surface = r.draw(Scene("Menu", (Menu(("One", "Two", "Three"), cursor=cursor),)))
        return [y for y in range(0, 600, 2) if surface.get_at((250, y))[:3] == accent]

    first, third = accent_rows(0), accent_rows(2)
    assert first and third, "the chosen item is highlighted"
    assert min(third) > max(first), "the highlight moves down with the cursor"


@pytest.mark.parametrize("widget", [
    Banner("Station 3 claims!", subtitle="say it"), Timer(1.5, 3.0, "veto"),
    Card("D24", (Glyph("station", "3"), Glyph("unknown-kind", "x", "label"))), Card(hidden=True),
    Grid((Text("a"), Card("b", small=True), Row((Text("c"), Text("d")))), columns=2),
])
def test_every_widget_draws(tmp_path, widget):
    p = render_png(Scene("W", (widget,), footer="footer", private_for=2), tmp_path / "w.png", (640, 360))
    assert len(pixels(p)[1]) > 3


def test_long_text_shrinks_to_fit(tmp_path):
    r = Renderer((320, 240), "headless")
    r.draw(Scene("T", (Text("a very long line of text that cannot possibly fit at full size"),)))
    assert r.screen.get_size() == (320, 240)
