"""From the end of a spoken toast to the referee's verdict, in the live box: ``python -m bench.verdict_bench``.

The real box runs (headless, no speaker): its asyncio loop, its shell and journal, its listener
with the engine it would choose here.  Its microphone is the file-backed one, playing corpus
clips in real time.  A table driver plays Tchin Tchin on it as players would: when a card is
up, an invited player presses their buzzer and, about a second later, says a toast that player
may say (a clip of a report voice: clean, pink or babble at 10 dB).  The time measured runs
from the end of the word in the clip, on the monotonic clock where the microphone played it, to
the moment the box decided ``correct`` or ``mistake`` for that claim.  A claim the ear missed
(decided "no toast" after the window) or heard as another toast is counted apart, not timed:
that is the speech benchmark's business, and its verdict is on another sound.

``make bench`` calls :func:`run` (about 4 minutes: the clips play in real time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.results_file import merge

CONDITIONS = (("clean", None), ("pink", 10.0), ("babble", 10.0))
SAY_AFTER_PRESS_S = 1.0  # the word ends this long after the claim's press
GAP_S = 1.5  # quiet between one verdict and the next press
GIVE_UP_S = 5.0  # no verdict this long after the word ended: counted as missed


@dataclass
class Claim:
    station: int
    toast: str
    condition: str
    word_end: float  # monotonic time the word ended, as the microphone played it
    decided: float | None = None
    verdict: str | None = None
    heard: str | None = None


@dataclass
class TableDriver:
    """Plays Tchin Tchin into a :class:`~controller.app.Box` (as its ``script``): buzzer presses
    through the shell as the hardware gives them, toasts through the file-backed microphone."""

    clips: list[dict[str, Any]]  # manifest rows, with "pcm" loaded
    header: dict[str, Any]
    recordings: list[tuple[float, np.ndarray]] = field(default_factory=list)
    mic: Any = None
    claims: list[Claim] = field(default_factory=list)
    pending: Claim | None = None
    next_at: float = 0.0
    warm_s: float = 2.5
    _clip: int = 0
    _release: tuple[float, int] | None = None

    def __post_init__(self) -> None:
        # Box makes a file-backed microphone for a script with recordings
        self.recordings = [(0.0, np.zeros(1, np.int16))]

    def on_event(self, event: dict[str, Any]) -> None:
        claim = self.pending
        if claim is None or event.get("station") != claim.station:
            return
        if event["event"] == "heard":
            claim.heard = event.get("word")
        if event["event"] in ("correct", "mistake") and claim.decided is None:
            claim.decided = time.monotonic()
            claim.verdict = event["event"] if event.get("reason") != "no toast" else "missed"

    def step(self, shell: Any, now: float) -> bool:
        from hardware.buttons import ButtonEvent

        if self.mic is None or self.mic.t0 is None or self.mic.position < self.warm_s:
            return False  # the listener is loading, or warming up
        if self._release is not None and now >= self._release[0]:
            shell.button(ButtonEvent(now, False, station=self._release[1]))
            self._release = None
        if shell.session is None or shell.session.finished:
            if self._clip >= len(self.clips):
                return True
            shell.setup_game = "tchin-tchin"
            shell.start_game(dict(self.header, seed=self._clip))
            self.next_at = now + GAP_S
            return False
        claim = self.pending
        if claim is not None:
            if claim.decided is None and now < claim.word_end + GIVE_UP_S:
                return False
            if claim.decided is None:
                claim.verdict = "missed"
            self.pending = None
            self.next_at = now + GAP_S
        if now < self.next_at or self._clip >= len(self.clips):
            return self._clip >= len(self.clips) and self.pending is None
        referee = shell.session.flow.referee
        card = referee.card
        if referee.phase != "open" or card is None:
            return False
        free = [s for s in sorted(card.invited) if s not in card.mistaken]
        if not free:
            return False
        # the first free claimant with a clip of a toast they may say (else the first, wrongly)
        station, pick = free[0], self._clip
        for s in free:
            words = {c.word for c in card.invited[s]}
            found = next((i for i in range(self._clip, len(self.clips)) if self.clips[i]["toast"] in words), None)
            if found is not None:
                station, pick = s, found
                break
        self.clips[self._clip], self.clips[pick] = self.clips[pick], self.clips[self._clip]
        row = self.clips[self._clip]
        self._clip += 1
        shell.button(ButtonEvent(now, True, station=station))
        self._release = (now + 0.15, station)
        at = self.mic.play(row["pcm"], at=now + SAY_AFTER_PRESS_S - row["speech_end"] - self.mic.t0)
        self.pending = Claim(station, row["toast"], row["condition"], self.mic.t0 + at + row["speech_end"])
        self.claims.append(self.pending)
        return False


def pick_clips(corpus: Path, n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` toast clips of the report voices (robotic ones excluded), spread over the
    conditions, in a seeded order."""
    from hardware.speech.audio import read_wav

    rows = [json.loads(line) for line in (corpus / "manifest.jsonl").read_text().splitlines()]
    rows = [r for r in rows if r["split"] == "report" and r["toast"] and not r["robotic"]
            and (r["noise"], r["snr_db"]) in CONDITIONS]
    rng = random.Random(seed)
    rng.shuffle(rows)
    by_cond: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_cond[r["noise"]].append(r)
    picked = []
    while len(picked) < n and any(by_cond.values()):
        for cond in list(by_cond):
            if by_cond[cond] and len(picked) < n:
                picked.append(by_cond[cond].pop())
    for r in picked:
        r["pcm"] = read_wav(corpus / r["file"])
        r["condition"] = r["noise"] if r["snr_db"] is None else f"{r['noise']}{int(r['snr_db'])}"
    return picked


HEADER = {"game": "tchin-tchin", "players": 4,
          "options": {"events": False, "pre_s": 1.0, "window_s": 2.5, "veto_s": 0.3,
                      "card_timeout_s": 20.0, "auto_reveal_s": 0.3},
          "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"},
          "deck": [f"D{i:02d}" for i in range(1, 25)], "first": 1}


def measure(corpus: Path, n: int) -> dict[str, Any]:
    """Play ``n`` clips into the live box; the verdict times and what was decided."""
    from controller.app import Box
    from controller.config import Config, Display, Sound

    clips = pick_clips(corpus, n)
    driver = TableDriver(clips, HEADER)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Config(display=Display(mode="headless", width=320, height=180),
                     sound=Sound(enabled=False), data_dir=tmp)
        box = Box(cfg, simulate=True, mode="headless")
        box.shell.on_event = driver.on_event
        box.script = driver
        engine: list[str] = []
        asyncio.run(box.run(seconds=60 + n * 8.0))
        if box.listener is not None:
            engine.append(box.listener.engine.name)
    # timed: the verdicts on the word said (a toast heard as another, say in babble, is a
    # recognition error that the speech benchmark counts; its verdict is on another sound)
    timed = [c for c in driver.claims if c.verdict in ("correct", "mistake") and c.decided is not None
             and c.heard == c.toast]
    ms = np.array([(c.decided - c.word_end) * 1000.0 for c in timed]) if timed else np.zeros(0)
    return {
        "toast_verdict_p95_ms": round(float(np.percentile(ms, 95)), 1) if len(ms) else None,
        "toast_verdict": {
            "engine": engine[0] if engine else None,
            "clips": len(driver.claims),
            "timed": len(timed),
            "correct": sum(c.verdict == "correct" for c in driver.claims),
            "heard_as_another": sum(c.heard is not None and c.heard != c.toast for c in driver.claims),
            "missed": sum(c.verdict == "missed" for c in driver.claims),
            "p50_ms": round(float(np.percentile(ms, 50)), 1) if len(ms) else None,
            "p95_ms": round(float(np.percentile(ms, 95)), 1) if len(ms) else None,
            "max_ms": round(float(ms.max()), 1) if len(ms) else None,
            "p95_ms_by_condition": {
                cond: round(float(np.percentile([(c.decided - c.word_end) * 1000.0 for c in timed
                                                 if c.condition == cond and c.decided is not None], 95)), 1)
                for cond in sorted({c.condition for c in timed})},
            "load_average": round(os.getloadavg()[0], 1),
        },
    }


def run(corpus: Path = Path("corpus"), n: int = 60) -> dict[str, Any]:
    """The benchmark's keys (``make bench`` merges them); the corpus is made when missing."""
    if not (corpus / "manifest.jsonl").exists():
        from bench.corpus import generate

        generate(corpus)
    return measure(corpus, n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.verdict_bench", description=__doc__)
    ap.add_argument("--corpus", type=Path, default=Path("corpus"))
    ap.add_argument("--clips", type=int, default=60)
    ap.add_argument("--no-write", action="store_true", help="do not touch bench/results.json")
    args = ap.parse_args(argv)
    keys = run(args.corpus, args.clips)
    if not args.no_write:
        merge(keys)
    print(json.dumps(keys, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
