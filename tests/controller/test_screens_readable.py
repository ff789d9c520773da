"""Tests that look: every scene of every game's demo (and the box's own menus), drawn
headless on real pygame, has no text below the minimum size and nothing cut or off screen."""

from __future__ import annotations

import pytest

from controller.screenshots import game_scenes, shell_scenes
from hardware.display.render import Renderer, min_text_px

SCENES = shell_scenes() + game_scenes()


def test_every_game_has_demo_scenes():
    prefixes = {name.split("-")[0] for name, _ in SCENES}
    assert {"tchin", "cheers", "goblets", "main"} <= prefixes


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800), (1920, 1080), (960, 720), (960, 664)])
def test_every_demo_scene_reads_from_the_sofa(size):
    renderer = Renderer(size, "headless")
    problems = []
    for name, scene in SCENES:
        renderer.draw(scene)
        assert renderer.drawn, f"{name}: nothing drawn"
        assert min(d.px for d in renderer.drawn) >= min_text_px(size[1]), name
        problems += [f"{name}: {p}" for p in renderer.problems()]
    assert not problems, "\n".join(problems)


def test_the_game_scenes_looked_at_are_drawn_as_the_box_draws_them():
    """The end screen with its 'Play again' menu under it, every other game screen with the
    hold-Back ring: what crowds the live screen crowds the test's too."""
    games = [(name, scene) for name, scene in SCENES if name.split("-")[0] in ("tchin", "cheers", "goblets")]
    ends = [scene for name, scene in games if name.endswith("-end")]
    assert len(ends) == 3 and all("Play again, same players" in repr(scene) for scene in ends)
    assert all(scene.hold is not None for name, scene in games if not name.endswith("-end"))


@pytest.mark.parametrize("size", [(1280, 720), (960, 664)])
def test_the_longest_quick_start_fits_the_main_menu(size):
    from controller.party import quick_start_label
    from hardware.display.widgets import Menu, Scene, Text

    label = quick_start_label("Raise Your Goblets", {"players": 12, "bots": 11})
    renderer = Renderer(size, "headless")
    renderer.draw(Scene("clinkbox", (Text("What shall we play?", size="heading"),
                                     Menu((label, "Tchin Tchin", "Cheers", "Raise Your Goblets", "Settings",
                                           "Shut down"), 0))))
    assert not renderer.problems()
