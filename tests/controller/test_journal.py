"""The SQLite journal: inputs written before their effect, survived corruption and full disks."""

from __future__ import annotations

import logging
import sqlite3

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


def test_a_corrupt_database_file_leaves_the_box_playing_in_memory(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    j = Journal(path)
    assert j.problem and "cannot be used" in j.problem
    gid = j.start_game(HEADER)
    j.append(gid, INPUTS[0])
    assert j.load(gid).inputs == [INPUTS[0]]


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
