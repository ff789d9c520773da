"""The games the box plays, listed once: the menu, the replay, the screenshots, the
doctor and the shell all read this registry, and none of them names a game.

Each game is one package here, ``controller/games/<package>/`` (its flow, header, set-up
menus, scenes and demo), with its rules in ``models/<package>/``. The package's
``__init__`` names its flow class ``Flow`` (which declares the game's id, as written in a
header, and its title); its ``demo`` module, if any, has ``demo_scenes()`` for the README.

To add a game: write its two packages and add the package's name to :data:`PACKAGES`.

A game that fails to import is logged and left out (:data:`BROKEN` says why): the other
games and the box's menus still work.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.flow import GameFlow, HeaderError
from hardware.display.widgets import Scene

log = logging.getLogger(__name__)

#: the built-in games, in the main menu's order
PACKAGES = ("tchin_tchin", "cheers", "goblets")

#: every game the box can start, by id (the header's ``game``)
FLOWS: dict[str, type[GameFlow]] = {}
#: built-in games that could not be loaded: package -> why
BROKEN: dict[str, str] = {}


@dataclass(frozen=True)
class BuiltIn:
    """One built-in game: its package's name and its flow class."""

    package: str
    flow: type[GameFlow]

    @property
    def game(self) -> str:
        return self.flow.game

    @property
    def title(self) -> str:
        return self.flow.title

    def demo(self) -> Callable[[], list[tuple[str, Scene]]] | None:
        """The game's ``demo_scenes`` (None when it has no demo)."""
        found: Callable[[], list[tuple[str, Scene]]] | None = self.part("demo", "demo_scenes")
        return found

    def part(self, module: str, name: str) -> Any:
        """``name`` from the game's optional module ``module`` (None when it has none), e.g.
        ``part("phone", "PHONE")``: what a phone shows of the game (controller/phones)."""
        try:
            found = importlib.import_module(f"{__name__}.{self.package}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{self.package}.{module}":
                raise
            return None
        return getattr(found, name, None)


_built_in: list[BuiltIn] | None = None


def register(cls: type[GameFlow]) -> type[GameFlow]:
    """Make a flow startable by its id (the built-in games are registered by :func:`built_in`)."""
    FLOWS[cls.game] = cls
    return cls


def built_in() -> list[BuiltIn]:
    """The built-in games that loaded, in menu order (imports them on first use)."""
    global _built_in
    if _built_in is None:
        _built_in = []
        for package in PACKAGES:
            try:
                flow = importlib.import_module(f"{__name__}.{package}").Flow
            except Exception as exc:  # one broken game must not take the box down
                BROKEN[package] = f"{type(exc).__name__}: {exc}"
                log.error("game %s cannot be loaded: %s", package, BROKEN[package])
                continue
            register(flow)
            _built_in.append(BuiltIn(package, flow))
    return list(_built_in)


def flow_for(game: str) -> type[GameFlow]:
    """The flow class for a game's id; a :class:`HeaderError` naming the known games if none."""
    built_in()
    try:
        return FLOWS[game]
    except KeyError:
        known = ", ".join(sorted(FLOWS)) or "none"
        raise HeaderError(f"unknown game {game!r} (known: {known})") from None
