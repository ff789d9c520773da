"""Opening a file the box was told to read: only a regular file, within a size limit.

A FIFO would hang the reader, a device such as /dev/zero would never end, and a folder
cannot be read: each is refused by name before anything is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def regular_file(path: Path, what: str, limit: int) -> os.stat_result:
    """Stat ``path`` and refuse anything but a regular file of at most ``limit`` bytes; the
    ValueError names ``what`` the file is meant to be, the path and what is wrong."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"no such {what}: {path}") from None
    except OSError as exc:
        raise ValueError(f"{what} {path} cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{what} {path} is a folder, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{what} {path} is not a regular file (a device, a FIFO or a socket)")
    if st.st_size > limit:
        raise ValueError(f"{what} {path} is {st.st_size} bytes; at most {limit} are read")
    return st
