"""Reading the files users name (game files, records, positions), bounded: a path is read
only if it is a regular file no larger than a limit, so `/dev/zero`, a directory or a huge
file gives a one-line reason instead of exhausting memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

# The largest file read as a game file, a record or a position (the largest game file in
# games/ is under 10 KB; a record of a long game is a few hundred KB).
MAX_FILE_BYTES = 4 * 1024 * 1024


class UnreadableFile(OSError):
    """A file that is not read: what it is (its `strerror` says why, in one line)."""


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes; OSError (with `strerror`
    saying why) or UnicodeDecodeError otherwise."""
    p = Path(path)
    if "\0" in str(path):
        raise UnreadableFile(0, "a file name has no NUL character")
    # Opened once, so that what is checked is what is read; without waiting, so that a named
    # pipe is refused rather than waited on (reading a regular file is not changed by it).
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableFile(0, "it is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(0, "it is not a regular file")
        raise UnreadableFile(0, f"it is larger than {limit // (1024 * 1024)} MB")
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFile(0, f"it is larger than {limit // (1024 * 1024)} MB")
    return data.decode("utf-8")
