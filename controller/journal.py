"""The journal: every game and every accepted input, in one SQLite database (WAL).

An input is written (and committed) before its effect is shown, so after a
crash or a power cut the game in progress is rebuilt by replaying its inputs.
A game is its header plus its inputs: :meth:`Journal.export` writes it as a
replay file for ``clinkbox replay``.

What goes wrong is reported and survived, and the box always starts:

- a torn last input row is skipped with a warning (nothing before it is lost);
- a game whose header, or an input before its last, cannot be read is set aside
  (status ``damaged``, kept for export) with a warning, never offered for resume;
- a database that cannot be opened, or fails SQLite's quick check, is renamed aside
  (``journal.sqlite3.damaged-<time>``, kept for a post-mortem) and a fresh journal is
  started; :attr:`Journal.notices` says so once, for the screen;
- a full disk: the game in progress is marked ``cut short`` on the card (a small
  reserve of space is freed for that), then the game goes on in memory and
  :attr:`Journal.problem` says so; a cut-short game is never offered for resume;
- a lost or garbled WAL (see :mod:`controller.journal_files`) is detected when the
  journal opens: the game it was playing is set aside, and the table is told.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.flow import Input
from controller.journal_files import free_reserve, make_reserve, set_aside, wal_of, wal_problem

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
CREATE TABLE IF NOT EXISTS voices (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    station INTEGER,
    template TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS box (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
#: statuses: playing, over, abandoned, damaged (set aside), cut short (inputs lost to a full disk)
CLOSED = ("over", "abandoned", "damaged", "cut short")


@dataclass(frozen=True)
class SavedGame:
    id: int
    header: dict[str, Any]
    inputs: list[Input]
    skipped: int = 0
    clock_at: list[float | None] | None = None
    """Per input: where the game clock already stood when it arrived, if past its ``t``
    (a toast reported late); resuming moves the clock there first, as it was live."""
    gaps: int = 0
    """Unreadable inputs with a readable one after them (a hole, not a torn last row)."""
    last_seq: int = 0
    """The row number of the last readable input (0: none)."""


class JournalError(RuntimeError):
    pass


def input_from_dict(d: dict[str, Any]) -> Input:
    """The inverse of :meth:`Input.as_line` (also the replay file's input line format).

    A line the box could not have written (a time that is no finite number of seconds, a
    station that is no whole number, a word that is no text) is a ValueError: a journal row
    damaged into other valid JSON is unreadable, as a replay file's line would be, not fed to
    a game."""
    inp = _input_kind(d)
    at = d.get("at")
    return inp if at is None else Input(**{**inp.__dict__, "at": _seconds(d, "at")})


def _seconds(d: dict[str, Any], key: str) -> float:
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v < math.inf:
        raise ValueError(f"{key!r} must be a finite number of seconds, not {v!r}")
    return float(v)


def _station(d: dict[str, Any], key: str) -> int:
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int) or not -2**63 <= v < 2**63:
        raise ValueError(f"{key!r} must be a station number, not {v!r}")
    return v


def _input_kind(d: dict[str, Any]) -> Input:
    t = _seconds(d, "t")
    if "press" in d:
        return Input(t, "press", station=_station(d, "press"))
    if "release" in d:
        return Input(t, "release", station=_station(d, "release"))
    if "nav" in d:
        if not isinstance(d["nav"], str):
            raise ValueError(f"'nav' must be text, not {d['nav']!r}")
        return Input(t, "nav", nav=d["nav"])
    if "say" in d:
        if not isinstance(d["say"], str):
            raise ValueError(f"'say' must be text, not {d['say']!r}")
        end = _seconds(d, "end") if "end" in d else t
        conf = d.get("confidence")
        if conf is not None and (isinstance(conf, bool) or not isinstance(conf, (int, float))
                                 or not 0.0 <= conf <= 1.0):
            raise ValueError(f"'confidence' must be a number from 0 to 1, not {conf!r}")
        return Input(t, "say", word=d["say"], end=end, confidence=None if conf is None else float(conf),
                     typed=d.get("typed") is True)
    if "do" in d:
        if not isinstance(d["do"], dict):
            raise ValueError("'do' must be an object")
        return Input(t, "do", action=d["do"])
    raise ValueError("no input kind (press, release, nav, say, do)")


class Journal:
    """The box's journal. ``path=None`` keeps it in memory only."""

    def __init__(self, path: str | Path | None, *, sync: str = "background", watch: bool = False,
                 repair: bool = True) -> None:
        """``sync``: "full" makes every append wait for the disk; "background" (the box's
        default) writes at once to the WAL and leaves the disk flush to :meth:`sync_now`,
        which the service calls off the event loop a few times a second, so a press is never
        held up by an SD card's fsync.

        ``watch``: the box's own journal keeps a ``running`` mark in the database while it is
        open, so that a WAL lost after a crash is noticed at the next start.

        ``repair=False`` (the doctor's look) leaves a damaged database where it is and says so
        in :attr:`problem`, and keeps no disk reserve."""
        self.repair = repair
        self.path = Path(path) if path else None
        self.sync = sync
        self.watch = watch
        self.dirty = False
        self.problem: str | None = None
        self.unusable: str | None = None
        """Why the journal's file could not be opened at all (then it is kept in memory)."""
        self.set_aside_as: str | None = None
        """A database that could not be opened, renamed aside (a fresh one started): what, where."""
        self.notices: list[str] = []
        """What the table should be told once (a journal set aside, a game set aside)."""
        self.wal_lost: str | None = None
        self._seq: dict[int, int] = {}
        self._db_fd: int | None = None
        """The database file, opened once for :meth:`sync_now` and closed only after SQLite's
        connection: closing any descriptor of a file drops every POSIX lock this process holds
        on it, SQLite's too, and a reader that then closes takes itself for the last connection
        and deletes the WAL the box is still writing."""
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._memory()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            trouble = wal_problem(self.path) if self.path.exists() else None
            wal = wal_of(self.path)
            wal_empty = not wal.exists() or wal.stat().st_size == 0
        except OSError as exc:
            self._unusable(exc)
            return self._memory()
        try:
            db = self._connect()
        except sqlite3.OperationalError as exc:  # cannot open or write here (permissions, a folder): not damage
            self._unusable(exc)
            return self._memory()
        except sqlite3.DatabaseError as exc:  # not a database, or a damaged one
            if not self.repair:
                self._unusable(exc)
                return self._memory()
            try:
                kept = set_aside(self.path)
                db = self._connect()
            except (sqlite3.DatabaseError, OSError) as again:
                self._unusable(again)
                return self._memory()
            self.set_aside_as = f"journal {self.path} cannot be opened ({exc}): kept as {kept}, " \
                                "a fresh journal started"
            log.error("%s", self.set_aside_as)
            self._tell(f"The journal could not be opened ({exc}): kept as {kept.name}, "
                       "a fresh journal is started.")
            trouble = None
        except OSError as exc:
            self._unusable(exc)
            return self._memory()
        self._db = db
        if self.watch:
            row = db.execute("SELECT value FROM box WHERE key='running'").fetchone()
            if trouble is None and row is not None and row[0] == "1" and wal_empty:
                trouble = "the journal's WAL is missing (the box was not shut down cleanly)"
            self._mark_running("1")
        if trouble is not None:
            self.wal_lost = trouble
            log.error("journal: %s: commits since the last checkpoint are lost", trouble)
            for (gid,) in db.execute("SELECT id FROM games WHERE status='playing'").fetchall() \
                    if self.repair else []:
                self._set_aside(db, int(gid), f"{trouble}; its last inputs may be lost")
        if self.repair and not make_reserve(self.path):
            log.warning("journal: no room for the %s reserve beside %s", "full-disk", self.path)
        return db

    def _connect(self) -> sqlite3.Connection:
        """Open the database and check it; a damaged one raises :class:`sqlite3.DatabaseError`."""
        assert self.path is not None
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if self.sync == 'full' else 'NORMAL'}")
            db.executescript(SCHEMA)
            verdict = str(db.execute("PRAGMA quick_check").fetchone()[0])
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"damaged: {verdict}")
            db.execute("SELECT count(*) FROM games").fetchone()
            return db
        except BaseException:
            db.close()
            raise

    def _mark_running(self, value: str) -> None:
        """The ``running`` mark, checkpointed into the database file itself."""
        try:
            self._db.execute("INSERT OR REPLACE INTO box (key, value) VALUES ('running', ?)", (value,))
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            log.warning("journal: the running mark was not written (%s)", exc)

    def _tell(self, message: str) -> None:
        self.notices.append(message)

    def _memory(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(SCHEMA)
        return db

    def _unusable(self, exc: BaseException) -> None:
        self.unusable = f"journal {self.path} cannot be used ({exc})"
        self._degrade(f"{self.unusable}; playing on without it")

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
            self._cut_short(old)
            return self._db.execute(sql, args)

    def _cut_short(self, disk: sqlite3.Connection) -> None:
        """On the card, close the game whose later inputs only memory holds, so that it is never
        offered for resume as if it were whole (the reserve gives the card room for this)."""
        assert self.path is not None
        free_reserve(self.path)
        try:
            disk.execute("UPDATE games SET status='cut short', ended=? WHERE status='playing'", (time.time(),))
            log.error("journal: the game in progress is marked cut short on the card")
        except sqlite3.Error as exc:
            log.error("journal: the game in progress could not be marked cut short (%s)", exc)
        finally:
            disk.close()

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
        self._checkpoint()  # the game's row in the database file: a lost WAL cannot lose the game
        return gid

    def _checkpoint(self) -> None:
        if self.path is None or self.problem:
            return
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            log.warning("journal checkpoint failed: %s", exc)

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
                    (game_id, seq, json.dumps(line)))
        self.dirty = True

    def sync_now(self) -> None:
        """Flush what was written to the disk (safe from another thread): after this, a power
        cut loses nothing. A process crash (kill -9) never loses a committed input."""
        if self.path is None or self.problem:
            return
        self.dirty = False
        try:  # SQLite locks the database and -shm files, never the WAL: its descriptor may close
            fd = os.open(wal_of(self.path), os.O_RDONLY)
        except OSError:
            fd = None
        if fd is not None:
            try:
                os.fsync(fd)
            except OSError as exc:
                log.warning("journal flush failed: %s", exc)
            finally:
                os.close(fd)
        try:
            if self._db_fd is None:
                self._db_fd = os.open(self.path, os.O_RDONLY)
            os.fsync(self._db_fd)
        except OSError as exc:
            log.warning("journal flush failed: %s", exc)

    def finish(self, game_id: int, status: str = "over") -> None:
        cur = self._write("UPDATE games SET status=?, ended=? WHERE id=? AND status != ?",
                          (status, time.time(), game_id, status))
        if cur is not None and cur.rowcount:
            self._checkpoint()

    def in_progress(self) -> SavedGame | None:
        """The game left playing (after a crash or power cut), if any. A game that cannot be
        read whole (its header, or an input before the last) is set aside, never offered."""
        while True:
            try:
                row = self._db.execute(
                    "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
            except sqlite3.DatabaseError as exc:
                log.error("journal: the games cannot be read (%s)", exc)
                self._tell(f"The journal's games cannot be read ({exc}).")
                return None
            if row is None:
                return None
            gid = int(row[0])
            try:
                saved = self.load(gid)
            except (JournalError, sqlite3.DatabaseError) as exc:
                if not self._set_aside(self._db, gid, str(exc)):
                    return None
                continue
            if saved.gaps:
                if not self._set_aside(self._db, gid, f"{saved.gaps} of its inputs cannot be read"):
                    return None
                continue
            return saved

    def set_aside(self, game_id: int, reason: str) -> bool:
        """Mark a game ``damaged``: never offered for resume again, still listed and exported."""
        return self._set_aside(self._db, game_id, reason)

    def _set_aside(self, db: sqlite3.Connection, game_id: int, reason: str) -> bool:
        """Mark a game ``damaged`` (kept: it can still be listed and exported)."""
        log.warning("journal: game %d is set aside: %s", game_id, reason)
        self._tell(f"Game {game_id} was set aside: {reason}.")
        try:
            db.execute("UPDATE games SET status='damaged', ended=? WHERE id=?", (time.time(), game_id))
            return True
        except sqlite3.Error as exc:
            log.error("journal: game %d could not be set aside (%s)", game_id, exc)
            return False

    def load(self, game_id: int) -> SavedGame:
        """A game's header and inputs. An unreadable header is a :class:`JournalError`; an
        unreadable input is skipped with a warning (``skipped``; ``gaps`` counts those with a
        readable input after them: not a torn last row but a hole in the game)."""
        fits = -2**63 <= game_id < 2**63  # SQLite's integers: no game has another id
        row = self._db.execute("SELECT header FROM games WHERE id=?", (game_id,)).fetchone() if fits else None
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        try:
            header = json.loads(row[0])
        except (TypeError, ValueError) as exc:
            raise JournalError(f"game {game_id}'s header cannot be read ({exc})") from None
        if not isinstance(header, dict) or not isinstance(header.get("game"), str):
            raise JournalError(f"game {game_id}'s header is not a game's header")
        inputs: list[Input] = []
        clock_at: list[float | None] = []
        skipped = gaps = last_seq = 0
        for seq, line in self._db.execute(
                "SELECT seq, line FROM inputs WHERE game_id=? ORDER BY seq", (game_id,)):
            try:
                obj = json.loads(line)
                if not isinstance(obj, dict):
                    raise ValueError("not an object")
                inp = input_from_dict(obj)
                inputs.append(inp)
                clock_at.append(inp.at)
                gaps, last_seq = skipped, int(seq)
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                skipped += 1
                log.warning("journal: game %d input %d is unreadable (%s): skipped", game_id, seq, exc)
        return SavedGame(game_id, header, inputs, skipped, clock_at, gaps, last_seq)

    def drop_torn_tail(self, saved: SavedGame) -> None:
        """A game resumed past its torn last rows: drop them, so that the inputs it journals
        from now on follow its last readable one (a torn row left behind them would read as a
        hole in the game at the next start, and set it aside). Nothing readable is dropped."""
        if not saved.skipped or saved.gaps:
            return
        try:
            self._db.execute("DELETE FROM inputs WHERE game_id=? AND seq>?", (saved.id, saved.last_seq))
        except sqlite3.Error as exc:
            log.warning("journal: game %d's torn rows could not be dropped (%s)", saved.id, exc)
            return
        self._seq[saved.id] = saved.last_seq

    # -- the table's voices (enrolled toasts: data, never audio) -----------------------
    def add_voice(self, game_id: int, station: int | None, template: dict[str, Any]) -> None:
        """Keep one enrolled toast of a game (the ear's template, as data), so a resumed game
        hears this table as before."""
        row = self._db.execute("SELECT coalesce(max(n), 0) FROM voices WHERE game_id=?", (game_id,)).fetchone()
        self._write("INSERT INTO voices (game_id, n, station, template) VALUES (?, ?, ?, ?)",
                    (game_id, int(row[0]) + 1, station, json.dumps(template)))
        self.dirty = True

    def voices(self, game_id: int) -> list[dict[str, Any]]:
        """A game's enrolled toasts, in the order they were learned (unreadable ones skipped)."""
        out = []
        for n, text in self._db.execute("SELECT n, template FROM voices WHERE game_id=? ORDER BY n", (game_id,)):
            try:
                out.append(json.loads(text))
            except ValueError as exc:
                log.warning("journal: game %d voice %d is unreadable (%s): skipped", game_id, n, exc)
        return out

    def forget_voices(self, game_id: int) -> None:
        """Drop a game's enrolled toasts (at the game's end, unless the host keeps them)."""
        self._write("DELETE FROM voices WHERE game_id=?", (game_id,))

    def games(self) -> list[tuple[int, str, str]]:
        return [(int(i), g, s) for i, g, s in self._db.execute("SELECT id, game, status FROM games ORDER BY id")]

    def export(self, game_id: int) -> str:
        """The game as a replay file (JSON lines: header, then inputs)."""
        return self.replay_text(self.load(game_id))

    @staticmethod
    def replay_text(saved: SavedGame) -> str:
        """A loaded game as a replay file (its readable inputs)."""
        lines = [json.dumps(saved.header, sort_keys=True)]
        lines += [json.dumps(i.as_line()) for i in saved.inputs]
        return "\n".join(lines) + "\n"

    def check(self) -> str:
        """SQLite's own integrity check: "ok" or what is wrong."""
        try:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            return str(exc)

    def close(self) -> None:
        """Close the journal; the box's own (``watch``) clears its running mark first."""
        if self.watch and self.path is not None and not self.problem:
            self._mark_running("0")
        self._db.close()
        if self._db_fd is not None:
            os.close(self._db_fd)
            self._db_fd = None
        if not self.watch and self.path is not None and not self.problem and self.path.exists() \
                and not wal_of(self.path).exists():
            self._unmark_after_checkpoint()

    def _unmark_after_checkpoint(self) -> None:
        """This was the last connection: closing it checkpointed the WAL into the database and
        removed it, so the box's running mark must not read as a WAL lost at its next start."""
        assert self.path is not None
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None)
            try:
                if db.execute("SELECT value FROM box WHERE key='running'").fetchone() == ("1",):
                    db.execute("UPDATE box SET value='0' WHERE key='running'")
            finally:
                db.close()
        except sqlite3.Error as exc:
            log.warning("journal: the running mark was not cleared (%s)", exc)
