"""Surviving a party: the box killed mid-game, a stuck buzzer, no microphone, no speaker,
a full disk, a broken config. Real parts throughout: the box as a subprocess, gpiozero's
MockFactory pins, SQLite, sounddevice, the TOML loader.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import flows_for_tests  # noqa: F401  (registers "countdown-test")

from controller import replay
from controller.app import Box
from controller.cli import load_config
from controller.config import Config, Display, Sound
from controller.journal import Journal
from hardware.buttons import ButtonEvent
from hardware.sound import Speaker

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "countdown-test", "seed": 11, "players": 4}
SCRIPT = [{"t": 0.5, "press": 1}, {"t": 1.0, "say": "prost", "end": 1.3}, {"t": 1.5, "press": 2},
          {"t": 2.0, "nav": "ok"}, {"t": 2.5, "press": 3}, {"t": 3.0, "say": "salud", "end": 3.4}]
# The box as `clinkbox`, with the test's flows. With CUT_POWER_AFTER_INPUTS=N the box kills
# itself (SIGKILL: no clean-up, as when the power cord is pulled) the moment its journal has
# committed its Nth input, so the cut falls at the same point of the game however fast or
# slow the machine is.
BOX = """
import os, signal, sys
sys.path.insert(0, {tests!r})
import flows_for_tests
from controller.cli import main
from controller.journal import Journal

cut = int(os.environ.get("CUT_POWER_AFTER_INPUTS", "0"))
if cut:
    append, appended = Journal.append, []

    def append_then_cut(self, *args, **kwargs):
        append(self, *args, **kwargs)  # committed when it returns
        appended.append(1)
        if len(appended) == cut:
            os.kill(os.getpid(), signal.SIGKILL)

    Journal.append = append_then_cut
sys.exit(main(sys.argv[1:]))
"""
# only against a hang: each box ends by itself (killed, or when the script is played out)
HANG_GUARD_S = 600


def headless(tmp_path: Path, **changes: object) -> Config:
    return Config(display=Display(mode="headless", width=640, height=360),
                  data_dir=str(tmp_path / "data"), **changes)  # type: ignore[arg-type]


def start_box(tmp_path: Path, script: Path, cut_after: int = 0) -> subprocess.Popen[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           "CUT_POWER_AFTER_INPUTS": str(cut_after)}
    env.pop("CLINKBOX_CONFIG", None)
    code = BOX.format(tests=str(ROOT / "tests" / "controller"))
    return subprocess.Popen([sys.executable, "-c", code, "run", "--headless", "--simulate", "--script", str(script),
                             "--seconds", str(HANG_GUARD_S)], cwd=tmp_path, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(box: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return box.communicate(timeout=HANG_GUARD_S)
    finally:
        if box.poll() is None:
            box.kill()
            box.communicate()


def journaled_inputs(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0)
    try:
        return int(con.execute("SELECT count(*) FROM inputs").fetchone()[0])
    except sqlite3.Error:
        return 0  # the tables are not made yet
    finally:
        con.close()


def test_kill_9_in_the_middle_of_a_game_then_the_restarted_box_resumes_it_with_no_input_lost(
        tmp_path: Path) -> None:
    script = tmp_path / "party.jsonl"
    script.write_text("\n".join(json.dumps(x) for x in [HEADER, *SCRIPT]) + "\n")
    db = tmp_path / "share" / "clinkbox" / "journal.sqlite3"

    first = start_box(tmp_path, script, cut_after=3)  # the power cord, as far as the box can tell
    _, err = finish(first)
    assert first.returncode == -signal.SIGKILL, f"the box was not cut off mid-game: {err}"
    kept = journaled_inputs(db)
    assert kept == 3 < len(SCRIPT), "killed in the middle of the game, with every committed input kept"

    second = start_box(tmp_path, script)
    out, err = finish(second)
    assert second.returncode == 0, err
    assert f"resumed game 1 after {kept} of {len(SCRIPT)} inputs" in err
    live = [json.loads(line) for line in out.splitlines()]

    header, inputs = replay.load([json.dumps(HEADER), *(json.dumps(x) for x in SCRIPT)])
    replayed = replay.run(header, inputs, lambda event: None).events
    assert live == replayed, "the resumed game decided exactly what a replay of its inputs decides"
    assert live[-1]["event"] == "game_over"

    journal = Journal(db)
    assert journal.games() == [(1, "countdown-test", "over")]
    assert [i.as_dict() for i in journal.load(1).inputs] == [i.as_dict() for i in inputs], \
        "every accepted input is in the journal once, in order"
    journal.close()


def test_a_buzzer_stuck_down_for_thirty_seconds_is_disabled_and_the_game_goes_on(tmp_path, mock_factory):
    box = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)
    box.shell.start_game(dict(HEADER))
    assert box.shell.session is not None
    mock_factory.pin(27).drive_low()  # station 2's buzzer jams down
    down = box.panel.down_since[2]
    box._watch_stuck(down + box.cfg.buttons.stuck_s - 0.5)
    assert 2 not in box.shell.disabled, "held, but not yet for 30 s"
    box._watch_stuck(down + box.cfg.buttons.stuck_s)
    assert 2 in box.shell.disabled and 2 in box.panel.disabled
    assert box.shell.scene().footer.startswith("Station 2's buzzer is stuck down")
    assert box.panel.leds[2].value == 0, "its LED is put out"

    fed: list[tuple[int | None, bool]] = []
    box.panel.on_event = lambda ev: fed.append((ev.station, ev.pressed))  # what the pins report
    mock_factory.pin(27).drive_high()  # the jammed buzzer flickers: ignored while disabled
    mock_factory.pin(27).drive_low()
    mock_factory.pin(4).drive_low()  # station 1 still plays
    mock_factory.pin(4).drive_high()
    assert fed == [(1, True), (1, False)]
    box._watch_stuck(down + box.cfg.buttons.stuck_s + 0.5)
    assert 2 in box.shell.disabled, "still down: still disabled"
    mock_factory.pin(27).drive_high()  # the jam clears
    box._watch_stuck(down + box.cfg.buttons.stuck_s + 1)
    assert 2 not in box.shell.disabled and 2 not in box.panel.disabled and box.shell.notices[-1] == "Station 2's buzzer is free again."
    box.close()


def test_a_game_started_while_a_buzzer_is_stuck_leaves_that_station_out(tmp_path, mock_factory):
    box = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)
    mock_factory.pin(23).drive_low()  # station 3
    down = box.panel.down_since[3]
    box._watch_stuck(down + 30.0)
    box.shell.start_game(dict(HEADER))
    assert box.shell.session is not None and box.shell.session.ctx.disabled == frozenset({3})
    box.close()


def test_the_microphone_coming_and_going_is_told_to_the_table(tmp_path, mock_factory):
    box = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)

    async def party() -> list[str]:
        box.loop = asyncio.get_running_loop()
        # the listener's thread reports what happens to the microphone
        await asyncio.to_thread(box._speech_status, "unplugged: listening again when it comes back")
        await asyncio.sleep(0)
        footers = [box.shell.scene().footer]
        await asyncio.to_thread(box._speech_status, "back")
        await asyncio.sleep(0)
        return [*footers, box.shell.scene().footer]

    assert asyncio.run(party()) == ["Microphone: unplugged: listening again when it comes back", "Microphone: back"]
    box.close()


def test_no_speaker_means_silence_with_a_warning_and_the_game_goes_on(tmp_path, mock_factory, caplog):
    speaker = Speaker(True, 0.6, "no such speaker at this party")
    assert not speaker.available and speaker.problem is not None and "No speaker" in speaker.problem
    assert "Error" not in speaker.problem and "-1" not in speaker.problem, "plain words for the table"
    speaker.play("win")  # never raises, never blocks
    assert speaker.played == ["win"]
    box = Box(headless(tmp_path, sound=Sound(device="no such speaker at this party")), simulate=False,
              pin_factory=mock_factory)
    assert "No speaker" in box.shell.scene().footer
    box.shell.start_game(dict(HEADER))
    box.shell.t0 = 0.0
    mock_factory.pin(4).drive_low()
    ev_t = box.panel.down_since[1]
    box.shell.button(ButtonEvent(ev_t, True, station=1))
    assert box.shell.session is not None
    assert [e["event"] for e in box.shell.session.events] == ["ready", "armed"]
    box.close()


def test_a_full_disk_keeps_the_game_going_in_memory_and_the_table_is_told(tmp_path, mock_factory):
    box = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)
    box.shell.start_game(dict(HEADER))
    box.shell.t0 = 0.0
    session = box.shell.session
    assert session is not None and session.game_id is not None
    db = box.journal._db
    # SQLite's own "database or disk is full", as on a full SD card
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    for k in range(120):
        box.shell.button(ButtonEvent(1.0 + k * 0.01, True, station=1 + k % 4))
    assert box.journal.problem is not None and "full" in box.journal.problem
    assert box.shell.scene().footer == box.journal.problem, "the table sees it on the game screen"
    assert sum(e["event"] == "armed" for e in session.events) == 120, "no press was lost to the full disk"
    assert len(box.journal.load(session.game_id).inputs) == 120, "and each is kept, in memory"
    box.close()


def test_a_corrupt_config_starts_the_box_on_defaults_and_shows_the_error(tmp_path, mock_factory):
    bad = tmp_path / "clinkbox.toml"
    bad.write_text("[pad]\nprev = 14\nok = 14\n")  # one pin for two buttons
    cfg, problem = load_config(str(bad))
    assert cfg == Config()
    assert problem is not None and "GPIO14 is used twice" in problem and str(bad) in problem
    garbage = tmp_path / "garbage.toml"
    garbage.write_bytes(b"\x00\xff[stations\n")
    cfg, problem = load_config(str(garbage))
    assert cfg == Config() and problem is not None and "cannot be read as a UTF-8 text file" in problem


def test_the_box_process_starts_to_its_menu_with_a_corrupt_config(tmp_path):
    bad = tmp_path / "clinkbox.toml"
    bad.write_text("[display]\nmode = 'hologram'\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-m", "controller.cli", "--config", str(bad), "run", "--headless",
                          "--simulate", "--exit-after-menu"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert "display.mode = 'hologram' is not one of" in out.stderr and "starting with the defaults" in out.stderr
    assert "startup_s" in out.stdout


def test_a_script_that_cannot_be_played_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"game": "tchin-tchin", "seed": 1, "players": 4}) + '\n{"t": 1.0, "press": "one"}\n')
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    for script, message in ((bad, f"{bad}:2: 'press' must be a station number"),
                            (tmp_path / "absent.jsonl", "no such script file")):
        out = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--headless", "--simulate",
                              "--script", str(script)], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=60, check=False)
        assert out.returncode == 2 and message in out.stderr, out.stderr


def test_the_box_starts_and_plays_a_new_game_over_a_damaged_header_row_or_a_garbage_database(tmp_path):
    script = tmp_path / "party.jsonl"
    script.write_text("\n".join(json.dumps(x) for x in [HEADER, *SCRIPT]) + "\n")
    db = tmp_path / "share" / "clinkbox" / "journal.sqlite3"
    db.parent.mkdir(parents=True)
    journal = Journal(db)
    gid = journal.start_game({"game": "countdown-test", "seed": 5, "players": 4})
    journal._db.execute("UPDATE games SET header='{\"game\": 12' WHERE id=?", (gid,))
    journal.close()
    for damage in ("header", "database"):
        if damage == "database":
            for extra in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
                extra.unlink(missing_ok=True)
            db.write_bytes(b"SQLite format 3\x00" + os.urandom(8000))
        box = start_box(tmp_path, script)
        out, err = box.communicate(timeout=60)
        assert box.returncode == 0 and "Traceback" not in err, err
        assert [json.loads(x) for x in out.splitlines()][-1]["event"] == "game_over", "the new game was played"
        if damage == "header":
            assert "game 1 is set aside" in err
            assert [s for _, _, s in Journal(db).games()] == ["damaged", "over"]
        else:
            assert "journal.sqlite3.damaged-" in err and "a fresh journal started" in err
            assert [s for _, _, s in Journal(db).games()] == ["over"]
            assert len(list(db.parent.glob("journal.sqlite3.damaged-*"))) == 1


def test_the_screen_says_once_that_a_damaged_journal_was_kept_aside(tmp_path, mock_factory):
    db = tmp_path / "data" / "journal.sqlite3"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a journal at all" * 200)
    box = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)
    footer = box.shell.scene().footer
    assert "kept as journal.sqlite3.damaged-" in footer and "fresh journal" in footer
    assert box.journal.problem is None, "the fresh journal is on the card"
    box.shell.start_game(dict(HEADER))
    assert box.journal.games() == [(1, "countdown-test", "playing")]
    box.close()
    again = Box(headless(tmp_path), simulate=False, pin_factory=mock_factory)
    assert "damaged" not in again.shell.scene().footer, "said once, not at every start"
    again.close()


def test_the_simulator_without_a_microphone_says_how_to_type_a_toast(tmp_path):
    box = Box(headless(tmp_path), simulate=True)
    assert box.keyboard is not None

    async def start() -> str:
        box.loop = asyncio.get_running_loop()
        await asyncio.to_thread(box._speech_status, "no microphone (Error querying device -1)")
        await asyncio.sleep(0)
        return box.shell.scene().footer

    assert asyncio.run(start()) == "No microphone: press T to type a toast"
    box.close()
