"""Shared test set-up: headless SDL, and gpiozero's MockFactory for every device."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402
from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402
from hypothesis import settings  # noqa: E402

# no test depends on how fast the machine is: hypothesis's per-example deadline (200 ms by
# default) is off everywhere, not only where a test says so
settings.register_profile("clinkbox", deadline=None)
settings.load_profile("clinkbox")


#: make test-arm64 (scripts/test-arm64.sh) runs the suite under qemu's user-mode emulation, 20 to
#: 100 times slower than a Pi, and says so in this variable
EMULATION = os.environ.get("CLINKBOX_EMULATION", "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under emulation a test marked ``realtime`` (the live box or listener fed audio in real
    time, which the machine must keep up with) says nothing about the box: it is skipped, and
    says why."""
    if not EMULATION:
        return
    skip = pytest.mark.skip(reason=f"real time under {EMULATION} emulation, which cannot keep up with "
                                   "the audio: run it on the machine itself")
    for item in items:
        if item.get_closest_marker("realtime"):
            item.add_marker(skip)


@pytest.fixture
def mock_factory():
    """A fresh MockFactory as gpiozero's default pin factory, closed after the test."""
    factory = MockFactory()
    old = Device.pin_factory
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = old


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """An empty user data directory for the journal and settings."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "clinkbox"
