"""The phone server: one page and one WebSocket, inside the box's own event loop (aiohttp).

It exists only while phones are on: when they are off, nothing here runs and no port
is open. What it guards (docs/phones.md says what it does not):

- a seat code comes as the first WebSocket message, never in a URL (the join link keeps it in
  the fragment, which the browser does not send), and is never logged;
- the WebSocket's ``Origin`` must be the page's own, and the ``Host`` an address or the box's
  own name (no DNS rebinding);
- each message is bounded in size and each phone in rate; what is refused is answered with
  the reason and the game goes on;
- a phone receives only its own seat's page; a page without a code is the public table.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from controller.phones.hub import PhoneHub
from controller.phones.limits import RateLimit
from controller.phones.page import PAGE

log = logging.getLogger(__name__)

HARD_LIMIT = 65536  # a message longer than this closes the socket (code 1009)
MAX_SOCKETS = 64
PER_ADDRESS = 8  # sockets from one address (one phone needs one; loopback is the box itself)
HELLO_S = 10.0
REFUSALS_BEFORE_CLOSE = 200


@dataclass(eq=False)
class Phone:
    """One open WebSocket."""

    ws: web.WebSocketResponse
    limit: RateLimit
    seat: int | None = None
    address: str = ""
    game: Any = None
    """The game session the seat's code belongs to."""
    issue: int = 0
    """Which of its seat's codes it joined with (1 the first; a reissue makes the next)."""
    sent: str = ""
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class PhoneServer:
    """Serves the phone page and its WebSocket for ``hub``; :meth:`start` opens the port."""

    def __init__(self, hub: PhoneHub, *, host: str = "0.0.0.0", port: int = 8080,
                 max_message_bytes: int = 2048, messages_per_s: float = 8.0, burst: int = 16,
                 names: tuple[str, ...] = (), now: Callable[[], float] = time.monotonic,
                 per_address: int = PER_ADDRESS, loopback_exempt: bool = True) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.max_message_bytes = max_message_bytes
        self.messages_per_s = messages_per_s
        self.burst = burst
        self.now = now
        self.per_address = per_address
        self.loopback_exempt = loopback_exempt
        self.names = {n.lower() for n in (*names, "localhost", socket.gethostname(),
                                         socket.gethostname() + ".local", hub.address) if n}
        self.phones: set[Phone] = set()
        self.refused: dict[str, int] = {}
        """Refusals by kind (for the doctor and the tests): never a token, never a message."""
        self._runner: web.AppRunner | None = None
        self._key: Any = object()

    # -- life --------------------------------------------------------------------------------
    async def start(self) -> int:
        """Open the port; returns the port listened on (useful when ``port`` is 0)."""
        app = web.Application(client_max_size=HARD_LIMIT)
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/favicon.ico", self._no_icon)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except BaseException:  # the port is taken, the address is not the box's...: nothing is left open
            await self._runner.cleanup()
            self._runner = None
            raise
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            self.port = server.sockets[0].getsockname()[1]
        self.hub.port = self.port
        log.info("phones: serving on port %d", self.port)
        return self.port

    async def stop(self) -> None:
        for phone in list(self.phones):
            await phone.ws.close(code=1001, message=b"the box stopped serving phones")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            log.info("phones: port closed")

    @property
    def running(self) -> bool:
        return self._runner is not None

    # -- every frame ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Follow the game: drop phones whose code ended, push pages that changed."""
        self.hub.sync()
        changes = self.hub.take_changes()
        if changes or self.hub.reissued:
            self.hub.reissued.clear()
            keys = self.hub.keys
            ended = keys is None or keys.ended
            for phone in list(self.phones):
                if phone.seat is None:
                    continue
                if phone.game is not self.hub.session:
                    asyncio.ensure_future(self._close(phone, 4003, "this seat code has ended with its game"))
                elif ended:  # the last page, then the code is over
                    asyncio.ensure_future(self._close(phone, 4003, "the game is over: thanks for playing",
                                                      final=True))
                elif keys is not None and phone.issue != keys.issued.get(phone.seat):
                    # its code was replaced (a phone that joined with the new one stays)
                    asyncio.ensure_future(self._close(phone, 4003, "the host gave this seat a new code"))
        key = self.hub.game_key
        if key != self._key or changes:
            self._key = key
            for phone in self.phones:
                phone.wake.set()

    # -- HTTP ----------------------------------------------------------------------------------
    def _host_ok(self, request: web.BaseRequest) -> bool:
        host = (request.host or "").strip().lower()
        if host.startswith("["):  # an IPv6 address, with or without its port
            host = host[1:].split("]", 1)[0]
        else:
            host = host.rsplit(":", 1)[0]
        if host in self.names:
            return True
        try:
            ipaddress.ip_address(host)
            return True
        except ValueError:
            return False

    def _refuse(self, kind: str) -> None:
        self.refused[kind] = self.refused.get(kind, 0) + 1

    async def _page(self, request: web.Request) -> web.StreamResponse:
        if not self._host_ok(request):
            self._refuse("host")
            return web.Response(status=421, text="this box answers to its own address only")
        return web.Response(body=PAGE.body, content_type="text/html", charset="utf-8",
                            headers=PAGE.headers)

    async def _no_icon(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)  # browsers ask for one; the page needs none

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin", "")
        if not self._host_ok(request) or origin != f"{request.scheme}://{request.host}":
            self._refuse("origin")
            log.warning("phones: a socket from another origin was refused")
            return web.Response(status=403, text="refused: a phone's socket must come from this box's own page")
        if len(self.phones) >= MAX_SOCKETS:
            self._refuse("full")
            return web.Response(status=503, text="too many phones connected")
        address = request.remote or ""
        if not (self.loopback_exempt and _loopback(address)) \
                and sum(1 for p in self.phones if p.address == address) >= self.per_address:
            self._refuse("address")
            return web.Response(status=503, text=f"too many sockets from one address (at most {self.per_address})")
        ws = web.WebSocketResponse(max_msg_size=HARD_LIMIT, heartbeat=20.0)
        await ws.prepare(request)
        phone = Phone(ws, RateLimit(self.messages_per_s, self.burst, self.now), address=address)
        self.phones.add(phone)
        try:
            if await self._hello(phone):
                phone.writer = asyncio.ensure_future(self._writer(phone))
                phone.wake.set()
                async for msg in ws:
                    if msg.type == WSMsgType.TEXT:
                        await self._message(phone, msg.data)
                    elif msg.type == WSMsgType.BINARY:
                        await self._answer(phone, "refused", reason="send text (JSON) messages")
                    else:
                        break
        finally:
            self.phones.discard(phone)
            if phone.writer is not None:
                phone.writer.cancel()
            if phone.seat is not None:
                self.hub.left(phone.seat, phone.game)
            if ws.close_code is None and not ws.closed:
                await ws.close()
        if ws.exception() is not None:
            self._refuse("oversized" if "size" in str(ws.exception()).lower() else "broken")
        return ws

    async def _hello(self, phone: Phone) -> bool:
        """The first message: ``{"type": "hello", "token": "..."}`` (or no token: the public table)."""
        try:
            msg = await phone.ws.receive(timeout=HELLO_S)
        except asyncio.TimeoutError:
            await self._close(phone, 4000, "say hello first")
            return False
        if msg.type != WSMsgType.TEXT or len(msg.data) > self.max_message_bytes:
            await self._close(phone, 4000, "the first message must be a short hello")
            return False
        try:
            hello = json.loads(msg.data)
        except (ValueError, RecursionError):
            hello = None
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            await self._close(phone, 4000, "the first message must be {\"type\": \"hello\"}")
            return False
        token = hello.get("token")
        if token:
            self.hub.sync()
            seat = self.hub.seat_of(token)
            keys = self.hub.keys
            over = keys.ended_seat_of(token) if seat is None and keys is not None and keys.ended else None
            if over is not None:  # a phone that slept through the end: its seat's last page
                last = self.hub.page(over, self.hub.session)
                if last is not None:
                    await phone.ws.send_str(last)
                await self._close(phone, 4003, "the game is over: thanks for playing")
                return False
            if seat is None:
                self._refuse("token")
                log.info("phones: an unknown or ended seat code was refused")
                await self._close(phone, 4001, "this seat code is unknown or has ended: ask the host "
                                               "for a new one (hold Prev on the pad)")
                return False
            phone.seat = seat
            phone.issue = self.hub.keys.issued.get(seat, 0) if self.hub.keys is not None else 0
            phone.game = self.hub.joined(seat)
            log.info("phones: seat %d joined", seat)
            for other in list(self.phones):  # one phone a seat: the one that joined last
                if other is phone or other.seat != seat or other.game is not phone.game:
                    continue
                if other.issue != phone.issue:  # it held the code the host replaced
                    asyncio.ensure_future(self._close(other, 4003, "the host gave this seat a new code"))
                    continue
                self._refuse("taken over")
                log.info("phones: seat %d's earlier phone was dropped for the one that joined", seat)
                asyncio.ensure_future(self._close(
                    other, 4002, f"another phone joined seat {seat} with its code, so this one stops "
                                 "here. If that was not yours, ask the host for a new code for the "
                                 "seat (hold Prev on the pad)"))
        await self._answer(phone, "welcome", seat=phone.seat)
        return True

    async def _message(self, phone: Phone, data: str) -> None:
        if not phone.limit.take():
            self._refuse("rate")
            if phone.limit.refused >= REFUSALS_BEFORE_CLOSE:
                await self._close(phone, 1008, "too many messages")
                return
            await self._answer(phone, "refused", reason=f"too many messages: at most "
                                                          f"{self.messages_per_s:g} a second")
            return
        size = len(data.encode("utf-8"))
        if size > self.max_message_bytes:
            self._refuse("size")
            await self._answer(phone, "refused", reason=f"message too long ({size} bytes; at most "
                                                          f"{self.max_message_bytes})")
            return
        try:
            msg = json.loads(data)
        except ValueError as exc:
            self._refuse("json")
            await self._answer(phone, "refused", reason=f"not a JSON message ({getattr(exc, 'msg', exc)})")
            return
        except RecursionError:
            self._refuse("json")
            await self._answer(phone, "refused", reason="not a JSON message (nested too deeply)")
            return
        if not isinstance(msg, dict):
            self._refuse("json")
            await self._answer(phone, "refused", reason="a message must be a JSON object")
            return
        ref = msg.get("ref") if isinstance(msg.get("ref"), int) else None
        kind = msg.get("type")
        if kind == "ping":
            await self._answer(phone, "pong", ref=ref)
        elif kind == "do":
            if phone.seat is None:
                reason: str | None = "the public table cannot play: scan your seat's code"
            else:
                reason = self.hub.act(phone.seat, msg.get("action"), phone.game, msg.get("step"))
            if reason is None:
                await self._answer(phone, "done", ref=ref)
            else:
                self._refuse("action")
                await self._answer(phone, "refused", reason=reason, ref=ref)
            self.refresh()
        else:
            self._refuse("kind")
            await self._answer(phone, "refused", reason=f"unknown message type {kind!r} "
                                                          "(expected do or ping)", ref=ref)

    async def _answer(self, phone: Phone, kind: str, **fields: Any) -> None:
        if not phone.ws.closed:
            await phone.ws.send_str(json.dumps({"type": kind, **fields}))

    async def _writer(self, phone: Phone) -> None:
        """Sends the phone its page whenever it changed (updates in between are merged)."""
        while not phone.ws.closed:
            await phone.wake.wait()
            phone.wake.clear()
            text = self.hub.page(phone.seat, phone.game)
            if text is not None and text != phone.sent:
                phone.sent = text
                try:
                    await phone.ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    return

    async def _close(self, phone: Phone, code: int, reason: str, final: bool = False) -> None:
        if phone.ws.closed:
            return
        try:
            last = self.hub.page(phone.seat, phone.game) if final else None
            if last is not None and last != phone.sent:
                await phone.ws.send_str(last)
            await self._answer(phone, "bye", reason=reason)
            await phone.ws.close(code=code, message=reason.encode()[:120])
        except (ConnectionError, RuntimeError):
            pass
