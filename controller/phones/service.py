"""Phones on and off with the host's setting: the server starts when it is turned on and
stops (closing its port) when it is turned off. The box calls :meth:`Phones.step` every frame."""

from __future__ import annotations

import asyncio
import errno
import logging
from typing import Any

from controller.config import Phones as PhonesConfig
from controller.phones.hub import PhoneHub
from controller.phones.net import box_address
from controller.phones.qr import wifi_code

log = logging.getLogger(__name__)


class Phones:
    def __init__(self, shell: Any, cfg: PhonesConfig) -> None:
        self.shell = shell
        self.cfg = cfg
        self.server: Any = None
        self._busy: asyncio.Future[None] | None = None

    @property
    def wanted(self) -> bool:
        return bool(self.shell.settings.get("phones", self.cfg.enabled))

    def step(self) -> None:
        """Follow the setting; while on, follow the game and push pages."""
        if self._busy is not None and not self._busy.done():
            return
        if self.wanted and self.server is None:
            self._busy = asyncio.ensure_future(self.start())
        elif not self.wanted and self.server is not None:
            self._busy = asyncio.ensure_future(self.stop())
        elif self.server is not None:
            self.server.refresh()

    async def start(self) -> None:
        from controller.phones.server import PhoneServer  # aiohttp is loaded only when phones are on

        cfg = self.cfg
        wifi = wifi_code(cfg.wifi_ssid, cfg.wifi_password, cfg.wifi_security) if cfg.wifi_ssid else ""
        hub = PhoneHub(self.shell, address=box_address(cfg.address), port=cfg.port, wifi=wifi)
        server = PhoneServer(hub, host=cfg.host, port=cfg.port, max_message_bytes=cfg.max_message_bytes,
                             messages_per_s=cfg.messages_per_s, burst=cfg.burst)
        try:
            await server.start()
        except OSError as exc:
            log.error("phones: cannot listen on %s:%d (%s)", cfg.host, cfg.port, exc)
            if exc.errno == errno.EADDRINUSE:
                why = f"port {cfg.port} is already in use by another program"
                fix = "choose another [phones] port in the config"
            elif exc.errno == errno.EADDRNOTAVAIL:
                why = f"{cfg.host} is not an address of this box"
                fix = "correct [phones] host in the config"
            else:
                why = f"cannot use port {cfg.port} ({exc.strerror or exc})"
                fix = "see [phones] in the config"
            self.shell.notices.append(f"Phones: {why}; phones are off ({fix})")
            # off for this evening (Settings shows it; choosing on tries again), but the host's
            # own choice stays in the settings file: the next start tries the port again
            self.shell.kept.setdefault("phones", self.shell.settings.get("phones"))
            self.shell.settings["phones"] = False
            return
        self.server = server
        self.shell.phones = hub
        self.shell.notices.append(f"Phones on: http://{hub.address}:{server.port}/")

    async def stop(self) -> None:
        server, self.server = self.server, None
        self.shell.phones = None
        self.shell.phone_seats.clear()
        if server is not None:
            await server.stop()

    async def close(self) -> None:
        if self._busy is not None and not self._busy.done():
            await self._busy
        await self.stop()
