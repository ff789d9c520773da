"""The host's escape hatches at a party, through the whole box on MockFactory pins:
holding Back for 5 s, and Shut down / Restart from the menu (no keyboard at a party).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
from pathlib import Path

import flows_for_tests  # noqa: F401  (registers "countdown-test")
import pytest

from controller import cli
from controller.app import Box
from controller.config import Config, Display
from hardware.buttons import ButtonEvent

HEADER = {"game": "countdown-test", "seed": 3, "players": 4}
BACK_PIN, PREV_PIN, OK_PIN = 10, 14, 9
# only against a hang: the running box stops by itself once the host has chosen
HANG_GUARD_S = 600.0


def make_box(tmp_path: Path, factory) -> Box:
    cfg = Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"))
    return Box(cfg, simulate=False, pin_factory=factory)


def hold_back(box: Box, factory) -> float:
    """Press Back on its pin; the event reaches the shell as it does from gpiozero's thread."""
    box.panel.on_event = box.shell.button  # no loop in these tests: straight to the shell
    factory.pin(BACK_PIN).drive_low()
    assert box.shell.back_down_at is not None
    return box.shell.back_down_at


def test_holding_back_five_seconds_in_a_game_returns_to_the_menu_and_keeps_the_game_as_abandoned(
        tmp_path, mock_factory):
    box = make_box(tmp_path, mock_factory)
    box.shell.start_game(dict(HEADER))
    game_id = box.shell.session.game_id
    down = hold_back(box, mock_factory)
    box.shell.tick(down + box.cfg.buttons.long_back_s - 0.01)
    assert box.shell.mode == "game", "not yet five seconds"
    box.shell.tick(down + box.cfg.buttons.long_back_s)
    assert box.shell.mode == "main"
    assert box.shell.scene().footer == "Back held: returned to the main menu."
    assert (game_id, "countdown-test", "abandoned") in box.journal.games()
    assert box.journal.in_progress() is None, "not offered for resume"
    box.close()


def test_letting_go_of_back_before_five_seconds_keeps_the_game(tmp_path, mock_factory):
    box = make_box(tmp_path, mock_factory)
    box.shell.start_game(dict(HEADER))
    down = hold_back(box, mock_factory)
    mock_factory.pin(BACK_PIN).drive_high()
    box.shell.tick(down + 10.0)
    assert box.shell.mode == "game"
    assert [e["event"] for e in box.shell.session.events][-1] == "nav", "a short Back is the game's own"
    box.close()


@pytest.mark.parametrize("where", ["settings", "shutdown", "setup"])
def test_holding_back_gets_out_of_any_menu(tmp_path, mock_factory, where):
    box = make_box(tmp_path, mock_factory)
    if where == "setup":
        box.shell.begin_setup("countdown-test")
    else:
        box.shell.nav("prev")  # Shut down
        if where == "settings":
            box.shell.nav("prev")
        box.shell.nav("ok")
    assert box.shell.mode == where
    down = hold_back(box, mock_factory)
    box.shell.tick(down + 5.0)
    assert box.shell.mode == "main"
    box.close()


@pytest.mark.parametrize(("presses", "choice"), [(3, "poweroff"), (2, "reboot"), (1, "restart")])
def test_the_shut_down_menu_stops_the_running_box_with_the_host_s_choice(tmp_path, mock_factory, presses,
                                                                         choice):
    box = make_box(tmp_path, mock_factory)

    async def party() -> str | None:
        task = asyncio.create_task(box.run(seconds=HANG_GUARD_S))
        while box.menu_shown_at is None:  # until the main menu is up, however long that takes
            await asyncio.sleep(0.01)
        for pin in [PREV_PIN, OK_PIN] + [PREV_PIN] * presses + [OK_PIN]:  # Shut down, then up from Cancel
            mock_factory.pin(pin).drive_low()
            mock_factory.pin(pin).drive_high()
            await asyncio.sleep(0)  # the loop runs the queued press and release
        return await task

    assert asyncio.run(party()) == choice
    box.close()


def test_cancel_goes_back_to_the_menu_and_the_box_runs_on(tmp_path, mock_factory):
    box = make_box(tmp_path, mock_factory)
    box.panel.on_event = box.shell.button
    for pin in (PREV_PIN, OK_PIN, OK_PIN):  # Shut down, Cancel (where the cursor starts)
        mock_factory.pin(pin).drive_low()
        mock_factory.pin(pin).drive_high()
    assert box.shell.mode == "main" and box.request is None
    box.close()


@pytest.mark.parametrize(("choice", "command", "code"), [
    ("poweroff", ["systemctl", "poweroff"], 0), ("reboot", ["systemctl", "reboot"], 0), ("restart", None, 75)])
def test_the_service_acts_on_the_request(monkeypatch, tmp_path, choice, command, code):
    """poweroff/reboot go to systemd (allowed by the install's polkit rule); restart exits 75, which
    the unit's Restart=always turns into a fresh start."""
    ran: list[list[str]] = []

    class FinishedBox:
        def __init__(self, cfg, **kwargs):
            self.shell = type("S", (), {"notices": []})()
            self.menu_shown_at = None
            self.script = None

        async def run(self, **kwargs):
            return choice

    monkeypatch.setattr("controller.app.Box", FinishedBox)
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: ran.append(args))
    args = argparse.Namespace(headless=True, frames=None, simulate=True, exit_after_menu=False, seconds=None,
                              script=None)
    assert cli.run_box(Config(), args, None) == code
    assert ran == ([command] if command else [])


def test_a_press_from_the_pad_never_counts_as_a_buzzer(tmp_path, mock_factory):
    box = make_box(tmp_path, mock_factory)
    box.shell.start_game(dict(HEADER))
    box.shell.button(ButtonEvent(box.shell.t0 + 1.0, True, nav="ok"))
    assert [e["event"] for e in box.shell.session.events] == ["ready", "nav"]
    box.close()
