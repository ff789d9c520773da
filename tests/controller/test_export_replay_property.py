"""Every game exports and replays: random live games played through the shell (presses,
releases, toasts reported after the word, menu actions, game actions, the microphone coming
and going), then exported from the journal, replayed and resumed. The replay must decide
exactly what the live game decided, byte for byte, and the resumed game must stand where the
live one stood. A seeded generator: the same games every run, a failure names its seed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from controller import replay
from controller.flow import Input
from controller.journal import Journal
from controller.shell import Shell
from hardware.buttons import ButtonEvent
from models.toasts import TOASTS

REPLAYS = Path(__file__).resolve().parents[1] / "replays"
GAMES = {"tchin-tchin": "tchin", "cheers": "cheers", "goblets": "goblets"}
WORDS = [*TOASTS, "hello", "prosit", "chin chin"]
SEEDS = range(12)


def golden(game: str) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The game's golden replay files: real headers and real game actions to start from."""
    out = []
    for path in sorted((REPLAYS / GAMES[game]).glob("*.jsonl")):
        if path.name.endswith(".expected.jsonl"):
            continue
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        out.append((lines[0], lines[1:]))
    return out


class LiveTable:
    """A shell on a journal, driven by a made-up monotonic clock, as the service drives it."""

    def __init__(self, db: Path, rng: random.Random) -> None:
        self.now = 100.0
        self.rng = rng
        self.shell = Shell(Journal(db), decision_lag_s=rng.choice([0.0, 0.5]), rng=random.Random(rng.random()),
                           clock=lambda: self.now)

    def at(self, t: float) -> None:
        self.now = max(self.now, t)
        self.shell.tick(self.now)

    def start_from_menus(self, game: str) -> None:
        """Set the game up with the pad, pressing Next a random number of times per question."""
        self.shell.begin_setup(game)
        while self.shell.mode == "setup":
            for _ in range(self.rng.randrange(3)):
                self.pad("next")
            self.pad("ok")

    def pad(self, button: str) -> None:
        self.now += self.rng.uniform(0.05, 0.3)
        self.shell.button(ButtonEvent(self.now, True, nav=button))
        self.now += 0.05
        self.shell.button(ButtonEvent(self.now, False, nav=button))


def plan(rng: random.Random, base: list[dict[str, Any]], game: str, t0: float) -> list[tuple[float, str, Any]]:
    """What happens at the table: (when the box is told, what, detail), in the order told."""
    events: list[tuple[float, str, Any]] = []
    for line in base:  # a golden game's own inputs, at their times
        t = t0 + float(line["t"])
        for kind in ("press", "release", "nav", "do"):
            if kind in line:
                events.append((t, kind, line[kind]))
        if "say" in line:
            end = t0 + float(line.get("end", line["t"]))
            events.append((end + rng.uniform(0.0, 0.4), "say", (line["say"], t, end)))
    t = t0
    for _ in range(rng.randrange(10, 60)):  # and the noise of a party
        t += rng.expovariate(3.0)
        roll = rng.random()
        station = rng.randrange(1, 9)
        if roll < 0.35:
            late = rng.choice([0.0, 0.0, 0.002, 0.05])  # a callback that ran late keeps its edge time
            events.append((t + late, "press-at", (station, t)))
            events.append((t + rng.uniform(0.03, 0.6), "release", station))
        elif roll < 0.6:
            start = t - rng.uniform(0.0, 1.5)  # a toast may start before the press it belongs to
            end = start + rng.uniform(0.2, 0.9)
            events.append((max(t, end) + rng.uniform(0.05, 0.6), "say", (rng.choice(WORDS), start, end)))
        elif roll < 0.75:
            events.append((t, "nav", rng.choice(["prev", "next", "ok", "ok", "back"])))
        elif roll < 0.85 and game == "tchin-tchin":
            events.append((t, "hearing", rng.random() < 0.5))
        elif base:
            line = rng.choice(base)
            if "do" in line:
                events.append((t, "do", line["do"]))
    events.sort(key=lambda e: e[0])
    return events


def play(table: LiveTable, events: list[tuple[float, str, Any]], stop_after: int) -> None:
    shell = table.shell
    for n, (told, kind, detail) in enumerate(events):
        if n >= stop_after or shell.session is None or shell.session.finished:
            return
        if table.rng.random() < 0.5:
            table.at(told - table.rng.uniform(0.0, 0.2))  # a frame went by
        table.now = max(table.now, told)
        if kind == "press-at":
            station, edge = detail
            shell.button(ButtonEvent(edge, True, station=station))
        elif kind in ("press", "release"):
            shell.button(ButtonEvent(told, kind == "press", station=int(detail)))
        elif kind == "nav":
            shell.button(ButtonEvent(told, True, nav=detail))
            shell.button(ButtonEvent(told + 0.01, False, nav=detail))
        elif kind == "say":
            word, start, end = detail
            shell.toast(word, start, end, round(table.rng.uniform(0.5, 1.0), 3))
        elif kind == "hearing":
            shell.set_hearing(bool(detail), told)
        elif kind == "do":
            shell._feed(Input(shell.game_time(told), "do", action=detail))


def replayed(export: str) -> list[dict[str, Any]]:
    header, inputs = replay.load(export.splitlines(), "export.jsonl")
    return replay.run(header, inputs, lambda ev: None).events


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_a_live_game_exports_replays_and_resumes_exactly(tmp_path: Path, game: str, seed: int) -> None:
    rng = random.Random(f"{game}-{seed}")
    db = tmp_path / "journal.sqlite3"
    table = LiveTable(db, rng)
    if rng.random() < 0.5:
        header, base = rng.choice(golden(game))
        table.shell.setup_game = game
        table.shell.start_game(dict(header))
    else:
        base = []
        table.start_from_menus(game)
    session = table.shell.session
    assert session is not None and session.game_id is not None, f"seed {seed}: the game did not start"
    events = plan(rng, base, game, table.shell.t0)
    stop = len(events) if rng.random() < 0.5 else rng.randrange(len(events) + 1)
    play(table, events, stop)

    journal = table.shell.journal
    export = journal.export(session.game_id)
    session.run_out()  # the live game's timers run on, as the replay's do after the last input
    assert replayed(export) == session.events, f"seed {seed}: the replay decided otherwise"
    if not session.finished or journal.in_progress() is not None:
        journal.close()
        again = Shell(Journal(db))
        again.resume_game()
        assert again.session is not None, f"seed {seed}: not offered for resume"
        resumed = list(again.session.events)
        assert resumed == session.events[:len(resumed)], f"seed {seed}: resumed where it was not"
        again.session.run_out()
        assert again.session.events == session.events, f"seed {seed}: the resumed game went otherwise"
        again.journal.close()


def test_a_toast_started_before_the_claim_and_reported_after_it_exports_and_replays(tmp_path: Path) -> None:
    header = {"game": "tchin-tchin", "seed": 1, "players": 4, "options": {},
              "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "deck": ["D24", "D08"], "first": 1}
    table = LiveTable(tmp_path / "j", random.Random(0))
    table.shell.decision_lag_s = 0.5
    table.shell.start_game(dict(header))
    t0 = table.shell.t0
    for t, station, down in ((1.0, 1, True), (1.1, 1, False), (2.0, 3, True), (2.2, 3, False)):
        table.at(t0 + t)
        table.shell.button(ButtonEvent(t0 + t, down, station=station))
    table.at(t0 + 2.6)
    table.shell.toast("na zdorovie", t0 + 1.9, t0 + 2.4)  # began before the claim press
    table.at(t0 + 9.0)
    session = table.shell.session
    assert session is not None and session.game_id is not None
    assert [e["event"] for e in session.events if e["event"] in ("claim", "correct")] == ["claim", "correct"]
    export = table.shell.journal.export(session.game_id).splitlines()
    toast = json.loads(export[-1])
    assert toast["say"] == "na zdorovie" and toast["t"] < json.loads(export[-2])["t"] < toast["at"], \
        "kept in the order it arrived, with where the clock stood"
    session.run_out()
    assert replayed("\n".join(export)) == session.events
