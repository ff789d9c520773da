"""README scenes made by driving the real flow, drawn headless; and the bot benchmark."""

from __future__ import annotations

from pathlib import Path

import pygame

from bench.goblets_games import random_game_benchmark
from controller.games.goblets.demo import demo_scenes
from hardware.display.render import render_png


def test_demo_scenes_are_the_table_a_private_pour_and_the_toast_reveal(tmp_path: Path) -> None:
    scenes = demo_scenes()
    assert [name for name, _ in scenes] == ["table", "private-pour", "toast-reveal", "end"]
    assert "game over" in scenes[3][1].title
    assert scenes[0][1].private_for is None
    assert scenes[1][1].private_for == 3
    assert "Toast" in scenes[2][1].title
    for name, scene in scenes:
        path = render_png(scene, tmp_path / f"{name}.png")
        image = pygame.image.load(str(path))
        assert image.get_size() == (1280, 720)
        colours = {image.get_at((x, y))[:3] for x in range(0, 1280, 40) for y in range(0, 720, 40)}
        assert len(colours) > 5  # something was drawn, not a blank screen


def test_coaster_rings_and_token_shapes_are_painted() -> None:
    from hardware.display import art

    painters = art.load()
    assert "goblet" in painters and "token" in painters
    surface = pygame.Surface((120, 120))
    for name in ("wine", "poison", "antidote", "unicorn", "ogre"):
        surface.fill((0, 0, 0))
        painters["token"](surface, pygame.Rect(0, 0, 120, 120),
                          __import__("hardware.display.widgets", fromlist=["Glyph"]).Glyph(
                              "token", name))
        assert surface.get_at((60, 60))[:3] != (0, 0, 0)


def test_random_game_benchmark_counts_complete_games() -> None:
    assert random_game_benchmark(0.3) > 1
