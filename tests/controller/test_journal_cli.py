"""``clinkbox journal [--export ID]`` on a journal that is damaged, missing its folder or named
by a broken config: one line naming what is wrong, a non-zero exit status, no traceback; and a
journal row damaged into other valid JSON is unreadable, as a replay file's line would be."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.flow import Input
from controller.journal import Journal

HEADER = {"game": "tchin-tchin", "seed": 7, "players": 4, "options": {}}
GOOD = [Input(1.0, "press", station=2), Input(1.2, "say", word="kanpai", end=1.6)]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The journal's folder, under a temporary XDG_DATA_HOME (no real user's data is touched)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("CLINKBOX_CONFIG", raising=False)
    return tmp_path / "share" / "clinkbox"


def _journal_with(path: Path, rows: list[str]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    j = Journal(path)
    gid = j.start_game(HEADER)
    for inp in GOOD:
        j.append(gid, inp)
    for k, line in enumerate(rows, start=len(GOOD) + 1):
        j._db.execute("INSERT INTO inputs (game_id, seq, line) VALUES (?, ?, ?)", (gid, k, line))
    j.close()
    return gid


@pytest.mark.parametrize("row", [
    '{"t": 1e999, "press": 1}',  # "Infinity" once exported: no replay reads it
    '{"t": -3.0, "press": 1}',
    '{"t": 2.0, "press": 1e30}',
    '{"t": 2.0, "press": true}',
    '{"t": 2.0, "nav": 5}',
    '{"t": 2.0, "say": ["kanpai"], "end": 2.5}',
    '{"t": 2.0, "say": "kanpai", "end": 1e999}',
    '{"t": 2.0, "say": "kanpai", "end": 2.5, "confidence": 7}',
    '{"t": 2.0, "press": 1, "at": "later"}',
])
def test_a_row_damaged_into_other_valid_json_is_unreadable_not_fed_to_a_game(tmp_path: Path,
                                                                              row: str) -> None:
    path = tmp_path / "j.sqlite3"
    gid = _journal_with(path, [row, json.dumps(Input(3.0, "release", station=2).as_line())])
    saved = Journal(path).load(gid)
    assert saved.inputs == [*GOOD, Input(3.0, "release", station=2)]
    assert saved.skipped == 1 and saved.gaps == 1, "a hole in the game: never resumed as if whole"


def test_an_export_leaving_out_an_unreadable_row_says_so_and_fails(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gid = _journal_with(data / "journal.sqlite3", ['{"t": 1e999, "press": 1}'])
    assert main(["journal", "--export", str(gid)]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1 + len(GOOD), "every readable input is exported"
    assert all(json.loads(line) for line in lines)
    assert f"game {gid}: 1 unreadable input(s) left out" in err


@pytest.mark.parametrize("game_id", ["0", "-1", "99999999999999999999999"])
def test_exporting_a_game_the_journal_does_not_hold_names_it(
        data: Path, capsys: pytest.CaptureFixture[str], game_id: str) -> None:
    _journal_with(data / "journal.sqlite3", [])
    assert main(["journal", "--export", game_id]) == 2
    assert f"clinkbox journal: no game {game_id} in the journal" in capsys.readouterr().err


def test_a_database_file_that_is_no_database_is_named_kept_and_fails(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data.mkdir(parents=True)
    path = data / "journal.sqlite3"
    path.write_bytes(b"a beer mat, not a database" * 50)
    assert main(["journal"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and f"journal {path} cannot be opened (file is not a database)" in err
    kept = [p for p in data.iterdir() if p.name.startswith("journal.sqlite3.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"a beer mat, not a database" * 50
    assert str(kept[0]) in err


@pytest.mark.parametrize("what", ["a folder", "a file for its folder"])
def test_a_journal_that_cannot_be_opened_at_all_is_named_and_fails(
        data: Path, capsys: pytest.CaptureFixture[str], what: str) -> None:
    if what == "a folder":
        (data / "journal.sqlite3").mkdir(parents=True)
    else:
        data.parent.mkdir(parents=True)
        data.write_text("not a folder")
    for args in (["journal"], ["journal", "--export", "1"]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"clinkbox journal: journal {data / 'journal.sqlite3'} cannot be used (")
        assert "playing on" not in err and err.count("\n") == 1


def test_a_broken_config_is_named_and_no_other_journal_is_read(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "box.toml"
    bad.write_text(f'data_dir = "{tmp_path / "elsewhere"}"\n[pad]\nok = 4\n')
    errs = []
    for args in (["--config", str(bad), "journal"], ["--config", str(tmp_path / "absent.toml"), "journal"]):
        assert main(args) == 2
        errs.append(capsys.readouterr().err)
        assert errs[-1].startswith("clinkbox journal: config error: ") and errs[-1].count("\n") == 1
    assert f"{bad}: GPIO4 is used twice" in errs[0] and "absent.toml: no such config file" in errs[1]
    assert not data.exists(), "the defaults' journal was not opened in the config's place"
    assert not (tmp_path / "elsewhere").exists()


def test_a_healthy_journal_lists_and_exports_with_status_0(
        data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gid = _journal_with(data / "journal.sqlite3", [])
    assert main(["journal"]) == 0
    assert json.loads(capsys.readouterr().out) == {"id": gid, "game": "tchin-tchin", "status": "playing"}
    assert main(["journal", "--export", str(gid)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1 + len(GOOD)


def test_the_journal_cli_leaves_a_sound_database_where_it_is(data: Path) -> None:
    gid = _journal_with(data / "journal.sqlite3", [])
    assert main(["journal"]) == 0
    assert sorted(p.name for p in data.iterdir() if "damaged" in p.name) == []
    assert Journal(data / "journal.sqlite3").load(gid).inputs == GOOD
    with sqlite3.connect(data / "journal.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)
