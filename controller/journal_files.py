"""The journal's files on the SD card: setting a damaged database aside, checking the WAL
before SQLite opens it, and a small reserve of disk space for a full card.

SQLite in WAL mode keeps every commit in ``journal.sqlite3-wal`` until a checkpoint copies
it into ``journal.sqlite3`` (the box checkpoints when a game starts and ends, SQLite every
1,000 pages). So a lost or garbled WAL loses every commit since the last checkpoint: the
inputs of the game in progress since it started (never the game itself, nor a finished
game), or a game's end. SQLite says nothing of it: it ignores a missing WAL, and a WAL
frame whose checksum is wrong ends the WAL there. :func:`wal_problem` looks before SQLite
does; the journal's ``running`` mark (see :mod:`controller.journal`) tells a WAL that
vanished with the ``-shm`` file too.
"""

from __future__ import annotations

import os
import struct
import time
from pathlib import Path

WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
FRAME_HEADER = 24
#: bytes kept free beside the journal: deleted when the card is full, so that the game in
#: progress can still be marked as cut short
RESERVE_BYTES = 256 * 1024


def wal_of(db: Path) -> Path:
    return db.with_name(db.name + "-wal")


def shm_of(db: Path) -> Path:
    return db.with_name(db.name + "-shm")


def reserve_of(db: Path) -> Path:
    return db.with_name(db.name + ".reserve")


def set_aside(db: Path) -> Path:
    """Rename a database that cannot be opened (and its WAL and shared memory) out of the way,
    kept for a post-mortem: ``journal.sqlite3.damaged-20261201-031500``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = db.with_name(f"{db.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = db.with_name(f"{db.name}.damaged-{stamp}-{n}")
    db.rename(target)
    for extra, suffix in ((wal_of(db), "-wal"), (shm_of(db), "-shm")):
        if extra.exists():
            extra.rename(target.with_name(target.name + suffix))
    return target


def _checksum(data: bytes, big_endian: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum (two running 32-bit sums over pairs of 32-bit words)."""
    words = struct.unpack((">" if big_endian else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_problem(db: Path) -> str | None:
    """What is wrong with the WAL beside ``db``, before SQLite opens it (None: nothing seen).

    Seen: a shared-memory file with no WAL (the box stopped without closing the journal and
    its WAL was deleted since); a WAL whose header is not a WAL's; a frame of the WAL's
    current run whose checksum is wrong with more frames of that run after it (a torn last
    frame is a write cut short and loses nothing committed).
    """
    wal, shm = wal_of(db), shm_of(db)
    if not wal.exists():
        return "the journal's WAL is missing (the box was not shut down cleanly)" if shm.exists() and db.exists() \
            else None
    size = wal.stat().st_size
    if size == 0:
        return None
    with wal.open("rb") as f:
        head = f.read(WAL_HEADER)
        if len(head) < WAL_HEADER:
            return "the journal's WAL is cut short in its header"
        magic, _version, page, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", head)
        if magic not in WAL_MAGIC or page < 512 or page & (page - 1):
            return "the journal's WAL is garbled (its header is not a WAL's)"
        big = magic == WAL_MAGIC[1]
        if _checksum(head[:24], big) != (c0, c1):
            return "the journal's WAL is garbled (its header's checksum is wrong)"
        sums = (c0, c1)
        bad_at: int | None = None
        frame = 0
        while True:
            fh = f.read(FRAME_HEADER)
            if len(fh) < FRAME_HEADER:
                return None
            body = f.read(page)
            if len(body) < page:
                return None  # a frame cut short at the end: a write the power cut stopped
            _pgno, _commit, s1, s2, f0, f1 = struct.unpack(">6I", fh)
            if (s1, s2) != (salt1, salt2):
                return None  # a frame of an earlier run: the current run ends here
            if bad_at is not None:
                return f"the journal's WAL is garbled (frame {bad_at} is damaged, later frames are not)"
            got = _checksum(body, big, *_checksum(fh[:8], big, *sums))
            if got != (f0, f1):
                bad_at = frame
            else:
                sums = got
            frame += 1


def make_reserve(db: Path) -> bool:
    """Keep :data:`RESERVE_BYTES` of real (not sparse) disk space beside the journal."""
    path = reserve_of(db)
    try:
        if path.exists() and path.stat().st_size >= RESERVE_BYTES:
            return True
        with path.open("wb") as f:
            f.write(b"\0" * RESERVE_BYTES)
            f.flush()
            os.fsync(f.fileno())
        return True
    except OSError:
        try:
            path.unlink()
        except OSError:
            pass
        return False


def free_reserve(db: Path) -> bool:
    """Give the reserve back to a full card; True if there was one."""
    try:
        reserve_of(db).unlink()
        return True
    except OSError:
        return False
