"""The journal: every game and every accepted input, in one SQLite database (WAL).

An input is written (and committed) before its effect is shown, so after a
crash or a power cut the game in progress is rebuilt by replaying its inputs.
A game is its header plus its inputs: :meth:`Journal.export` writes it as a
replay file for ``clinkbox replay``.

What goes wrong is reported and survived: a torn or corrupt input row is
skipped with a warning (nothing before it is lost); a full disk or a broken
database turns the journal to memory only, and :attr:`Journal.problem` says so
for the table.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.flow import Input

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    started REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    ended REAL
);
CREATE TABLE IF NOT EXISTS inputs (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class SavedGame:
    id: int
    header: dict[str, Any]
    inputs: list[Input]
    skipped: int = 0
    clock_at: list[float | None] | None = None
    """Per input: where the game clock already stood when it arrived, if past its ``t``
    (a toast reported late); resuming moves the clock there first, as it was live."""


class JournalError(RuntimeError):
    pass


def input_from_dict(d: dict[str, Any]) -> Input:
    """The inverse of :meth:`Input.as_line` (also the replay file's input line format)."""
    inp = _input_kind(d)
    at = d.get("at")
    return inp if at is None else Input(**{**inp.__dict__, "at": float(at)})


def _input_kind(d: dict[str, Any]) -> Input:
    t = float(d["t"])
    if "press" in d:
        return Input(t, "press", station=int(d["press"]))
    if "release" in d:
        return Input(t, "release", station=int(d["release"]))
    if "nav" in d:
        return Input(t, "nav", nav=str(d["nav"]))
    if "say" in d:
        end = float(d.get("end", t))
        conf = d.get("confidence")
        return Input(t, "say", word=d["say"], end=end, confidence=None if conf is None else float(conf),
                     typed=d.get("typed") is True)
    if "do" in d:
        if not isinstance(d["do"], dict):
            raise ValueError("'do' must be an object")
        return Input(t, "do", action=d["do"])
    raise ValueError("no input kind (press, release, nav, say, do)")


class Journal:
    """The box's journal. ``path=None`` keeps it in memory only."""

    def __init__(self, path: str | Path | None, *, sync: str = "background") -> None:
        """``sync``: "full" makes every append wait for the disk; "background" (the box's
        default) writes at once to the WAL and leaves the disk flush to :meth:`sync_now`,
        which the service calls off the event loop a few times a second, so a press is never
        held up by an SD card's fsync."""
        self.path = Path(path) if path else None
        self.sync = sync
        self.dirty = False
        self.problem: str | None = None
        self._seq: dict[int, int] = {}
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._memory()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if self.sync == 'full' else 'NORMAL'}")
            db.executescript(SCHEMA)
            db.execute("SELECT count(*) FROM games").fetchone()
            return db
        except (sqlite3.DatabaseError, OSError) as exc:
            self._degrade(f"journal {self.path} cannot be used ({exc}); playing on without it")
            return self._memory()

    def _memory(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(SCHEMA)
        return db

    def _degrade(self, message: str) -> None:
        log.error(message)
        self.problem = message

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor | None:
        try:
            return self._db.execute(sql, args)
        except sqlite3.OperationalError as exc:
            if self.path is None or self._db_is_memory():
                raise
            # disk full, or the card pulled: carry on in memory, keep what we can
            self._degrade(f"journal write failed ({exc}): the game goes on, unsaved")
            old = self._db
            self._db = self._memory()
            try:
                old.backup(self._db)
            except sqlite3.Error:
                pass
            return self._db.execute(sql, args)

    def _db_is_memory(self) -> bool:
        return bool(self.problem)

    # -- games -------------------------------------------------------------------------
    def start_game(self, header: dict[str, Any]) -> int:
        # a new game ends any game still marked as playing
        self._write("UPDATE games SET status='abandoned', ended=? WHERE status='playing'", (time.time(),))
        cur = self._write(
            "INSERT INTO games (game, header, started) VALUES (?, ?, ?)",
            (str(header.get("game", "")), json.dumps(header, sort_keys=True), time.time()),
        )
        assert cur is not None
        gid = int(cur.lastrowid or 0)
        self._seq[gid] = 0
        return gid

    def append(self, game_id: int, inp: Input, at: float | None = None) -> None:
        """Write one accepted input (committed before this returns).

        ``at``: the game clock's reading when the input arrived, kept when it is past ``t``.
        """
        seq = self._seq.get(game_id)
        if seq is None:
            row = self._db.execute("SELECT coalesce(max(seq), 0) FROM inputs WHERE game_id=?", (game_id,)).fetchone()
            seq = int(row[0])
        seq += 1
        self._seq[game_id] = seq
        line = inp.as_line()
        if at is not None and at > inp.t:
            line["at"] = at
        self._write("INSERT INTO inputs (game_id, seq, line) VALUES (?, ?, ?)",
                    (game_id, seq, json.dumps(line, sort_keys=True)))
        self.dirty = True

    def sync_now(self) -> None:
        """Flush what was written to the disk (safe from another thread): after this, a power
        cut loses nothing. A process crash (kill -9) never loses a committed input."""
        if self.path is None or self.problem:
            return
        self.dirty = False
        for p in (self.path.with_name(self.path.name + "-wal"), self.path):
            try:
                fd = os.open(p, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.fsync(fd)
            except OSError as exc:
                log.warning("journal flush failed: %s", exc)
            finally:
                os.close(fd)

    def finish(self, game_id: int, status: str = "over") -> None:
        self._write("UPDATE games SET status=?, ended=? WHERE id=?", (status, time.time(), game_id))

    def in_progress(self) -> SavedGame | None:
        """The game left playing (after a crash or power cut), if any."""
        row = self._db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        return self.load(int(row[0])) if row else None

    def load(self, game_id: int) -> SavedGame:
        row = self._db.execute("SELECT header FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        header = json.loads(row[0])
        inputs: list[Input] = []
        clock_at: list[float | None] = []
        skipped = 0
        for seq, line in self._db.execute(
                "SELECT seq, line FROM inputs WHERE game_id=? ORDER BY seq", (game_id,)):
            try:
                obj = json.loads(line)
                inp = input_from_dict(obj)
                inputs.append(inp)
                clock_at.append(inp.at)
            except (ValueError, KeyError, TypeError) as exc:
                skipped += 1
                log.warning("journal: game %d input %d is unreadable (%s): skipped", game_id, seq, exc)
        return SavedGame(game_id, header, inputs, skipped, clock_at)

    def games(self) -> list[tuple[int, str, str]]:
        return [(int(i), g, s) for i, g, s in self._db.execute("SELECT id, game, status FROM games ORDER BY id")]

    def export(self, game_id: int) -> str:
        """The game as a replay file (JSON lines: header, then inputs)."""
        saved = self.load(game_id)
        lines = [json.dumps(saved.header, sort_keys=True)]
        lines += [json.dumps(i.as_line(), sort_keys=True) for i in saved.inputs]
        return "\n".join(lines) + "\n"

    def check(self) -> str:
        """SQLite's own integrity check: "ok" or what is wrong."""
        try:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            return str(exc)

    def close(self) -> None:
        self._db.close()
