"""Sessions: each browser tab plays its own game, keyed by a random token.

A `Session` holds the game being played — its rules (the text and options it was compiled
from), the states from the start and the moves between them, which roles the computer plays —
and answers the page's requests about it with a *view*: everything the page draws (the board as
SVG, the legal moves, the move list, the status, the position text). The `SessionStore` keeps
at most a fixed number of sessions, dropping the least recently used one (and sessions left
idle too long) to make room.

Nothing here reads files or knows about HTTP; `server` does both.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dsl.errors import GameError
from interpreter.display import status
from interpreter.game import Game, State
from interpreter.record import RecordError, format_option, format_record, parse_record, replay
from interpreter.svg import render_svg
from interpreter.web.highlight import decorations
from stdlib.movekinds import kind_of
from stdlib.runtime import Move

# The most legal moves a view lists (the page needs them to know what a click means).
MAX_LISTED_MOVES = 20_000
# Compiled games are shared by the sessions that play them, and the interpreter is not written
# for concurrent use of one game (it keeps caches and scratch space in it): every session's work
# on its game, and compiling, hold this one lock. The interpreter holds Python's global lock
# while it works anyway, so this costs no throughput; long work runs in worker processes.
PLAY_LOCK = threading.RLock()


class PlayError(GameError):
    """A request the game refuses (an illegal move, a bad position text or record...); the
    message says why."""


@dataclass(frozen=True)
class GameFile:
    """A game file the server offers: an id for the page, the file's name, and its text."""

    id: str
    name: str
    text: str
    title: str = ""


class Session:
    """One tab's game. Every method takes the lock (PLAY_LOCK): requests of one tab may come
    concurrently (the computer thinking while the person clicks undo), and sessions share
    compiled games."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.lock = PLAY_LOCK
        self.touched = time.monotonic()
        self.game: Game | None = None
        self.file: GameFile | None = None  # the listed file the rules came from
        self.text = ""  # the rules being played (the listed file's text, or an edited one)
        self.options: dict[str, Any] = {}
        self.start_text: str | None = None  # play started from this position text
        self.history: list[State] = []
        self.moves: list[str] = []
        self.agents: dict[str, str] = {}  # role -> agent spelling
        self.version = 0  # changes whenever the game does: a stale answer is dropped
        self.thinking = False
        self.validating = False
        self.seed = secrets.randbits(32)

    # Starting ------------------------------------------------------------------------------
    @property
    def source(self) -> str:
        """The name the rules are reported under (the file's name)."""
        return self.file.name if self.file is not None else "game.game"

    @property
    def state(self) -> State:
        if not self.history:
            raise PlayError("no game is open")
        return self.history[-1]

    def start(self, game: Game, file: GameFile, text: str, options: dict[str, Any],
              start: State | None = None, start_text: str | None = None,
              moves: list[str] | None = None, history: list[State] | None = None) -> None:
        """Play `game` (compiled from `text` with `options`) from its initial position, or from
        `start` (read from `start_text`), or along `history` and `moves`. The computer keeps
        the roles it had where the new game has them."""
        with self.lock:
            self.game = game
            self.file = file
            self.text = text
            self.options = dict(game.options)
            self.start_text = start_text
            self.history = history or [start if start is not None else game.initial_state()]
            self.moves = list(moves or [])
            self.agents = {r: a for r, a in self.agents.items() if r in game.players}
            self.version += 1

    def require(self) -> Game:
        if self.game is None:
            raise PlayError("no game is open")
        return self.game

    # Playing -------------------------------------------------------------------------------
    def play(self, text: str) -> None:
        """Play a move in notation; several decisions of one turn may be given separated by
        spaces (all are played, or none). PlayError with the interpreter's reason."""
        with self.lock:
            game = self.require()
            words = text.split()
            if not words:
                raise PlayError("type a move, e.g. c3")
            if len(words) > 50:
                raise PlayError("at most 50 decisions at once")
            state = self.state
            if state.is_over:
                raise PlayError(f"{text.strip()}: the game is over")
            new: list[tuple[str, State]] = []
            for i, word in enumerate(words):
                if i and state.mover != self.state.mover:
                    raise PlayError(f"{word}: {' '.join(words[:i])} already ended "
                                    f"{self.state.mover}'s turn; nothing was played")
                try:
                    move = game.find(state, word)
                except GameError as exc:
                    raise PlayError(str(exc)) from None
                state = game.apply(state, move)
                new.append((str(move), state))
            for move_text, after in new:
                self.history.append(after)
                self.moves.append(move_text)
            self.version += 1

    def agent_to_move(self) -> str | None:
        """The agent spelling of the person to move, if the computer plays them (as in the
        REPL: after a pie swap the people hold each other's roles)."""
        with self.lock:
            if self.game is None or not self.history:
                return None
            state = self.state
            if state.is_over or not state.legal_moves():
                return None
            role = state.to_move
            if state.swapped and len(self.game.players) == 2:
                role = 1 - role
            return self.agents.get(self.game.players[role])

    def undo(self) -> None:
        """Take back the last decision, and the computer's replies before it."""
        with self.lock:
            if len(self.history) <= 1:
                raise PlayError("nothing to undo")
            self.history.pop()
            while len(self.history) > 1 and self.agent_to_move() is not None:
                self.history.pop()
            del self.moves[len(self.history) - 1:]
            self.version += 1

    def set_agent(self, role: str, spec: str | None) -> None:
        """The computer plays `role` with agent `spec` (None or "": a person plays it)."""
        with self.lock:
            game = self.require()
            if role not in game.players:
                raise PlayError(f"no role {role!r} (roles: {', '.join(game.players)})")
            if spec:
                self.agents[role] = spec
            else:
                self.agents.pop(role, None)
            self.version += 1

    def think_task(self) -> tuple[int, dict[str, Any]] | None:
        """What the worker needs to choose the computer's move now (with the version it is
        for), or None when the person to move is not the computer."""
        with self.lock:
            spec = self.agent_to_move()
            if spec is None or self.thinking:
                return None
            self.thinking = True
            return self.version, {
                "text": self.text, "source": self.source, "options": dict(self.options),
                "start": self.start_text, "moves": list(self.moves), "spec": spec,
                "seed": (self.seed * 1_000_003 + len(self.moves)) % (1 << 62)}

    def thought(self, version: int, answer: dict[str, Any] | None) -> str | None:
        """Play the computer's move (unless the game changed meanwhile): a line saying what
        it played, or None."""
        with self.lock:
            self.thinking = False
            if answer is None or version != self.version:
                return None
            mover = self.state.mover
            self.play(answer["move"])
            line = f"{mover} ({answer['agent']}) plays {answer['move']}"
            if answer.get("report"):
                line += f" after {answer['seconds']:.1f} s ({answer['report']})"
            return line

    # Positions and records -----------------------------------------------------------------
    def load_position(self, text: str) -> None:
        """Play on from a position text."""
        with self.lock:
            game = self.require()
            try:
                state = game.from_text(text)
            except GameError as exc:
                raise PlayError(str(exc)) from None
            assert self.file is not None
            self.start(game, self.file, self.text, self.options, start=state,
                       start_text=state.to_text())

    def record(self) -> tuple[str, str]:
        """The game so far as a record: (a file name for it, its text)."""
        with self.lock:
            game = self.require()
            if self.start_text is not None:
                raise PlayError("this game started from a position text; a record starts from "
                                "the initial position")
            stem = Path(self.source).stem or "game"
            name = f"{stem}.rec"
            # header() writes the game's path relative to the record's directory: both are
            # names in one (notional) directory, so the record names the file by its name.
            text = format_record(game, Path(self.source), Path(name), self.moves, self.state)
            return name, text

    def load_record(self, game: Game, file: GameFile, text: str, record: str) -> None:
        """Play on from a record of `game` (compiled from `text`, checked by the caller to be
        the record's game)."""
        rec = parse_record(record, "record")
        try:
            states, moves = replay(rec, game)
        except RecordError as exc:
            raise PlayError(str(exc)) from None
        self.start(game, file, text, game.options, history=states, moves=moves)

    # The view ------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Everything the page shows of the game."""
        with self.lock:
            game = self.require()
            state = self.state
            names = game.sites
            legal = [] if state.is_over else state.legal_moves()
            listed = [clickable(m, names) for m in legal[:MAX_LISTED_MOVES]]
            pressed = buttons(legal)
            roles = [before.mover or "" for before in self.history[:len(self.moves)]]
            return {
                "version": self.version, "file": self.source,
                "file_id": self.file.id if self.file else None,
                "name": game.name, "players": list(game.players),
                "options": {k: format_option(v) for k, v in game.options.items()},
                "svg": render_svg(state, caption=False), "status": status(game, state),
                "mover": state.mover, "over": state.is_over, "winner": state.winner,
                "reason": state.reason if state.is_over else None,
                "moves": [{"role": r, "move": m} for r, m in zip(roles, self.moves,
                                                                 strict=True)],
                "legal": listed, "legal_count": len(legal),
                "can_pass": "pass" in pressed,
                "can_swap": "swap" in pressed,
                "can_undo": len(self.history) > 1,
                "stuck": not state.is_over and not legal,
                "position": state.to_text(), "from_position": self.start_text is not None,
                "agents": dict(self.agents),
                "ai_to_move": self.agent_to_move() is not None, "thinking": self.thinking,
                **decorations(state),  # the winning sites, the sides, chess figures
            }


def new_token() -> str:
    """A random session token (unguessable: 192 bits)."""
    return secrets.token_urlsafe(24)


class SessionStore:
    """At most `limit` sessions; the least recently used one is dropped to make room, and a
    session idle for `idle` seconds is dropped when next looked for."""

    def __init__(self, limit: int = 200, idle: float = 4 * 3600.0) -> None:
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


def buttons(legal: list[Move]) -> set[str]:
    """The buttons the legal moves need (`pass`, `swap`): the clicks of kinds without sites."""
    out = set()
    for m in legal:
        kind = kind_of(m.kind)
        if kind is not None and kind.clicked is None and not m.sites:
            out.add(kind.click)
    return out


def clickable(move: Move, names: tuple[str, ...]) -> dict[str, Any]:
    """A legal move as the page clicks it: its notation, and the kind and sites of the clicks
    that make it, as the move's kind registers them (stdlib/movekinds.py): a removal (Morris)
    and a sowing are one click on their site, like a placement; a promotion is a move (the
    page offers a button per piece when several moves fit the same clicks)."""
    kind = kind_of(move.kind)
    click, sites = move.kind, move.sites
    if kind is not None:
        click = kind.click or move.kind
        if kind.clicked is not None:
            sites = sites[:kind.clicked]
    return {"n": str(move), "k": click, "s": [names[s] for s in sites]}
