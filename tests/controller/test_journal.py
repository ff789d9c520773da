"""The SQLite journal: inputs written before their effect, survived corruption and full disks."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from controller.flow import Input
from controller.journal import Journal, input_from_dict

HEADER = {"game": "tchin-tchin", "seed": 7, "players": 4, "options": {}}
INPUTS = [Input(1.0, "press", station=2), Input(1.2, "say", word="kanpai", end=1.6),
          Input(1.7, "release", station=2), Input(3.0, "nav", nav="ok"),
          Input(4.0, "do", action={"type": "pass", "seat": 1})]


def test_inputs_round_trip_through_their_line_format():
    for inp in INPUTS:
        assert input_from_dict(inp.as_dict()) == inp


def test_the_journal_uses_wal_and_keeps_a_game_in_progress(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    gid = j.start_game(HEADER)
    for inp in INPUTS:
        j.append(gid, inp)
    j.close()  # as after a power cut: nothing said the game ended
    again = Journal(path)
    saved = again.in_progress()
    assert saved is not None and saved.id == gid
    assert saved.header == HEADER and saved.inputs == INPUTS and saved.skipped == 0


def test_each_input_is_committed_before_append_returns(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    other = sqlite3.connect(str(path))  # a second reader sees it at once
    assert other.execute("SELECT count(*) FROM inputs").fetchone()[0] == 1


def test_a_finished_game_is_not_offered_for_resume(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    gid = j.start_game(HEADER)
    j.finish(gid)
    assert j.in_progress() is None


def test_a_torn_last_line_is_skipped_with_a_warning_and_nothing_before_it_is_lost(tmp_path, caplog):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    for inp in INPUTS[:3]:
        j.append(gid, inp)
    j._db.execute("INSERT INTO inputs (game_id, seq, line) VALUES (?, 4, ?)", (gid, '{"t": 3.5, "pre'))
    j.close()
    with caplog.at_level(logging.WARNING):
        saved = Journal(path).in_progress()
    assert saved is not None and saved.inputs == INPUTS[:3] and saved.skipped == 1
    assert "input 4 is unreadable" in caplog.text


def test_a_corrupt_database_file_is_kept_aside_and_a_fresh_journal_started(tmp_path):
    path = tmp_path / "j.sqlite3"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    j = Journal(path)
    assert j.problem is None, "the new journal is on the card, not in memory"
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("j.sqlite3.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == garbage, "kept as it was, for a post-mortem"
    assert len(j.notices) == 1 and kept[0].name in j.notices[0] and "fresh journal" in j.notices[0]
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    j.close()
    again = Journal(path)
    assert again.load(gid).inputs == [INPUTS[0]] and again.notices == []


def test_a_full_disk_keeps_the_game_going_in_memory_and_says_so(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    # the database may not grow any more: SQLite answers "database or disk is full"
    pages = j._db.execute("PRAGMA page_count").fetchone()[0]
    j._db.execute(f"PRAGMA max_page_count={pages}")
    for k in range(200):
        j.append(gid, Input(5.0 + k, "press", station=1))
    assert j.problem is not None and "full" in j.problem
    assert len(j.load(gid).inputs) == 201, "every input kept, in memory"


def test_export_writes_a_replay_file(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    gid = j.start_game(HEADER)
    for inp in INPUTS[:2]:
        j.append(gid, inp)
    lines = j.export(gid).splitlines()
    assert len(lines) == 3 and '"game": "tchin-tchin"' in lines[0] and '"press": 2' in lines[1]


def test_integrity_check(tmp_path):
    assert Journal(tmp_path / "j.sqlite3").check() == "ok"


def test_appends_reach_the_disk_on_sync_now_and_full_sync_is_available(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: flushed by sync_now
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    assert j.dirty
    j.sync_now()
    assert not j.dirty
    strict = Journal(tmp_path / "k.sqlite3", sync="full")
    assert strict._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_clinkbox_journal_or_doctor_run_during_a_game_leaves_the_box_s_wal_alone(tmp_path):
    """The box flushes its journal a few times a second; a reader in another process (clinkbox
    journal --export, clinkbox doctor) that closes afterwards must not take itself for the last
    connection and delete the WAL the box goes on writing into."""
    path = tmp_path / "j.sqlite3"
    box = Journal(path, watch=True)
    gid = box.start_game(HEADER)
    box.append(gid, INPUTS[0])
    box.sync_now()
    reader = ("import sys; from controller.journal import Journal; "
              "j = Journal(sys.argv[1]); sys.stdout.write(j.export(int(sys.argv[2]))); j.close()")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    subprocess.run([sys.executable, "-c", reader, str(path), str(gid)], check=True,
                   capture_output=True, env=env)
    assert (tmp_path / "j.sqlite3-wal").exists()
    for inp in INPUTS[1:]:
        box.append(gid, inp)
    box.sync_now()
    out = subprocess.run([sys.executable, "-c", reader, str(path), str(gid)], check=True,
                         capture_output=True, text=True, env=env).stdout
    assert len(out.splitlines()) == 1 + len(INPUTS)  # the header, then every input


def test_a_damaged_game_header_is_set_aside_with_a_warning_and_the_journal_opens(tmp_path, caplog):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    j._db.execute("UPDATE games SET header=? WHERE id=?", ('{"game": "tchin-tch', gid))
    j.close()
    with caplog.at_level(logging.WARNING):
        again = Journal(path)
        assert again.in_progress() is None, "never offered for resume"
    assert again.games() == [(gid, "tchin-tchin", "damaged")], "kept, marked as set aside"
    assert "set aside" in caplog.text and any("set aside" in n for n in again.notices)
    assert again.in_progress() is None and again.start_game(HEADER) == gid + 1


def test_a_game_with_a_hole_in_its_inputs_is_set_aside_but_a_torn_last_row_is_not(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    for inp in INPUTS[:3]:
        j.append(gid, inp)
    j._db.execute("UPDATE inputs SET line='garbage' WHERE game_id=? AND seq=2", (gid,))
    assert j.in_progress() is None
    assert j.games()[0][2] == "damaged"
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    j._db.execute("INSERT INTO inputs (game_id, seq, line) VALUES (?, 2, '[')", (gid,))
    saved = j.in_progress()
    assert saved is not None and saved.id == gid and saved.skipped == 1 and saved.gaps == 0


def test_a_game_resumed_past_its_torn_last_row_can_be_resumed_again(tmp_path):
    """The torn row is dropped at the resume: the inputs journaled after it follow the last
    readable one, so the next start finds no hole and offers the game again, whole."""
    from controller.session import resume

    header = {"game": "tchin-tchin", "seed": 7, "players": 4, "options": {},
              "characters": {"1": "FR", "2": "JP", "3": "MX", "4": "RU"}, "first": 1}
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(header)
    first = [Input(1.0, "press", station=1), Input(1.1, "release", station=1)]
    for inp in first:
        j.append(gid, inp)
    j._db.execute("INSERT INTO inputs (game_id, seq, line) VALUES (?, 3, '{\"t\": 2.0, \"pre')", (gid,))
    j.close()
    j = Journal(path)
    session = resume(j)
    assert session is not None and session.fed == 2
    later = [Input(3.0, "press", station=2), Input(3.1, "release", station=2)]
    for inp in later:
        session.feed(inp)
    j.close()
    saved = Journal(path).in_progress()
    assert saved is not None and saved.id == gid, "offered again, not set aside"
    assert saved.inputs == first + later and saved.skipped == 0


def test_a_damaged_database_page_sets_the_journal_aside(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    gid = j.start_game(HEADER)
    for k in range(300):
        j.append(gid, Input(float(k), "press", station=1 + k % 4))
    j.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page:3 * page + 200] = b"\xa5" * 200  # a page of the card goes bad
    path.write_bytes(bytes(data))
    again = Journal(path)
    assert again.problem is None and again.games() == []
    assert any(p.name.startswith("j.sqlite3.damaged-") for p in tmp_path.iterdir())


def crash(path, inputs=INPUTS):
    """A game in progress, then the process dies: the WAL and the shared memory stay."""
    import multiprocessing

    def play() -> None:
        j = Journal(path, watch=True)
        gid = j.start_game(HEADER)
        for inp in inputs:
            j.append(gid, inp)
        os._exit(0)  # no close, as kill -9

    proc = multiprocessing.get_context("fork").Process(target=play)
    proc.start()
    proc.join()


def test_a_game_survives_a_crash_whole_when_its_wal_is_kept(tmp_path):
    path = tmp_path / "j.sqlite3"
    crash(path)
    again = Journal(path, watch=True)
    assert again.wal_lost is None
    saved = again.in_progress()
    assert saved is not None and saved.inputs == INPUTS


def test_a_deleted_wal_is_detected_and_its_game_set_aside_not_lost_silently(tmp_path):
    from controller.journal_files import shm_of, wal_of

    for also_shm in (False, True):
        path = tmp_path / f"j{also_shm}.sqlite3"
        crash(path)
        wal_of(path).unlink()
        if also_shm:
            shm_of(path).unlink()  # no trace left but the box's running mark
        again = Journal(path, watch=True)
        assert again.wal_lost is not None and "WAL is missing" in again.wal_lost
        assert again.in_progress() is None
        assert again.games() == [(1, "tchin-tchin", "damaged")], "the game is still there, set aside"
        assert any("set aside" in n for n in again.notices)


def test_a_garbled_wal_is_detected(tmp_path):
    from controller.journal_files import wal_of

    path = tmp_path / "j.sqlite3"
    crash(path, [Input(float(k), "press", station=1) for k in range(40)])
    wal = wal_of(path)
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 100] ^= 0xFF  # inside the first frame's page: every later frame is dropped
    wal.write_bytes(bytes(data))
    again = Journal(path, watch=True)
    assert again.wal_lost is not None and "garbled" in again.wal_lost
    assert again.in_progress() is None


def test_a_clean_close_and_a_reader_that_checkpoints_raise_no_alarm(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path, watch=True)
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    j.close()
    assert Journal(path, watch=True).wal_lost is None
    crash(tmp_path / "k.sqlite3")
    Journal(tmp_path / "k.sqlite3").close()  # clinkbox journal, after the crash: the WAL is folded in
    again = Journal(tmp_path / "k.sqlite3", watch=True)
    assert again.wal_lost is None
    saved = again.in_progress()
    assert saved is not None and saved.inputs == INPUTS


def test_a_journal_path_that_cannot_be_opened_is_not_taken_for_damage(tmp_path):
    folder = tmp_path / "j.sqlite3"
    folder.mkdir()  # a folder where the file should be: nothing to set aside
    j = Journal(folder)
    assert j.problem and "cannot be used" in j.problem and folder.is_dir()
    assert not any(p.name.startswith("j.sqlite3.damaged-") for p in tmp_path.iterdir())


def test_a_game_that_cannot_be_resumed_is_set_aside_not_offered_at_every_start(tmp_path):
    import pytest

    from controller.flow import HeaderError
    from controller.session import resume

    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.start_game({**HEADER, "players": 99})  # a header no game deals
    with pytest.raises(HeaderError, match="4 to 8 players"):
        resume(j)
    assert j.games()[0][2] == "damaged" and j.in_progress() is None


def test_an_exported_action_keeps_its_keys_in_the_order_it_was_played(tmp_path):
    """The export is the game as played: an event that quotes an action quotes it alike."""
    journal = Journal(tmp_path / "j")
    gid = journal.start_game({"game": "goblets", "players": 4, "seed": 3})
    action = {"type": "peek", "seat": 2, "goblet": 1}  # not in sorted order
    journal.append(gid, Input(1.5, "do", action=action))
    lines = journal.export(gid).splitlines()
    assert list(json.loads(lines[1])["do"]) == ["type", "seat", "goblet"]
    assert lines[1] == json.dumps({"t": 1.5, "do": action})
