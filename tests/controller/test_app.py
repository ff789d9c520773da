"""The whole box, headless, on gpiozero's MockFactory."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from controller.app import Box
from controller.config import Config, Display


def headless_config(tmp_path) -> Config:
    return Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"))


def test_the_box_starts_to_the_main_menu_headless_on_mock_pins(tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory,
              frames_dir=tmp_path / "frames")
    result = asyncio.run(box.run(exit_after_menu=True))
    assert result == "menu" and box.menu_shown_at is not None
    assert box.shell.mode == "main"


def test_buttons_reach_the_menu_through_the_event_loop(tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)

    async def scenario():
        task = asyncio.create_task(box.run(seconds=1.0))
        await asyncio.sleep(0.2)
        mock_factory.pin(15).drive_low()  # Next, from gpiozero's thread
        mock_factory.pin(15).drive_high()
        await asyncio.sleep(0.2)
        cursor = box.shell.main.cursor
        await task
        return cursor

    assert asyncio.run(scenario()) == 1


def test_a_buzzer_stuck_down_for_thirty_seconds_disables_its_station_and_the_table_is_told(
        tmp_path, mock_factory):
    box = Box(headless_config(tmp_path), simulate=False, pin_factory=mock_factory)
    mock_factory.pin(4).drive_low()  # station 1's buzzer goes down and stays down
    t = box.panel.down_since[1]
    box._watch_stuck(t + 29.0)
    assert 1 not in box.shell.disabled
    box._watch_stuck(t + 30.0)
    assert 1 in box.shell.disabled
    assert "Station 1's buzzer is stuck down" in box.shell.scene().footer
    mock_factory.pin(4).drive_high()
    box._watch_stuck(t + 31.0)
    assert 1 not in box.shell.disabled
    box.close()


def test_clinkbox_help_lists_the_commands():
    out = subprocess.run([sys.executable, "-m", "controller.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for command in ("run", "replay", "doctor", "speech", "mic-test", "screenshots", "journal"):
        assert command in out.stdout


def test_startup_time_is_reported(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                          "--exit-after-menu"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["startup_s"] > 0
