"""Card art drawn by the project: painters for :class:`~hardware.display.widgets.Glyph` kinds.

A painter draws one glyph into a rectangle of a pygame surface::

    @painter("flag")
    def draw_flag(surface, rect, glyph): ...

Each game's art lives in its own module here; :func:`load` imports every module of
this package, so a new game's art is one new module and no list to update.
An unknown kind is drawn as its label in a box, never an error.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import pygame

    from hardware.display.widgets import Glyph

log = logging.getLogger(__name__)

Painter = Callable[["pygame.Surface", "pygame.Rect", "Glyph"], None]
PAINTERS: dict[str, Painter] = {}
_loaded = False


def painter(kind: str) -> Callable[[Painter], Painter]:
    def deco(fn: Painter) -> Painter:
        PAINTERS[kind] = fn
        return fn

    return deco


def load() -> dict[str, Painter]:
    """Import every art module once (they register their painters)."""
    global _loaded
    if not _loaded:
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
            name = module.name
            try:
                importlib.import_module(f"hardware.display.art.{name}")
            except Exception as exc:  # missing art draws as labels; it must not stop the screen
                log.error("card art %s not loaded: %s", name, exc)
        _loaded = True
    return PAINTERS
