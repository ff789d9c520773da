"""The built-in games. Importing this package registers each game's flow.

A game that fails to import is logged and left out: the other games and the
box's menus still work.
"""

import importlib
import logging

log = logging.getLogger(__name__)

BUILT_IN = ("tchin_tchin", "cheers", "goblets")
BROKEN: dict[str, str] = {}

for _name in BUILT_IN:
    try:
        importlib.import_module(f"controller.games.{_name}")
    except Exception as exc:  # one broken game must not take the box down
        BROKEN[_name] = f"{type(exc).__name__}: {exc}"
        log.error("game %s cannot be loaded: %s", _name, BROKEN[_name])
