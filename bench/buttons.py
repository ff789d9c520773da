"""Button edge to lock-out decision, through the box's real path, on gpiozero's MockFactory.

A worker thread drives a pin (as gpiozero's own thread would), the edge goes
through :class:`~hardware.buttons.Panel`, ``loop.call_soon_threadsafe``, the
shell, the journal (SQLite, on disk) and the Tchin Tchin flow; the clock stops
when the claim is decided and the claimant's LED is the only one lit.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory

from controller.config import Config
from controller.journal import Journal
from controller.shell import Shell
from hardware.buttons import Panel

HEADER = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24"], "first": 1}
# D24 (Russian, tequila, Big Ben) invites MX (station 3) and RU (station 4)


class TimedLeds:
    def __init__(self, panel: Panel) -> None:
        self.panel = panel
        self.last_change = 0.0

    def set(self, station: int, state: str) -> None:
        self.panel.set(station, state)
        self.last_change = time.monotonic()


def _phones(port: int, count: int) -> Any:
    """``count`` phones on the public table, in a process of their own (as phones are devices of
    their own), each on its own WebSocket reading every page; they leave when stdin closes."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "bench.phone_clients", str(port), str(count)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def measure(trials: int = 1000, gap_s: float | None = None, phones: int = 0) -> dict[str, Any]:
    """``gap_s`` None: single presses (latency); a number: pairs that far apart (order).
    ``phones``: that many phones connected to the phone server throughout (0: phones off)."""
    cfg = Config()
    factory = MockFactory()
    loop = asyncio.new_event_loop()
    stations = {i: (s.button, s.led) for i, s in enumerate(cfg.stations[:4], 1)}
    pad = {"prev": cfg.pad.prev, "next": cfg.pad.next, "ok": cfg.pad.ok, "back": cfg.pad.back}
    decided = threading.Event()
    result: dict[str, Any] = {}
    tmp = tempfile.TemporaryDirectory()
    shell_box: dict[str, Shell] = {}
    panel = Panel(stations, pad, lambda ev: loop.call_soon_threadsafe(shell_box["s"].button, ev),
                  bounce_s=0, pin_factory=factory)
    leds = TimedLeds(panel)
    # as on the box with a recogniser running: timers behind real time, presses decided at once
    shell = Shell(Journal(Path(tmp.name) / "journal.sqlite3"), leds=leds, decision_lag_s=0.5)
    shell_box["s"] = shell
    latencies: list[float] = []
    wrong = 0

    def on_event(ev: dict[str, Any]) -> None:
        if ev["event"] == "claim":
            result["claim"] = ev["station"]
            result["decided_at"] = max(time.monotonic(), leds.last_change)
            decided.set()

    def new_card() -> None:
        shell.start_game(dict(HEADER))
        assert shell.session is not None
        shell.session._sink = on_event
        # the revealer reveals the card
        factory.pin(stations[1][0]).drive_low()
        factory.pin(stations[1][0]).drive_high()

    def worker() -> None:
        nonlocal wrong
        for _ in range(trials):
            ready = threading.Event()
            loop.call_soon_threadsafe(lambda ready=ready: (new_card(), ready.set()))
            ready.wait()
            time.sleep(0.002)  # let the reveal's events settle
            decided.clear()
            first = factory.pin(stations[3][0])
            edge = time.monotonic()
            first.drive_low()
            if gap_s is not None:
                while time.monotonic() - edge < gap_s:
                    pass
                factory.pin(stations[4][0]).drive_low()
            decided.wait(2.0)
            latencies.append((result.get("decided_at", edge + 2.0) - edge) * 1000)
            if result.get("claim") != 3:
                wrong += 1
            first.drive_high()
            if gap_s is not None:
                factory.pin(stations[4][0]).drive_high()
            time.sleep(0.001)
        loop.call_soon_threadsafe(loop.stop)

    phone_procs = None
    if phones:
        from controller.phones.hub import PhoneHub
        from controller.phones.server import PhoneServer

        hub = PhoneHub(shell, address="127.0.0.1", port=0)
        shell.phones = hub
        server = PhoneServer(hub, host="127.0.0.1", port=0, burst=10_000)
        port = loop.run_until_complete(server.start())

        def frame() -> None:  # as the box's frame loop does
            server.refresh()
            if hub.screen_up:
                hub.screen_nav("ok")
            loop.call_later(1 / 30, frame)

        loop.call_soon(frame)
        phone_procs = _phones(port, phones)
        while sum(1 for p in server.phones if p.writer is not None) < phones:  # joined, on the loop
            loop.run_until_complete(asyncio.sleep(0.01))
        if phone_procs.stdout.readline().strip() != "joined":
            raise RuntimeError("the bench's phones could not join")
    th = threading.Thread(target=worker, daemon=True)
    th.start()
    loop.run_forever()
    th.join()
    if phone_procs is not None:
        phone_procs.stdin.close()
        phone_procs.wait()
        loop.run_until_complete(server.stop())
    panel.close()
    tmp.cleanup()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return {"trials": trials, "p50_ms": round(statistics.median(latencies), 3), "p99_ms": round(p99, 3),
            "max_ms": round(latencies[-1], 3), "wrong": wrong, "phones": phones}


def run(trials: int = 1000) -> dict[str, Any]:
    single = measure(trials)
    pairs = measure(trials, gap_s=0.001)
    return {"button_to_lock_p99_ms": single["p99_ms"], "press_order_errors": pairs["wrong"],
            "press_order_trials": pairs["trials"], "button_to_lock": single}


if __name__ == "__main__":
    import json

    print(json.dumps(run(200), indent=1))
