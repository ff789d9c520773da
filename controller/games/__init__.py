"""The built-in games. Importing this package registers each game's flow."""

import importlib
import logging

log = logging.getLogger(__name__)

for _name in ("tchin_tchin", "cheers", "goblets"):
    try:
        importlib.import_module(f"controller.games.{_name}")
    except ModuleNotFoundError as exc:  # a game still being built must not stop the others
        if exc.name != f"controller.games.{_name}":
            raise
        log.debug("game module %s not present", _name)
