"""Phones: a tap to the TV updated, with 12 phones connected; and the press-to-lock p99 while
12 phones are connected. Everything over loopback, the box's real loop, server and renderer.

``phone_action_p95_ms``: from a phone sending its action to the end of the first TV frame
drawn after the game took it (the box draws at ``display.fps``), 12 seats of Raise Your
Goblets each on its own WebSocket. ``button_to_lock_p99_ms_with_phones``: bench/buttons.py's
measure with 12 phones on the public table, each sent every change.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from typing import Any

import aiohttp

from controller.app import Box
from controller.config import Config, Display, Phones, Sound, Speech

PLAYERS = 12


def _pctl(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def _join(http: aiohttp.ClientSession, port: int, token: str | None) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}")
    await ws.send_str(json.dumps({"type": "hello", "token": token}))
    return ws


async def _actions(box: Box, actions: int) -> list[float]:
    drawn: list[tuple[float, int]] = []
    task = asyncio.create_task(box.run())
    while box.renderer is None or box.phones._busy is None:
        await asyncio.sleep(0.01)
    await box.phones._busy
    renderer = box.renderer
    present = renderer.present

    def timed_present() -> None:
        present()
        session = box.shell.session
        drawn.append((time.perf_counter(), session.fed if session is not None else -1))

    renderer.present = timed_present
    latencies: list[float] = []
    async with aiohttp.ClientSession() as http:
        while len(latencies) < actions:
            box.shell.start_game({"game": "goblets", "seed": len(latencies), "players": PLAYERS})
            box.phones.server.refresh()
            hub = box.shell.phones
            hub.screen_nav("ok")
            port = box.phones.server.port
            phones = {s: await _join(http, port, hub.keys.token(s)) for s in hub.keys.seats}
            readers = [asyncio.create_task(_drain(ws)) for ws in phones.values()]
            while len(latencies) < actions and not box.shell.session.finished:
                engine = box.shell.session.flow.engine
                seat = engine.current_player
                legal = [a for a in engine.legal_actions() if a.seat == seat]
                from models.goblets import to_dict

                move = to_dict(legal[len(latencies) % len(legal)])
                fed = box.shell.session.fed
                t0 = time.perf_counter()
                await phones[seat].send_str(json.dumps({"type": "do", "action": move}))
                while not any(n > fed for _, n in drawn[-3:]):
                    await asyncio.sleep(0.001)
                t1 = next(t for t, n in drawn if n > fed and t >= t0)
                latencies.append((t1 - t0) * 1000)
                drawn.clear()
            for ws in phones.values():
                await ws.close()
            for r in readers:
                r.cancel()
    box.request = "quit"
    await task
    return latencies


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass


def phone_actions(actions: int = 200) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Config(display=Display(mode="headless"), data_dir=tmp, speech=Speech(engine="off"),
                     sound=Sound(enabled=False),
                     phones=Phones(enabled=True, host="127.0.0.1", port=0, address="127.0.0.1"))
        box = Box(cfg, simulate=True, mode="headless")
        latencies = asyncio.run(_actions(box, actions))
    return {"actions": len(latencies), "p50_ms": round(statistics.median(latencies), 2),
            "p95_ms": round(_pctl(latencies, 0.95), 2), "max_ms": round(max(latencies), 2)}


def presses_with_phones(trials: int = 1000) -> dict[str, Any]:
    """bench/buttons.py's press-to-lock with 12 phones on the public table (a thread of their own)."""
    from bench import buttons

    return buttons.measure(trials, phones=PLAYERS)


def run() -> dict[str, Any]:
    from bench import buttons

    actions = phone_actions()
    presses = presses_with_phones()
    alone = buttons.measure(1000)  # the same machine, the same minute, no phones: for comparison
    return {"phone_action_p95_ms": actions["p95_ms"], "phone_action": actions,
            "button_to_lock_p99_ms_with_phones": presses["p99_ms"],
            "button_to_lock_with_phones": {**presses, "p99_ms_without_phones_same_run": alone["p99_ms"]}}


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
