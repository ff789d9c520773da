"""Never stuck: every game played to its end through the box's own flows with the pad and
the buzzers alone, as a new host would, following only what the table is shown.

A scripted player reads the LEDs (a lit or blinking buzzer is one the game waits on) and
the screen (a private view with a menu is driven with OK and Next; one without is let
go). When no buzzer is lit it tries OK on the pad, then lets time pass. The test fails
if a game reaches a state where no input is accepted for a long while, or if a single
awaited seat is not named on the shared screen.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.app import Box
from controller.config import Config, Display
from hardware.buttons import ButtonEvent
from hardware.display.widgets import Menu, Scene, Timer, chip

#: events that do not move a game on (the game heard the input and refused it)
NOT_PROGRESS = {"ignored", "rejected", "illegal", "nav", "view_opened", "view_closed", "private_view"}
STEP_S = 0.2
PATIENCE = 300  # steps with no accepted input before the game is called stuck


def said(scene: Scene) -> list[str]:
    """Every piece of text on the screen."""
    out = [scene.title, scene.footer]

    def walk(w: object) -> None:
        for name in ("text", "subtitle", "title", "caption"):
            value = getattr(w, name, None)
            if isinstance(value, str):
                out.append(value)
        for child in getattr(w, "cells", ()) or ():
            walk(child)
        out.extend(getattr(w, "items", ()) or ())

    for w in scene.widgets:
        walk(w)
    return out


class Host:
    """Plays a game on the box with the pad and the buzzers only."""

    def __init__(self, tmp_path: Path, factory, seed: int) -> None:
        cfg = Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"))
        self.box = Box(cfg, simulate=False, pin_factory=factory)
        self.shell = self.box.shell
        self.shell.speech_available = False  # pad and buzzers alone: no microphone
        self.shell.rng = random.Random(seed)
        self.now = 100.0
        self.shell.clock = lambda: self.now
        self.rng = random.Random(seed)
        self.held: int | None = None

    def pad(self, button: str) -> None:
        self.shell.button(ButtonEvent(self.now, True, nav=button))
        self.shell.button(ButtonEvent(self.now + 0.01, False, nav=button))

    def buzzer(self, station: int, down: bool) -> None:
        self.shell.button(ButtonEvent(self.now, down, station=station))

    def wait(self, seconds: float = STEP_S) -> None:
        self.now += seconds
        self.shell.tick(self.now)

    def set_up(self, game: str, players: int, bots: int) -> None:
        """The player count, then the options (only the box's seats are changed)."""
        self.shell.begin_setup(game)
        def count() -> int:  # "3" or "3 (Russian Goblette)"
            return int(self.menu().items[self.menu().cursor].split()[0])

        for _ in range(12):
            if count() == players:
                break
            self.pad("next" if count() < players else "prev")
        assert count() == players
        self.pad("ok")
        self.pad("next")  # choose the options
        self.pad("ok")
        while self.shell.mode == "setup":
            if self.menu().title == "Seats the box plays?":
                for _ in range(bots):
                    self.pad("next")
            self.pad("ok")
        assert self.shell.mode == "game", self.shell.scene()

    def menu(self) -> Menu:
        return next(w for w in self.shell.scene().widgets if isinstance(w, Menu))

    def awaited(self) -> list[int]:
        panel = self.box.panel
        return [s for s in panel.leds if panel.led_state(s) in ("on", "blink")]

    def progress(self) -> tuple[int, tuple[int, ...], int | None]:
        session = self.shell.session
        assert session is not None
        moved = sum(1 for e in session.events if e.get("event") not in NOT_PROGRESS)
        return moved, tuple(self.awaited()), self.shell.scene().private_for

    def step(self, turn: int) -> None:
        scene = self.shell.scene()
        if scene.private_for is not None:
            if any(isinstance(w, Menu) for w in scene.widgets):
                self.pad(self.rng.choice(["ok", "ok", "next"]))
            elif self.held is not None:
                self.buzzer(self.held, False)
                self.held = None
        elif self.held is not None:
            self.buzzer(self.held, False)
            self.held = None
        else:
            awaited = self.awaited()
            blinking = [s for s in awaited if self.box.panel.led_state(s) == "blink"]
            if len(blinking) == 1 and not any(isinstance(w, Timer) for w in scene.widgets):
                seat = blinking[0]
                assert any(chip(seat) in line and ("buzzer" in line or "press" in line) for line in said(scene)), \
                    f"seat {seat}'s buzzer blinks but the screen does not tell seat {seat} to press it: {scene}"
            if awaited and self.rng.random() < 0.9:
                self.held = self.rng.choice(awaited)
                self.buzzer(self.held, True)
            elif turn % 2 == 0:
                self.pad("ok")
        self.wait()

    def play_to_the_end(self, limit: int = 20_000) -> None:
        idle, last = 0, self.progress()
        for turn in range(limit):
            session = self.shell.session
            assert session is not None
            if session.finished:
                return
            self.step(turn)
            now = self.progress()
            idle = idle + 1 if now == last else 0
            last = now
            assert idle < PATIENCE, f"stuck: no input accepted for {PATIENCE} steps on {self.shell.scene()}"
        raise AssertionError(f"not over after {limit} steps: {self.shell.scene()}")


@pytest.mark.parametrize(("game", "players", "bots", "seed"), [
    ("tchin-tchin", 4, 0, 1),
    ("cheers", 4, 0, 2),
    ("cheers", 3, 1, 3),  # two friends and the box
    ("goblets", 4, 0, 4),
    ("goblets", 5, 2, 5),
    ("goblets", 3, 0, 6),  # Russian Goblette
])
def test_every_game_plays_to_its_end_with_the_pad_and_buzzers_alone(tmp_path, mock_factory, game, players,
                                                                     bots, seed):
    host = Host(tmp_path, mock_factory, seed)
    host.set_up(game, players, bots)
    host.play_to_the_end()
    session = host.shell.session
    assert session is not None and session.finished
    assert session.events[-1]["event"] in ("game_over", "goals_revealed") or any(
        e["event"] == "game_over" for e in session.events)
    assert "Play again, same players" in repr(host.shell.scene())
    host.box.close()
