"""``clinkbox doctor``'s look at the phones: off (no port), or on with its port free to use."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from controller.config import Phones
from controller.doctor.check import Check
from controller.phones.net import box_address


def phones_wanted(cfg: Phones, settings_path: Path) -> bool:
    """On or off: the host's choice in Settings when made, else the config's default."""
    try:
        chosen = json.loads(settings_path.read_text()).get("phones")
    except (OSError, ValueError, AttributeError):
        chosen = None
    return bool(cfg.enabled if chosen is None else chosen)


def check_phones(cfg: Phones, settings_path: Path) -> Check:
    if not phones_wanted(cfg, settings_path):
        return Check("phones", "PASS", "off: the box opens no network port (Settings → Phones turns them on)")
    try:
        import aiohttp  # noqa: F401
        import segno  # noqa: F401
    except ImportError as exc:
        return Check("phones", "FAIL", f"on, but {exc.name} is missing", "make run (it installs what the box needs)")
    with socket.socket(socket.AF_INET6 if ":" in cfg.host else socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((cfg.host, cfg.port))
        except OSError as exc:
            if cfg.port == 0:
                raise
            return Check("phones", "FAIL", f"on, but port {cfg.port} on {cfg.host} cannot be used "
                                           f"({exc.strerror or exc})",
                         "stop what uses it, or set another [phones] port in the config")
    return Check("phones", "PASS", f"on: phones join at http://{box_address(cfg.address)}:{cfg.port}/ "
                                   "(docs/phones.md says what that exposes)")
