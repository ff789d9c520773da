"""Phones in the running box: off by default with no port open; the setting opens and closes it."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from controller.app import Box
from controller.config import Config, Display, Phones, Sound, Speech


def listening_ports() -> set[int]:
    """TCP ports this process listens on (from /proc: the sockets it holds in LISTEN state)."""
    mine = set()
    for fd in Path("/proc/self/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            mine.add(target[8:-1])
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] == "0A" and f[9] in mine:  # 0A: LISTEN
                ports.add(int(f[1].rsplit(":", 1)[1], 16))
    return ports


def config(tmp_path: Path, **phones) -> Config:
    return Config(display=Display(mode="headless", width=640, height=360), data_dir=str(tmp_path / "data"),
                  speech=Speech(engine="off"), sound=Sound(enabled=False),
                  phones=Phones(host="127.0.0.1", port=0, **phones))


async def frames(box: Box, n: int = 3) -> None:
    """Let the box's own loop go round, then follow the setting as a frame does, to the end."""
    for _ in range(n):
        await asyncio.sleep(0)
    box.phones.step()
    if box.phones._busy is not None:
        await box.phones._busy


def test_with_phones_off_the_box_opens_no_port(tmp_path):
    box = Box(config(tmp_path), simulate=True, mode="headless")
    before = listening_ports()

    async def scenario():
        task = asyncio.create_task(box.run())
        await frames(box, 5)
        during = listening_ports()
        box.request = "quit"
        await task
        return during

    during = asyncio.run(scenario())
    assert box.shell.settings["phones"] is False and box.phones.server is None
    assert during == before, "no port was opened"


def test_the_setting_opens_the_port_and_turning_it_off_closes_it(tmp_path):
    box = Box(config(tmp_path), simulate=True, mode="headless")
    before = listening_ports()

    async def scenario():
        task = asyncio.create_task(box.run())
        await frames(box)
        box.shell.settings["phones"] = True
        await frames(box)
        port = box.phones.server.port
        on = listening_ports()
        box.shell.settings["phones"] = False
        await frames(box)
        off = listening_ports()
        box.request = "quit"
        await task
        return port, on, off

    port, on, off = asyncio.run(scenario())
    assert on - before == {port}
    assert off == before and box.shell.phones is None


def test_the_config_turns_phones_on_until_the_host_chooses_in_settings(tmp_path):
    box = Box(config(tmp_path, enabled=True), simulate=True, mode="headless")
    assert box.shell.settings["phones"] is True

    async def scenario():
        task = asyncio.create_task(box.run())
        await frames(box)
        running = box.phones.server is not None
        box.request = "quit"
        await task
        return running

    assert asyncio.run(scenario())
    assert box.phones.server is None, "closing the box closed the port"
