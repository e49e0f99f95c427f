"""Progress bars for long work (random games, analysis, benchmarks), drawn by tqdm.

A bar is drawn only where someone watches: on stderr when it is a terminal, or on a stream the
caller names; piped output gets none. tqdm is optional (`pip install -e '.[progress]'`): without
it the work runs the same, silently.

>>> import io
>>> out = io.StringIO()
>>> with progress_bar(3, "games", out) as advance:
...     for _ in range(3):
...         advance()
>>> "3/3 games" in out.getvalue() or not has_tqdm()
True
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO


def has_tqdm() -> bool:
    """Is tqdm installed (so that bars can be drawn)?"""
    return importlib.util.find_spec("tqdm") is not None


def terminal() -> IO[str] | None:
    """stderr when it is a terminal (where a bar belongs), else None: no bar."""
    return sys.stderr if sys.stderr.isatty() else None


def _nothing(n: int = 1) -> None:
    """Advance a bar that is not drawn."""


@contextmanager
def progress_bar(total: int, unit: str, stream: IO[str] | None,
                 label: str = "") -> Iterator[Callable[[int], None]]:
    """A bar of `total` steps counted in `unit` on `stream` (None: no bar), as a function that
    advances it by n (default 1); the bar is erased when the work is done. Without tqdm,
    nothing is drawn."""
    if stream is None or total <= 0 or not has_tqdm():
        yield _nothing
        return
    from tqdm import tqdm

    bar = tqdm(total=total, file=stream, leave=False, dynamic_ncols=True, mininterval=0.2,
               desc=label or None,
               bar_format="{desc}{bar} {n_fmt}/{total_fmt} " + unit
               + " [{elapsed}<{remaining}, {rate_fmt}]", unit=unit)

    def advance(n: int = 1) -> None:
        bar.update(n)

    try:
        yield advance
    finally:
        bar.refresh()  # the count reached, however soon the work ended
        bar.close()
