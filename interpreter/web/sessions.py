"""Sessions: each browser tab plays its own game, keyed by a random token.

A `Session` is plain data: the rules being played (a text and options), the position play
started from (a position text, or None for the initial one), the moves since and the roles
that made them, which roles the computer plays. It holds no compiled game and no position:
the workers work those out from this data (see `gamework`), so the server's memory is bounded
by these budgets whatever games are played:

- at most `MAX_SESSIONS` sessions (the least recently used is dropped to make room, and a
  session idle for four hours when next looked for);
- per session: a game text of at most `tasks.MAX_TEXT` characters (a listed game's text is
  shared, not copied), a starting position text of at most as many, and at most
  `gamework.MAX_MOVES` decisions, each kept as its notation (a few characters; the roles that
  made them are shared strings).

That is about 0.6 MB a session at most (with moves of a few characters), 120 MB for all.
One request's answer (a view lists at most `views.MAX_LISTED_MOVES` legal moves) passes
through the server as JSON text and is not kept. Each session runs one task at a time in
the workers (its `lock`).

Nothing here reads files, knows about HTTP or about games; `server` does the first two,
`gamework` the last.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from interpreter.web.views import clickable as clickable  # where it was (tests use it)

MAX_SESSIONS = 200


@dataclass(frozen=True)
class GameFile:
    """A game file the server offers: an id for the page, the file's name, and its text."""

    id: str
    name: str
    text: str
    title: str = ""


class Session:
    """One tab's game, as plain data (see the module's docstring)."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.touched = time.monotonic()
        self.file: GameFile | None = None  # the listed file the rules came from
        self.text = ""  # the rules being played (the listed file's text, or an edited one)
        self.options: dict[str, Any] = {}
        self.start_text: str | None = None  # play started from this position text
        self.moves: list[str] = []
        self.roles: list[str] = []  # who made each move
        self.person: str | None = None  # the role of the person to move (None: nobody)
        self.agents: dict[str, str] = {}  # role -> agent spelling
        self.players: list[str] = []
        self.version = 0  # changes whenever the game does
        self.thinking = False
        self.validating = False
        self.seed = secrets.randbits(32)
        self._lock: asyncio.Lock | None = None

    @property
    def lock(self) -> asyncio.Lock:
        """Held while one of the session's tasks runs in a worker: a session uses at most one
        worker for its game at a time."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    @property
    def source(self) -> str:
        """The name the rules are reported under (the file's name)."""
        return self.file.name if self.file is not None else "game.game"

    @property
    def started(self) -> bool:
        return self.file is not None

    def line(self) -> dict[str, Any]:
        """The session's game as a worker task takes it (gamework.Line)."""
        return {"session": self.token, "text": self.text, "source": self.source,
                "options": dict(self.options), "start": self.start_text,
                "moves": list(self.moves)}

    def start(self, file: GameFile, text: str, options: dict[str, Any],
              start_text: str | None = None) -> None:
        """Play the rules `text` (the file's own text, or an edited one) with `options`, from
        the initial position or `start_text`."""
        self.file = file
        self.text = file.text if text == file.text else text
        self.options = dict(options)
        self.start_text = start_text
        self.moves, self.roles = [], []
        self.version += 1

    def update(self, answer: dict[str, Any]) -> None:
        """Take a worker's answer about the game: its moves, the roles that made the last of
        them (`roles`: those of the moves that are new), the options in force, who is to
        move."""
        moves: list[str] = answer["moves"]
        roles: list[str] | None = answer.get("roles")
        kept = len(moves) - len(roles or [])  # the moves made before, whose roles we know
        self.roles = self.roles[:kept] + [sys.intern(r) for r in roles or []]
        self.moves = moves
        self.options = dict(answer.get("options") or self.options)
        self.person = answer.get("person")
        self.version += 1

    def fields(self) -> dict[str, Any]:
        """What a view says that depends on the session, not on the game."""
        return {
            "version": self.version, "file": self.source,
            "file_id": self.file.id if self.file else None,
            "moves": [{"role": r, "move": m} for r, m in zip(self.roles, self.moves,
                                                             strict=True)],
            "can_undo": bool(self.moves), "from_position": self.start_text is not None,
            "agents": dict(self.agents), "ai_to_move": self.agent_to_move() is not None,
            "thinking": self.thinking,
        }

    def agent_to_move(self) -> str | None:
        """The agent spelling of the person to move, if the computer plays them."""
        return self.agents.get(self.person) if self.person is not None else None

    def set_agent(self, role: str, spec: str | None) -> None:
        """The computer plays `role` with agent `spec` (None or "": a person plays it)."""
        if spec:
            self.agents[role] = spec
        else:
            self.agents.pop(role, None)
        self.version += 1


def new_token() -> str:
    """A random session token (unguessable: 192 bits)."""
    return secrets.token_urlsafe(24)


class SessionStore:
    """At most `limit` sessions; the least recently used one is dropped to make room, and a
    session idle for `idle` seconds is dropped when next looked for."""

    def __init__(self, limit: int = MAX_SESSIONS, idle: float = 4 * 3600.0) -> None:
        self.limit = max(1, limit)
        self.idle = idle
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self) -> Session:
        session = Session(new_token())
        with self._lock:
            self._expire()
            while len(self._sessions) >= self.limit:
                self._sessions.popitem(last=False)
            self._sessions[session.token] = session
        return session

    def get(self, token: str) -> Session | None:
        with self._lock:
            self._expire()
            session = self._sessions.get(token)
            if session is not None:
                self._sessions.move_to_end(token)
                session.touched = time.monotonic()
            return session

    def _expire(self) -> None:
        now = time.monotonic()
        while self._sessions:
            token, oldest = next(iter(self._sessions.items()))
            if now - oldest.touched < self.idle:
                break
            del self._sessions[token]
