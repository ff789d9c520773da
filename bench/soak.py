"""``make soak``: kill a live scripted game at random moments, resume it, count what was lost.

For each game (Tchin Tchin, Cheers, Raise Your Goblets), speech on and off, the box runs a
seeded random script with ``clinkbox run --script`` as a real process. It is killed with
SIGKILL at a random moment after its game started, restarted (it resumes the game from the
journal), killed again a random number of times, and finally left to finish. Then:

- **inputs lost**: inputs the box had handed to the game before a kill (it logs each one
  after it is journaled and shown) that the journal did not hold after the kill;
- **resumes that diverged**: finished games whose decisions differ from an uninterrupted run
  of the same script;
- **replays that differ**: finished games whose decisions differ from a replay of their own
  export (``clinkbox journal --export``), which must be none.

Speech on: in Tchin Tchin the toasts are ``audio`` lines, spoken recordings (flite) played
through the box's file-backed microphone in real time and heard by its real listener, so a
toast may be heard late, or not at all; in Cheers and Raise Your Goblets, which do not
listen, they are ``say`` lines, handed over at the end of the word as a recogniser reports
them. Speech off: no toasts, and Tchin Tchin's claims go to the veto vote. A toast spoken
while the box is down is not heard after the restart (as at a real table), so with speech
on a resumed game may decide otherwise than an uninterrupted one: such games are counted
apart (``diverged_toast_while_down``); and the live ear itself may hear one recording a little
differently from one run to the next, so each such script is also run twice uninterrupted
(``uninterrupted_runs_that_differ``) as the yardstick.

    python -m bench.soak [--kills 100] [--seconds 5] [--seed 1] [--out bench/soak.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "replays"
TOASTS = ["prost", "cheers", "tchin tchin", "kanpai", "salud", "na zdorovie"]
TCHIN = {"game": "tchin-tchin", "players": 4, "options": {"events": False},
         "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "first": 1,
         "deck": ["D24", "D05", "D08", "D12", "D17"]}
#: after the script's last input, how long (game time) the game runs on before it is compared
RUN_ON_S = 2.0
GAMES = ("tchin-tchin", "cheers", "goblets")


#: where the word starts in each recording (the clip is padded with room noise)
CLIP_LEAD_S = 0.5


def toast_clips(folder: Path) -> dict[str, Path]:
    """Each toast spoken once by flite's "kal" voice, padded with a quiet room, as WAV files."""
    import numpy as np

    from bench.voices import Voice
    from hardware.speech.audio import RATE, read_wav, write_wav
    from models.toasts import TOASTS as SAID

    folder.mkdir(parents=True, exist_ok=True)
    voice = Voice("kal", "flite", "flite", "kal")
    noise = np.random.default_rng(0)
    out = {}
    for word, text in SAID.items():
        raw = folder / f"{word.replace(' ', '-')}.raw.wav"
        voice.say(text.rstrip("!"), raw)
        pcm = read_wav(raw)
        loud = np.flatnonzero(np.abs(pcm) > 300)
        pcm = pcm[loud[0]: loud[-1] + 1] if len(loud) else pcm
        pad = (noise.standard_normal(int(CLIP_LEAD_S * RATE)) * 18).astype(np.int16)
        path = folder / f"{word.replace(' ', '-')}.wav"
        write_wav(path, np.concatenate([pad, pcm, pad]))
        out[word] = path
    return out


def script(game: str, speech: bool, seconds: float, rng: random.Random,
           clips: dict[str, Path] | None = None) -> list[dict[str, Any]]:
    """A random script of about ``seconds`` of play: the header, then one input per line.
    With ``clips``, a Tchin Tchin toast is an ``audio`` line playing one of them."""
    base: list[dict[str, Any]] = []
    if game == "tchin-tchin":
        header: dict[str, Any] = {**TCHIN, "seed": rng.randrange(1000),
                                  "options": {**TCHIN["options"], "speech": speech}}
    else:
        folder = {"cheers": "cheers", "goblets": "goblets"}[game]
        files = sorted(p for p in (GOLDEN / folder).glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
        lines = [json.loads(x) for x in rng.choice(files).read_text(encoding="utf-8").splitlines() if x.strip()]
        header, base = lines[0], [x for x in lines[1:] if "do" in x]
    events: list[dict[str, Any]] = []
    step = seconds / max(1, len(base) + 8)
    t = 0.3
    for line in base:  # the game's own actions, closer together
        t += step
        events.append({"t": round(t, 3), "do": line["do"]})
    t, players = 0.3, int(header["players"])
    heard_until = 0.0
    while t < seconds:
        t += rng.expovariate(3.0)
        roll = rng.random()
        station = rng.randrange(1, min(players, 8) + 1)
        if roll < 0.5:
            events.append({"t": round(t, 3), "press": station})
            events.append({"t": round(t + rng.uniform(0.05, 0.3), 3), "release": station})
        elif roll < 0.8 and speech and clips and game == "tchin-tchin":
            start = t - rng.uniform(0.0, 0.6)  # may start before the press it claims for
            if start - CLIP_LEAD_S > heard_until:  # one voice at a time
                events.append({"t": round(start - CLIP_LEAD_S, 3), "audio": str(clips[rng.choice(TOASTS)])})
                heard_until = start + 1.5
        elif roll < 0.8 and speech:
            start = t - rng.uniform(0.0, 0.6)  # may start before the press it claims for
            # no longer than the recogniser's lag (0.5 s): when a toast reaches the game is then
            # decided by the script alone, so an uninterrupted run is a fair yardstick
            events.append({"t": round(max(0.0, start), 3), "say": rng.choice(TOASTS),
                           "end": round(max(0.0, start) + rng.uniform(0.3, 0.45), 3)})
        elif roll < 0.9:
            events.append({"t": round(t, 3), "nav": rng.choice(["next", "prev", "ok"])})
    events = [e for e in events if e["t"] >= 0]
    events.sort(key=lambda e: e["t"])
    return [header, *events]


@dataclass
class Tally:
    game: str
    speech: bool
    kills: int = 0
    mid_game: int = 0
    """Kills that found some of the script's inputs in the journal, not all."""
    games: int = 0
    inputs_lost: int = 0
    diverged: int = 0
    diverged_toast_while_down: int = 0
    """Of ``diverged``: games where a recording was playing when the box was killed."""
    unkilled_differ: int = 0
    """With recordings: uninterrupted runs of one script that differ from each other (what the
    live ear alone varies, the yardstick for ``diverged``)."""
    replays_differ: int = 0
    resumes: int = 0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "speech": self.speech, "kills": self.kills,
                "kills_mid_game": self.mid_game, "games": self.games,
                "resumes": self.resumes, "inputs_lost": self.inputs_lost, "resumes_diverged": self.diverged,
                "of_which_a_toast_was_spoken_while_down": self.diverged_toast_while_down,
                "uninterrupted_runs_that_differ": self.unkilled_differ,
                "replays_differ": self.replays_differ, "problems": self.problems[:10]}


class Box:
    """``clinkbox run --script`` in its own data folder, as the service would run it."""

    def __init__(self, home: Path, script_path: Path) -> None:
        self.home = home
        self.script = script_path
        self.db = home / "share" / "clinkbox" / "journal.sqlite3"

    def start(self) -> subprocess.Popen[str]:
        env = {**os.environ, "XDG_DATA_HOME": str(self.home / "share"), "XDG_CONFIG_HOME": str(self.home / "cfg"),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
        env.pop("CLINKBOX_CONFIG", None)
        return subprocess.Popen([sys.executable, "-m", "controller.cli", "-v", "run", "--headless", "--simulate",
                                 "--script", str(self.script), "--run-on", str(RUN_ON_S), "--seconds", "120"],
                                cwd=self.home, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def game_started(self) -> bool:
        if not self.db.exists():
            return False
        try:
            con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=1.0)
            try:
                return con.execute("SELECT count(*) FROM games").fetchone()[0] > 0
            finally:
                con.close()
        except sqlite3.Error:
            return False


def fed_before_kill(err: str) -> int:
    """How many script inputs the box said it had handed over (journaled, then shown)."""
    fed = [int(line.rsplit(" ", 1)[1]) for line in err.splitlines() if "script: fed input " in line]
    return max(fed, default=0)


def journaled(db: Path, script_path: Path) -> int:
    """How many of the script's inputs the journal holds (its last game), in order."""
    from controller.journal import Journal
    from controller.replay_file import read
    from controller.script_feed import already_fed, due

    _, inputs = read(script_path, audio=lambda t, wav: None)  # recordings are the microphone's, as in the box
    journal = Journal(db, repair=False)
    try:
        games = journal.games()
        if not games:
            return 0
        return already_fed(sorted(inputs, key=due), journal.load(games[-1][0]).inputs)
    finally:
        journal.close()


def clock_at_kill(db: Path) -> float:
    """Game time of the last input the journal holds: a resumed game carries on from there,
    and a recording begun before it is not played again."""
    from controller.journal import Journal
    from controller.replay_file import arrival

    journal = Journal(db, repair=False)
    try:
        games = journal.games()
        inputs = journal.load(games[-1][0]).inputs if games else []
    finally:
        journal.close()
    return max((arrival(i) for i in inputs), default=0.0)


def replayed(db: Path) -> list[dict[str, Any]]:
    from controller import replay
    from controller.journal import Journal

    journal = Journal(db, repair=False)
    try:
        export = journal.export(journal.games()[-1][0])
    finally:
        journal.close()
    header, inputs = replay.load(export.splitlines(), "export")
    # as clinkbox replay prints them (JSON: a seat number as a key is a string)
    return [json.loads(replay.dumps(e)) for e in replay.run(header, inputs, lambda ev: None).events]


def events(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def soak_one(game: str, speech: bool, kills: int, seconds: float, rng: random.Random, work: Path,
             log: Any = None, clips: dict[str, Path] | None = None) -> Tally:
    """Kill and resume scripted games of one kind until ``kills`` kills are done."""
    tally = Tally(game, speech)
    n = 0
    while tally.kills < kills:
        n += 1
        lines = script(game, speech, seconds, rng, clips)
        spoken = [(float(x["t"]), float(x["t"]) + 3.0) for x in lines[1:] if "audio" in x]
        down: list[float] = []  # where the game clock stood at each kill (its last input)
        home = work / f"{game}-{speech}-{n}"
        ref_home = work / f"{game}-{speech}-{n}-reference"
        for h in (home, ref_home):
            h.mkdir(parents=True)
        path = home / "script.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
        reference = Box(ref_home, path).start()
        ref_out, ref_err = reference.communicate(timeout=300)
        if reference.returncode != 0:
            tally.problems.append(f"uninterrupted run failed: {ref_err[-300:]}")
            continue
        if spoken:  # the ear's own variation: a second uninterrupted run of the same script
            twin_home = work / f"{game}-{speech}-{n}-twin"
            twin_home.mkdir()
            twin_out, _ = Box(twin_home, path).start().communicate(timeout=300)
            tally.unkilled_differ += int(events(twin_out) != events(ref_out))
        box = Box(home, path)
        due_kills = min(kills - tally.kills, rng.randint(1, 4))
        last = float(lines[-1]["t"]) + 1.0 if len(lines) > 1 else 1.0
        out = err = ""
        while True:
            proc = box.start()
            if due_kills == 0:
                out, err = proc.communicate(timeout=300)
                break
            deadline = time.monotonic() + 60
            while not box.game_started() and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, last))
            if proc.poll() is not None:  # finished before the kill came
                out, err = proc.communicate()
                break
            proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate(timeout=60)
            tally.kills += 1
            due_kills -= 1
            held = journaled(box.db, path)
            down.append(clock_at_kill(box.db))
            tally.mid_game += int(0 < held < len(lines) - 1)
            lost = fed_before_kill(err) - held
            if lost > 0:
                tally.inputs_lost += lost
                tally.problems.append(f"{lost} inputs handed to the game were not in the journal after kill")
        if "resumed game" in err:
            tally.resumes += 1
        tally.games += 1
        if proc.returncode != 0:
            tally.problems.append(f"the resumed box failed: {err[-300:]}")
            continue
        live = events(out)
        if live != events(ref_out):
            tally.diverged += 1
            if any(a <= k <= b for k in down for a, b in spoken):
                tally.diverged_toast_while_down += 1
            else:
                tally.problems.append(f"{home.name}: decided otherwise than the uninterrupted run")
        again = replayed(box.db)  # runs every timer out: compare up to where the live game stopped
        cut = max((float(x.get("end", x["t"])) for x in lines[1:]), default=0.0) + RUN_ON_S
        if live != again[:len(live)] or any(e["t"] <= cut for e in again[len(live):]):
            tally.replays_differ += 1
            tally.problems.append(f"{home.name}: decided otherwise than a replay of its export")
        if log is not None:
            print(f"soak: {game} speech {'on' if speech else 'off'}: {tally.kills}/{kills} kills", file=log,
                  flush=True)
    return tally


EVERY = tuple((game, speech) for game in GAMES for speech in (True, False))


def soak(kills: int = 100, seconds: float = 5.0, seed: int = 1,
         kinds: tuple[tuple[str, bool], ...] = EVERY, log: Any = None, audio: bool = True) -> dict[str, Any]:
    """``kills`` kills for each (game, speech) kind; every game, speech on and off by default.
    The report, as a dict."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="clinkbox-soak-"))
    try:
        clips = toast_clips(work / "toasts") if audio and ("tchin-tchin", True) in kinds else None
        tallies = [soak_one(game, speech, kills, seconds, rng, work, log, clips) for game, speech in kinds]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [t.as_dict() for t in tallies]
    return {"kills_each": kills, "seconds": seconds, "seed": seed, "runs": rows,
            "kills": sum(r["kills"] for r in rows), "kills_mid_game": sum(r["kills_mid_game"] for r in rows),
            "inputs_lost": sum(r["inputs_lost"] for r in rows),
            "resumes_diverged": sum(r["resumes_diverged"] for r in rows),
            "of_which_a_toast_was_spoken_while_down": sum(r["of_which_a_toast_was_spoken_while_down"] for r in rows),
            "uninterrupted_runs_that_differ": sum(r["uninterrupted_runs_that_differ"] for r in rows),
            "replays_differ": sum(r["replays_differ"] for r in rows)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--kills", type=int, default=100, help="kills for each game, speech on and off (default 100)")
    p.add_argument("--seconds", type=float, default=5.0, help="about how long each scripted game plays")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="also write the report to this JSON file")
    p.add_argument("--no-audio", action="store_true",
                   help="Tchin Tchin's toasts as say lines, not recordings through the microphone")
    args = p.parse_args(argv)
    report = soak(args.kills, args.seconds, args.seed, log=sys.stderr, audio=not args.no_audio)
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    ok = report["inputs_lost"] == 0 and report["replays_differ"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
