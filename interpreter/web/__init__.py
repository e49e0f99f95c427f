"""The playground: a local web page to write a game, see its errors, and play it on the board.

`ludeme serve [FILE...]` starts it (see `serve_command`). The pieces:

- `server` — the Starlette application: the page, its static files and a small JSON API;
- `sessions` — one game in play per browser tab, keyed by a random token, bounded in number;
- `worker` — a pool of worker processes that check game texts, play random games and run the
  computer's searches, each under a deadline (a runaway task is killed, not waited for);
- `tasks` — what the workers run;
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
