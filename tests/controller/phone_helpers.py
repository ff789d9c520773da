"""Shared set-up for the phone tests: a shell with a game in play, the real phone server on a
free loopback port, and phones that talk to it over real WebSockets."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import aiohttp

from controller.flow import Input
from controller.journal import Journal
from controller.phones.hub import PhoneHub
from controller.phones.server import PhoneServer
from controller.shell import Shell

HEADERS = {
    "cheers": {"game": "cheers", "seed": 7, "players": 4},
    "goblets": {"game": "goblets", "seed": 7, "players": 4, "options": {"characters": True}},
    "tchin-tchin": {"game": "tchin-tchin", "seed": 3, "players": 4},
}


def shell_with(game: str, journal: Journal | None = None, header: dict[str, Any] | None = None) -> Shell:
    shell = Shell(journal or Journal(None))
    shell.start_game(header or HEADERS[game])
    assert shell.mode == "game", shell.scene()
    return shell


def seated(shell: Shell) -> Shell:
    """Cheers: on past the seating and the goals on the TV (the host's OK, then Next for each
    seat), to the table, where phones may move; the other games start there."""
    session = shell.session
    flow = session.flow
    while getattr(flow, "phase", None) in ("seating", "reveal"):
        nav = "ok" if flow.phase == "seating" else "next"
        session.feed(Input(session.clock.now(), "nav", nav=nav), settle=True)
    return shell


def hub_on(shell: Shell) -> PhoneHub:
    """A phone hub with no server, on the shell's game: its codes issued, the join screen up."""
    hub = PhoneHub(shell, address="127.0.0.1", port=8080)
    shell.phones = hub
    hub.sync()
    return hub


@asynccontextmanager
async def serving(shell: Shell, **kwargs: Any) -> AsyncIterator[tuple[PhoneHub, PhoneServer]]:
    hub = PhoneHub(shell, address="127.0.0.1", port=0)
    shell.phones = hub
    server = PhoneServer(hub, host="127.0.0.1", port=0, **kwargs)
    await server.start()
    server.refresh()
    try:
        yield hub, server
    finally:
        await server.stop()
        shell.phones = None


class Phone:
    """One phone on a real WebSocket: its hello, and every message it received."""

    def __init__(self, http: aiohttp.ClientSession, port: int) -> None:
        self.http = http
        self.port = port
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.received: list[str] = []

    async def join(self, token: str | None, origin: str | None = None) -> dict[str, Any]:
        self.ws = await self.http.ws_connect(f"http://127.0.0.1:{self.port}/ws",
                                             origin=origin or f"http://127.0.0.1:{self.port}")
        await self.ws.send_str(json.dumps({"type": "hello", "token": token}))
        return await self.next()

    async def next(self) -> dict[str, Any]:
        assert self.ws is not None
        msg = await self.ws.receive(timeout=600)  # only against a hang: a slow machine changes nothing
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": "closed", "code": self.ws.close_code}
        self.received.append(msg.data)
        return json.loads(msg.data)

    async def next_of(self, kind: str) -> dict[str, Any]:
        while True:
            m = await self.next()
            if m["type"] in (kind, "closed"):
                return m

    async def send(self, message: Any) -> None:
        assert self.ws is not None
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def do(self, action: dict[str, Any], ref: int = 1) -> dict[str, Any]:
        await self.send({"type": "do", "action": action, "ref": ref})
        while True:
            m = await self.next()
            if m["type"] in ("done", "refused", "closed") and m.get("ref", ref) == ref:
                return m
