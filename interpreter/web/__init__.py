"""The playground: a local web page to write a game, see its errors, and play it on the board.

`ludeme serve [FILE...]` starts it (see `serve_command`). The pieces:

- `server` — the Starlette application: the page, its static files and a small JSON API;
- `origin` — same origin only: the API's POSTs are served to the playground's page alone;
- `sessions` — one game in play per browser tab, as plain data, bounded in number and size;
- `worker` — a pool of worker processes that do all the work on games, each task under a
  deadline and each worker under a memory cap (a runaway task is killed, not waited for);
- `gamework`, `tasks`, `views` — what the workers run: a session's game, checking a text and
  random games, what the page draws of a position;
- `static/` — the page: one HTML file, one hand-written JavaScript file, one CSS file.

Only `server` needs Starlette (and uvicorn to serve); the rest is plain Python.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

INSTALL_HINT = ("ludeme serve needs the web extra: pip install -e '.[web]' "
                "(Starlette and uvicorn)")


def web_available() -> bool:
    """Whether Starlette and uvicorn are installed."""
    return all(importlib.util.find_spec(name) is not None for name in ("starlette", "uvicorn"))


def serve_command(files: Sequence[str], host: str = "127.0.0.1", port: int = 8000) -> int:
    """`ludeme serve`: serve the playground for `files` (default: the games in games/) until
    interrupted. Without the web extra, say how to install it and return 1."""
    if not web_available():
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    from interpreter.web.server import serve

    return serve(list(files), host, port)
