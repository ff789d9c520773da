"""One script, one verdict: a script played live (``clinkbox run --script``: the box's loop, its
clock, its journal) decides what ``clinkbox replay`` decides from the same file, and the live
game's export replays to the same again, for all three games, golden and generated scripts:
presses within the debounce, at the same millisecond, while a screen changes, after the game
has ended. A game that cannot go on is named by the same line on both paths, with everything
decided before it kept.

The loop runs here as the service runs it (the script's step, then the shell's tick, once a
frame) on a made-up clock; the tests marked ``cli`` run the real CLI in subprocesses.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller import replay
from controller.app import REPORT_LAG_S
from controller.flow import GameFlow, Input
from controller.games import register
from controller.journal import Journal
from controller.replay import ReplayError
from controller.replay_file import read_numbered
from controller.script_feed import ScriptFeeder
from controller.shell import Shell
from hardware.display.widgets import Scene, Text

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "tests" / "replays"
GOLDEN = sorted(p for p in REPLAYS.glob("*/*.jsonl") if not p.name.endswith(".expected.jsonl"))


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def printed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as a JSON line prints them (a seat number as a key is a string)."""
    return [json.loads(replay.dumps(e)) for e in events]


def replayed(text: str, name: str = "r.jsonl") -> list[dict[str, Any]]:
    header, inputs = replay.load(text.splitlines(), name)
    return printed(replay.run(header, inputs, lambda ev: None).events)


def live(path: Path, db: Path, fps: float = 30.0, run_on: float = 60.0,
         start: float = 50.0) -> tuple[list[dict[str, Any]], str, ScriptFeeder, Shell]:
    """The box's loop on a made-up clock: the script's step, then the shell's tick, each frame."""
    clock = [start]
    shell = Shell(Journal(db), decision_lag_s=REPORT_LAG_S, clock=lambda: clock[0])
    out = io.StringIO()
    feeder = ScriptFeeder.from_file(path, out=out)
    feeder.run_on_s = run_on
    for _ in range(200_000):
        if feeder.step(shell, clock[0]):
            break
        shell.tick(clock[0])
        clock[0] += 1 / fps
    assert feeder.done, "the script was never played out"
    export = shell.journal.export(1) if shell.journal.games() else ""
    shell.journal.close()
    return [json.loads(x) for x in out.getvalue().splitlines()], export, feeder, shell


# -- golden scripts -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}-{p.stem}" for p in GOLDEN])
def test_a_golden_script_decides_the_same_live_replayed_and_exported(tmp_path: Path, path: Path) -> None:
    # a short run-on: what the timers decide after it is decided at once, as the replay does
    events, export, _, _ = live(path, tmp_path / "j", run_on=2.0)
    assert events == replayed(path.read_text(encoding="utf-8"), str(path)), "live and replay differ"
    assert replayed(export) == events, "the live game's export replays otherwise"


def test_a_dealt_game_with_no_inputs_is_played_out_live_to_its_end_as_replayed(tmp_path: Path) -> None:
    path = REPLAYS / "tchin" / "dealt_from_seed.jsonl"  # the box reveals every card by itself
    events, export, _, _ = live(path, tmp_path / "j", run_on=1.0)
    assert events[-1]["event"] == "game_over" and events == replayed(path.read_text(encoding="utf-8"))
    journal = Journal(tmp_path / "j")
    assert journal.games() == [(1, "tchin-tchin", "over")], "ended in the journal too: not offered for resume"
    journal.close()


# -- generated scripts ---------------------------------------------------------------------------

def noisy(rng: random.Random, path: Path) -> list[dict[str, Any]]:
    """A golden script with a party's noise added: bounces within the debounce, presses at the
    same millisecond, pad presses while a screen changes, and inputs after the game has ended."""
    lines = lines_of(path)
    head, body = lines[0], lines[1:]
    players = int(head["players"])
    end = max((float(x["t"]) for x in body), default=3.0)
    extra: list[dict[str, Any]] = []
    for _ in range(rng.randrange(6, 20)):
        t = round(rng.uniform(0.0, end + 3.0), rng.choice([1, 2, 3]))
        station = rng.randrange(1, players + 1)
        roll = rng.random()
        if roll < 0.3:  # a press, its release, and a bounce within (or just past) the debounce
            extra += [{"t": t, "press": station},
                      {"t": round(t + rng.choice([0.0, 0.001, 0.01, 0.05]), 3), "release": station},
                      {"t": round(t + rng.choice([0.005, 0.015, 0.02, 0.021]), 3), "press": station}]
        elif roll < 0.5:  # two buzzers at the same millisecond
            extra += [{"t": t, "press": station}, {"t": t, "press": rng.randrange(1, players + 1)}]
        elif roll < 0.75:  # the pad, whatever the screen
            extra.append({"t": t, "nav": rng.choice(["ok", "next", "prev", "back"])})
        elif head["game"] == "tchin-tchin":  # a toast (as short as a typed one)
            extra.append({"t": t, "say": rng.choice(["prost", "kanpai", "salud", "hello"]), "end": t})
        elif body:  # a game action again, legal or not by now
            action = rng.choice(body)
            if "do" in action:
                extra.append({"t": t, "do": action["do"]})
    after = [{"t": round(end + 5.0 + k * 0.01, 3), "press": 1 + k % players} for k in range(3)]
    return [head, *sorted(body + extra, key=lambda x: x["t"]), *after]


@pytest.mark.parametrize("game", ["tchin", "cheers", "goblets"])
def test_generated_scripts_decide_the_same_live_replayed_and_exported(tmp_path: Path, game: str) -> None:
    goldens = [p for p in GOLDEN if p.parent.name == game and len(lines_of(p)) > 1]
    for seed in range(8):
        rng = random.Random(f"{game}-{seed}")
        path = write(tmp_path / f"{seed}.jsonl", noisy(rng, rng.choice(goldens)))
        events, export, _, _ = live(path, tmp_path / f"{seed}.sqlite3", fps=rng.choice([30.0, 12.0]),
                                    run_on=rng.choice([1.0, 60.0]))
        assert events == replayed(path.read_text(encoding="utf-8")), f"seed {seed}: live and replay differ"
        assert replayed(export) == events, f"seed {seed}: the export replays otherwise"


def test_a_toast_reported_after_the_word_is_decided_alike_at_any_frame_rate(tmp_path: Path) -> None:
    """A toast reaches the game at its end; the game's clock then stands where the recogniser's
    lag puts it, not wherever the last frame happened to leave it."""
    header = lines_of(REPLAYS / "tchin" / "rules_listening_window.jsonl")[0]
    path = write(tmp_path / "s.jsonl", [header, {"t": 0.5, "press": 1}, {"t": 0.6, "release": 1},
                                        {"t": 1.0, "say": "hello", "end": 2.2},
                                        {"t": 3.0, "say": "tchin tchin", "end": 4.1}])
    runs = [live(path, tmp_path / f"{fps}.sqlite3", fps=fps, start=start)
            for fps, start in ((30.0, 50.0), (7.0, 50.013), (60.0, 3.3))]
    (first, export, _, _), *others = runs
    said = [e for e in first if e.get("said") == "hello"]
    assert said and said[0]["t"] == pytest.approx(2.2 - REPORT_LAG_S), said
    for events, again, _, _ in others:
        assert events == first and again == export, "the frame rate changed the game"
    assert replayed(export) == first


def test_a_live_games_export_played_live_again_is_the_same_game(tmp_path: Path) -> None:
    """The export keeps the order the inputs reached the game; played live again, a toast that
    reached it late (with its ``at``) still waits for its end, so nothing changes places."""
    header = lines_of(REPLAYS / "tchin" / "rules_listening_window.jsonl")[0]
    path = write(tmp_path / "s.jsonl", [header, {"t": 0.5, "press": 1}, {"t": 0.6, "release": 1},
                                        {"t": 3.2, "say": "hello", "end": 3.728},
                                        {"t": 3.3, "say": "prost", "end": 3.322}])
    events, export, _, _ = live(path, tmp_path / "a.sqlite3")
    again = tmp_path / "export.jsonl"
    again.write_text(export, encoding="utf-8")
    events_again, export_again, _, _ = live(again, tmp_path / "b.sqlite3", fps=11.0)
    assert export_again == export, "the inputs reached the game in another order"
    assert events_again == events == replayed(export)


# -- resuming ------------------------------------------------------------------------------------

def test_a_script_resumes_only_its_own_game_not_another_with_the_same_seed(tmp_path: Path) -> None:
    db = tmp_path / "j"
    one, other = REPLAYS / "cheers" / "odd_five_three_teams.jsonl", REPLAYS / "cheers" / "odd_five_two_teams.jsonl"
    assert all(lines_of(one)[0][k] == lines_of(other)[0][k] for k in ("game", "seed", "players"))
    clock = [10.0]
    shell = Shell(Journal(db), decision_lag_s=REPORT_LAG_S, clock=lambda: clock[0])
    feeder = ScriptFeeder.from_file(one, out=io.StringIO())
    while clock[0] < 13.5:  # cut off half-way through: left in progress
        feeder.step(shell, clock[0])
        shell.tick(clock[0])
        clock[0] += 1 / 30
    shell.journal.close()

    events, _, feeder, _ = live(other, db)
    assert feeder.resumed_after is None, "another game was resumed in its place"
    assert events == replayed(other.read_text(encoding="utf-8"))
    journal = Journal(db)
    assert [status for _, _, status in journal.games()] == ["abandoned", "over"]
    journal.close()


# -- a game that cannot go on ----------------------------------------------------------------------

@register
class FailsTest(GameFlow):
    """Station 9's press breaks the game on the spot; station 8's breaks it in a timer 0.3 s on."""

    max_players = 12

    game = "fails-test"
    title = "Fails"

    def start(self) -> None:
        self.ctx.emit("ready")

    def handle(self, inp: Input) -> None:
        self.ctx.emit("got", kind=inp.kind, station=inp.station)
        if inp.kind == "press" and inp.station == 9:
            raise RuntimeError("station 9 breaks it")
        if inp.kind == "press" and inp.station == 8:
            self.ctx.clock.call_at(inp.t + 0.3, self._break)

    def _break(self) -> None:
        raise RuntimeError("the timer breaks it")

    def scene(self) -> Scene:
        return Scene("Fails", (Text("..."),))

    @property
    def finished(self) -> bool:
        return False


def replay_error(path: Path) -> tuple[list[dict[str, Any]], str]:
    header, inputs, numbers = read_numbered(path)
    events: list[dict[str, Any]] = []
    with pytest.raises(ReplayError) as err:
        replay.play(header, inputs, numbers, str(path), events.append)
    return printed(events[1:]), str(err.value)  # the start line is the replay's own


@pytest.mark.parametrize("breaker,line", [(9, 4), (8, 3)], ids=["on-an-input", "in-a-timer"])
def test_a_game_that_cannot_go_on_is_named_by_the_same_line_live_and_replayed(
        tmp_path: Path, breaker: int, line: int) -> None:
    header = {"game": "fails-test", "seed": 1, "players": 9, "options": {}}
    if breaker == 9:  # the press on line 4 breaks the game
        presses = [(0.2, 1), (0.2, 2), (1.2, 9), (1.5, 3)]
    else:  # station 8's timer breaks it at 0.5 s, on the way to line 3
        presses = [(0.2, 8), (2.0, 1), (2.5, 2)]
    script = [header, *({"t": t, "press": s} for t, s in presses)]
    path = write(tmp_path / "s.jsonl", script)
    decided, said = replay_error(path)
    assert said.startswith(f"{path}:{line}: the game could not go on from this input (RuntimeError: ")

    events, export, feeder, _ = live(path, tmp_path / "j")
    assert feeder.error == said, "named otherwise live"
    assert events == decided, "live kept otherwise what was decided before the fault"
    journal = Journal(tmp_path / "j")
    assert journal.games() == [(1, "fails-test", "damaged")], "set aside: a resume would fail the same way"
    journal.close()
    again = write(tmp_path / "export.jsonl", [json.loads(x) for x in export.splitlines()])
    assert replay_error(again)[0] == decided, "the export keeps every input up to the fault"


def test_a_journal_game_that_cannot_be_resumed_is_said_not_raised(tmp_path: Path) -> None:
    header = {"game": "fails-test", "seed": 1, "players": 9, "options": {}}
    path = write(tmp_path / "s.jsonl", [header, {"t": 0.2, "press": 9}, {"t": 0.5, "press": 1}])
    journal = Journal(tmp_path / "j")  # left in progress by a box that stopped on its first input
    journal.append(journal.start_game(dict(header)), Input(0.2, "press", station=9))
    journal.close()
    events, _, feeder, _ = live(path, tmp_path / "j")
    assert events == [] and feeder.error == f"{path}: the journal's game could not be resumed"


# -- the real CLI --------------------------------------------------------------------------------

def env_for(home: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home / "share"), "XDG_CONFIG_HOME": str(home / "cfg"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    env.pop("CLINKBOX_CONFIG", None)
    return env


def cli(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "controller.cli", *args], cwd=home, env=env_for(home),
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def done(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


def squeezed(path: Path, scale: float, extra: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:  # type: ignore[assignment]
    """A golden script played faster (so that the live run is short), plus ``extra`` inputs."""
    head, *body = lines_of(path)
    for x in body:
        for key in ("t", "end", "at"):
            if key in x:
                x[key] = round(float(x[key]) * scale, 3)
    return [head, *sorted([*body, *extra], key=lambda x: x["t"])]


def test_the_cli_decides_each_game_the_same_live_replayed_and_exported(tmp_path: Path) -> None:
    """``clinkbox run --script``, ``clinkbox replay`` of the script, and ``clinkbox replay`` of
    ``clinkbox journal --export``: the same lines, for each game, with bounces, presses at the
    same millisecond, pad presses on changing screens and presses after the end."""
    noise = [{"t": 0.4, "press": 2}, {"t": 0.41, "press": 2}, {"t": 0.4, "press": 3}, {"t": 0.41, "release": 2},
             {"t": 0.425, "press": 2}, {"t": 0.9, "nav": "ok"}, {"t": 0.9, "nav": "back"}, {"t": 1.3, "press": 1},
             {"t": 1.3, "press": 2}]
    after = [{"t": 3.6, "press": 1}, {"t": 3.6, "press": 2}, {"t": 3.61, "nav": "ok"}]
    scripts = {
        "tchin": squeezed(REPLAYS / "tchin" / "ties_locks_buttons.jsonl", 0.4, noise),
        "tchin-dealt": lines_of(REPLAYS / "tchin" / "dealt_from_seed.jsonl"),  # no input: the box plays it out
        "cheers": squeezed(REPLAYS / "cheers" / "actions_and_cheers.jsonl", 0.12, noise + after),
        "goblets": squeezed(REPLAYS / "goblets" / "russian_two.jsonl", 0.06, noise + after),
    }
    homes = {}
    for name, script in scripts.items():
        homes[name] = tmp_path / name
        homes[name].mkdir()
        write(homes[name] / "script.jsonl", script)
    runs = {name: cli(home, "run", "--headless", "--simulate", "--script", "script.jsonl", "--run-on", "0.5",
                      "--seconds", "60") for name, home in homes.items()}
    replays = {name: cli(home, "replay", "script.jsonl") for name, home in homes.items()}
    lives = {name: done(proc) for name, proc in runs.items()}
    exports = {name: cli(home, "journal", "--export", "1") for name, home in homes.items()}
    for name, proc in exports.items():
        code, out, err = done(proc)
        assert code == 0, err
        (homes[name] / "export.jsonl").write_text(out, encoding="utf-8")
    again = {name: cli(home, "replay", "export.jsonl") for name, home in homes.items()}
    for name in scripts:
        code, out, err = lives[name]
        assert code == 0 and "Traceback" not in err, err
        r_code, r_out, r_err = done(replays[name])
        assert r_code == 0, r_err
        assert out.splitlines() == r_out.splitlines()[1:], f"{name}: live and replay differ"
        a_code, a_out, a_err = done(again[name])
        assert a_code == 0, a_err
        assert a_out.splitlines()[1:] == out.splitlines(), f"{name}: the export replays otherwise"
        if name != "tchin":  # that one waits for a card to be claimed
            assert '"event": "game_over"' in out, f"{name}: played to its end"


def test_the_cli_names_the_same_line_live_and_replayed_and_keeps_what_came_before(tmp_path: Path) -> None:
    golden = lines_of(REPLAYS / "goblets" / "characters_b.jsonl")
    broken = squeezed(REPLAYS / "goblets" / "characters_b.jsonl", 0.03)
    broken[0]["goblets"]["2"] = []  # course 2's deal, fixed by the header: not a deal at all
    bad_line = [golden[0], *golden[1:4], {"t": 9.0, "press": "two"}, *golden[4:]]  # line 5
    for name, script in (("mid-game", broken), ("bad-line", bad_line)):
        (tmp_path / name).mkdir()
        write(tmp_path / name / "script.jsonl", script)
    procs = {name: (cli(tmp_path / name, "run", "--headless", "--simulate", "--script", "script.jsonl",
                        "--seconds", "60"), cli(tmp_path / name, "replay", "script.jsonl"))
             for name in ("mid-game", "bad-line")}
    (code, out, err), (r_code, r_out, r_err) = (done(p) for p in procs["bad-line"])
    assert code == r_code == 2 and out == r_out == ""
    assert "clinkbox run: script.jsonl:5: 'press' must be a station number" in err
    assert "clinkbox replay: script.jsonl:5: 'press' must be a station number" in r_err
    assert done(cli(tmp_path / "bad-line", "journal"))[1] == "", "nothing was played"

    (code, out, err), (r_code, r_out, r_err) = (done(p) for p in procs["mid-game"])
    said = r_err.strip().removeprefix("clinkbox replay: ")
    assert r_code == 2 and said.startswith("script.jsonl:1: the header cannot be played on: goblets for course 2")
    assert code == 2 and "Traceback" not in err and f"clinkbox run: {said}" in err
    assert out.splitlines() == r_out.splitlines()[1:] and len(out.splitlines()) > 20, "what came before is kept"
    listed = done(cli(tmp_path / "mid-game", "journal"))[1]
    assert json.loads(listed) == {"id": 1, "game": "goblets", "status": "damaged"}
