"""The playground's web server: one page, its static files, and a JSON API (Starlette).

Safety, in a few rules:

- A game text is data: it is parsed and compiled by the interpreter, never run as code; the
  page's script, style and page are the only files served (no path from a request ever reaches
  the file system), and the game files listed at start-up are read then, once.
- Every request body is limited in size; a game text in length. Compiling a text, playing
  random games and the computer's searches run in worker processes under deadlines (see
  `worker`), and random games are limited in number and time.
- Each browser tab has its own session, named by a random token it sends in the `X-Session`
  header (a header, so another site's page cannot send it); sessions are bounded in number.
- Bound to the loopback interface, the server answers only requests addressed to it by that
  name (`localhost`, `127.0.0.1`), which defeats DNS rebinding.

API: every endpoint but `GET /api/games` and `POST /api/session` needs the session header.
Answers are JSON; an error is `{"error": message}` with a 4xx/5xx status (and, for rules that
do not compile, their `diagnostics`).
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dsl.errors import GameError
from interpreter.game import Game
from interpreter.record import RecordError, parse_record, text_hash
from interpreter.web import tasks
from interpreter.web.reference import reference_page
from interpreter.web.sessions import PLAY_LOCK, GameFile, PlayError, Session, SessionStore
from interpreter.web.worker import Busy, TimedOut, WorkerError, WorkerPool

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"index.html": "text/html; charset=utf-8",
                "app.js": "text/javascript; charset=utf-8",
                "style.css": "text/css; charset=utf-8"}
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; "
     b"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; object-src 'none'; "
     b"base-uri 'none'; frame-ancestors 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


@dataclass(frozen=True)
class Limits:
    """What one request may ask for."""

    body: int = 256 * 1024  # bytes in a request body
    text: int = tasks.MAX_TEXT  # characters in a game text
    check_seconds: float = 10.0  # to check (and compile) a game text
    think_seconds: float = tasks.MAX_THINK_SECONDS + 10.0  # the computer's move, all told
    playouts: int = tasks.MAX_PLAYOUTS  # random games in one validation
    playout_seconds: float = tasks.MAX_PLAYOUT_SECONDS  # ... after which it stops early
    sessions: int = 200
    workers: int = 2


class ApiError(Exception):
    """An answer with an error status: `{"error": message, **extra}`."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


# Game files -------------------------------------------------------------------------------
def default_files() -> list[Path]:
    """The games in ./games, else in the games/ directory beside the installed package."""
    for directory in (Path("games"), Path(__file__).resolve().parents[2] / "games"):
        if directory.is_dir():
            return sorted(directory.glob("*.game"))
    return []


def load_files(paths: Sequence[str | Path]) -> list[GameFile]:
    """Read the game files to offer (GameError naming a file that cannot be read)."""
    out: list[GameFile] = []
    ids: set[str] = set()
    for path in paths:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise GameError(f"{path}: cannot read it: {why}") from None
        base = re.sub(r"[^A-Za-z0-9_-]+", "-", p.stem).strip("-") or "game"
        ident, k = base, 2
        while ident in ids:
            ident, k = f"{base}-{k}", k + 1
        ids.add(ident)
        match = re.search(r'\(game\s+"([^"]*)"', text)
        out.append(GameFile(ident, p.name, text, match.group(1) if match else p.stem))
    return out


# Requests ---------------------------------------------------------------------------------
async def read_json(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object body, at most `limit` bytes (413 beyond)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"the request is too large (at most {limit // 1024} KiB)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request is too large (at most {limit // 1024} KiB)")
        chunks.append(chunk)
    if not chunks or not b"".join(chunks).strip():
        return {}
    try:
        data = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def text_field(data: dict[str, Any], name: str, limit: int, required: bool = True) -> str:
    value = data.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ApiError(400, f"'{name}' must be text")
    if len(value) > limit:
        raise ApiError(413, f"'{name}' is too long: {len(value)} characters, at most {limit}")
    return value


def options_field(data: dict[str, Any]) -> dict[str, Any]:
    """The options a request gives: names and plain values (numbers, true/false, text)."""
    options = data.get("options") or {}
    if not isinstance(options, dict) or len(options) > 64:
        raise ApiError(400, "'options' must be an object of at most 64 options")
    for key, value in options.items():
        if len(key) > 64:
            raise ApiError(400, "an option's name is at most 64 characters")
        if isinstance(value, str):
            if len(value) > 200:
                raise ApiError(400, f"option {key}: at most 200 characters")
        elif isinstance(value, bool | float) or (isinstance(value, int)
                                                  and abs(value) <= 10 ** 9):
            continue
        else:
            raise ApiError(400, f"option {key}: a value is a number, true/false or text")
    return dict(options)


def compile_locked(text: str, source: str, options: tasks.Options) -> Game:
    """tasks.compiled, in this process, holding the lock on games in play (see PLAY_LOCK)."""
    with PLAY_LOCK:
        return tasks.compiled(text, source, options)


class Playground:
    """The application's state: the game files, the sessions and the worker pool."""

    def __init__(self, files: list[GameFile], limits: Limits, pool: WorkerPool | None) -> None:
        self.files = {f.id: f for f in files}
        self.limits = limits
        self.pool = pool or WorkerPool(limits.workers)
        self.sessions = SessionStore(limits.sessions)
        self.static = {name: (STATIC / name).read_bytes() for name in STATIC_FILES}

    # Helpers ---------------------------------------------------------------------------
    def session(self, request: Request) -> Session:
        token = request.headers.get("x-session", "")
        session = self.sessions.get(token) if 0 < len(token) <= 100 else None
        if session is None:
            raise ApiError(401, "no such session (it may have expired): reload the page",
                           expired=True)
        return session

    async def work(self, task: str, kwargs: dict[str, Any], timeout: float) -> Any:
        """Run a task in a worker (see WorkerPool.run), off the event loop."""
        return await run_in_threadpool(self.pool.run, task, kwargs, timeout)

    async def check(self, text: str, source: str, options: dict[str, Any]) -> dict[str, Any]:
        """tasks.check in a worker; a text that takes too long is refused as a diagnostic."""
        try:
            result: dict[str, Any] = await self.work(
                "check", {"text": text, "source": source, "options": options},
                self.limits.check_seconds)
        except Busy as exc:
            raise ApiError(503, str(exc)) from None
        except WorkerError as exc:
            why = ("checking this game text took too long, and was stopped "
                   f"(more than {self.limits.check_seconds:g} s)"
                   if isinstance(exc, TimedOut) else f"checking failed: {exc}")
            result = {"ok": False, "options": None, "values": options, "diagnostics": [
                {"line": 1, "column": 1, "end_line": 1, "end_column": 2, "severity": "error",
                 "message": why, "note": None, "here": True}]}
        return result

    async def compile(self, text: str, source: str, options: dict[str, Any]
                      ) -> tuple[Game, dict[str, Any]]:
        """The game a text compiles to with options (checked first, in a worker, under a
        deadline), and the check's answer; 422 with the diagnostics if it has errors."""
        checked = await self.check(text, source, options)
        if not checked["ok"]:
            raise ApiError(422, "the rules have errors", diagnostics=checked["diagnostics"],
                           options=checked["options"])
        key = tasks.option_key(checked["values"])
        try:
            game = await run_in_threadpool(compile_locked, text, source, key)
        except GameError as exc:  # checked already: should not happen
            raise ApiError(422, str(exc)) from None
        return game, checked

    @staticmethod
    async def answer(session: Session, **extra: Any) -> JSONResponse:
        """The session's view (made off the event loop: it waits for PLAY_LOCK), and more."""
        return JSONResponse({"view": await run_in_threadpool(session.view), **extra})

    @staticmethod
    def rules(text: str, checked: dict[str, Any]) -> dict[str, Any]:
        return {"text": text, "options": checked["options"], "values": checked["values"],
                "diagnostics": checked["diagnostics"]}

    # Pages -----------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return Response(self.static["index.html"], media_type=STATIC_FILES["index.html"])

    async def script(self, request: Request) -> Response:
        return Response(self.static["app.js"], media_type=STATIC_FILES["app.js"])

    async def style(self, request: Request) -> Response:
        return Response(self.static["style.css"], media_type=STATIC_FILES["style.css"])

    # The API ---------------------------------------------------------------------------
    async def games(self, request: Request) -> JSONResponse:
        return JSONResponse({"games": [{"id": f.id, "file": f.name, "title": f.title}
                                       for f in self.files.values()]})

    async def new_session(self, request: Request) -> JSONResponse:
        await read_json(request, self.limits.body)
        return JSONResponse({"token": self.sessions.create().token})

    async def open(self, request: Request) -> JSONResponse:
        """Play one of the listed games: {"id", "options"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        ident = data.get("id")
        file = self.files.get(ident) if isinstance(ident, str) else None
        if file is None:
            raise ApiError(404, f"no game {ident!r} here")
        game, checked = await self.compile(file.text, file.name, options_field(data))
        await run_in_threadpool(session.start, game, file, file.text, checked["values"])
        return await self.answer(session, rules=self.rules(file.text, checked))

    async def check_text(self, request: Request) -> JSONResponse:
        """Check a game text: {"text", "options"} -> diagnostics and declared options."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        return JSONResponse(await self.check(text, session.source, options_field(data)))

    async def restart(self, request: Request) -> JSONResponse:
        """Play the rules in the editor: {"text", "options"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        if session.file is None:
            raise ApiError(409, "open a game first")
        game, checked = await self.compile(text, session.source, options_field(data))
        await run_in_threadpool(session.start, game, session.file, text, checked["values"])
        return await self.answer(session, rules=self.rules(text, checked))

    async def view(self, request: Request) -> JSONResponse:
        await read_json(request, self.limits.body)
        session = self.session(request)
        return await self.answer(session)

    async def play(self, request: Request) -> JSONResponse:
        """Play a move: {"move": notation}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        await run_in_threadpool(session.play, text_field(data, "move", 2000))
        return await self.answer(session)

    async def undo(self, request: Request) -> JSONResponse:
        await read_json(request, self.limits.body)
        session = self.session(request)
        await run_in_threadpool(session.undo)
        return await self.answer(session)

    async def agent(self, request: Request) -> JSONResponse:
        """Who plays a role: {"role", "agent"} (an agent's spelling; "" for a person)."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        role = text_field(data, "role", 200)
        spec = text_field(data, "agent", 40, required=False).strip()
        if spec:
            try:
                tasks.bounded_agent(spec, 0)
            except ValueError as exc:
                raise ApiError(422, str(exc)) from None
        await run_in_threadpool(session.set_agent, role, spec)
        return await self.answer(session)

    async def think(self, request: Request) -> JSONResponse:
        """The computer plays its move, if it is to move."""
        await read_json(request, self.limits.body)
        session = self.session(request)
        task = await run_in_threadpool(session.think_task)
        said = None
        if task is not None:
            version, kwargs = task
            try:
                answer = await self.work("think", kwargs, self.limits.think_seconds)
            except WorkerError as exc:
                await run_in_threadpool(session.thought, version, None)
                raise ApiError(503 if isinstance(exc, Busy) else 422,
                               f"the computer could not move: {exc}") from None
            except BaseException:
                session.thinking = False
                raise
            said = await run_in_threadpool(session.thought, version, answer)
        return await self.answer(session, said=said)

    async def position(self, request: Request) -> JSONResponse:
        """Play on from a position text: {"text"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        await run_in_threadpool(session.load_position, text_field(data, "text", 100_000))
        return await self.answer(session)

    async def save_record(self, request: Request) -> JSONResponse:
        """The game so far as a record file: {"name", "text"}."""
        await read_json(request, self.limits.body)
        session = self.session(request)
        name, text = await run_in_threadpool(session.record)
        return JSONResponse({"name": name, "text": text})

    async def load_record(self, request: Request) -> JSONResponse:
        """Play on from a record: {"text"}. Its game is the one being played, or a listed one,
        recognised by the hash of its text."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        record = text_field(data, "text", self.limits.body)
        try:
            rec = parse_record(record, "record")
        except RecordError as exc:
            raise ApiError(422, str(exc)) from None
        candidates = [(f, f.text) for f in self.files.values()]
        if session.file is not None:
            candidates.insert(0, (session.file, session.text))
        found = [(f, t) for f, t in candidates if text_hash(t) == rec.sha256]
        if not found:
            raise ApiError(422, f"record:{rec.sha256_line}: the record is for {rec.game}, "
                           "whose text is not that of the game being played nor of any game "
                           "listed here (its sha256 differs)")
        file, text = found[0]
        game, checked = await self.compile(text, file.name, dict(rec.options))
        await run_in_threadpool(session.load_record, game, file, text, record)
        return await self.answer(session, rules=self.rules(text, checked))

    async def validate(self, request: Request) -> JSONResponse:
        """Random games of a game text: {"text", "options", "n", "seed"} -> the report."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        n, seed = data.get("n", 100), data.get("seed", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ApiError(400, "'n' must be a whole number of games, 1 or more")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ApiError(400, "'seed' must be a whole number")
        checked = await self.check(text, session.source, options_field(data))
        if not checked["ok"]:
            raise ApiError(422, "the rules have errors", diagnostics=checked["diagnostics"],
                           options=checked["options"])
        if session.validating:
            raise ApiError(409, "random games are already being played for this page")
        capped = min(n, self.limits.playouts)
        session.validating = True
        try:
            report = await self.work(
                "playouts", {"text": text, "source": session.source,
                             "options": checked["values"], "n": capped, "seed": seed,
                             "seconds": self.limits.playout_seconds},
                self.limits.playout_seconds + 15.0)
        except Busy as exc:
            raise ApiError(503, str(exc)) from None
        except WorkerError as exc:
            raise ApiError(422, f"the random games failed: {exc}") from None
        finally:
            session.validating = False
        report["capped"] = capped < n
        return JSONResponse({"report": report})


class SecurityHeaders:
    """Adds the security headers (a strict content security policy: only this server's script
    runs) to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(files: list[GameFile], limits: Limits | None = None,
               pool: WorkerPool | None = None,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The playground application for `files`. `allowed_hosts`: the names requests must be
    addressed to (None: any)."""
    limits = limits or Limits()
    pg = Playground(files, limits, pool)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    async def play_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pg.pool.warm()
        try:
            yield
        finally:
            await run_in_threadpool(pg.pool.close)

    post: list[tuple[str, Callable[[Request], Awaitable[Response]]]] = [
        ("/api/session", pg.new_session), ("/api/open", pg.open), ("/api/check", pg.check_text),
        ("/api/restart", pg.restart), ("/api/view", pg.view), ("/api/play", pg.play),
        ("/api/undo", pg.undo), ("/api/agent", pg.agent), ("/api/think", pg.think),
        ("/api/position", pg.position), ("/api/record/save", pg.save_record),
        ("/api/record/load", pg.load_record), ("/api/validate", pg.validate)]
    routes = [Route("/", pg.page), Route("/static/app.js", pg.script),
              Route("/static/style.css", pg.style), Route("/api/games", pg.games),
              Route("/docs", reference_page),
              *(Route(path, fn, methods=["POST"]) for path, fn in post)]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={ApiError: api_error, PlayError: play_error})
    app.state.playground = pg
    return app


def loopback(host: str) -> bool:
    """Whether `host` names this machine only (127.0.0.1, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(paths: list[str], host: str = "127.0.0.1", port: int = 8000) -> int:
    """Serve the playground until interrupted; print its address first."""
    import uvicorn

    try:
        files = load_files(paths or default_files())
    except GameError as exc:
        print(f"ludeme serve: {exc}", file=sys.stderr)
        return 1
    if not files:
        print("ludeme serve: no game files (give some, or run it where games/ is)",
              file=sys.stderr)
        return 1
    allowed = ["localhost", "127.0.0.1"] if loopback(host) and host != "::1" else None
    app = create_app(files, allowed_hosts=allowed)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # from now on connections wait for the server, none is refused
    except (OSError, OverflowError) as exc:  # in use, no such address, port out of range
        sock.close()
        why = getattr(exc, "strerror", None) or exc
        print(f"ludeme serve: cannot listen on {host}:{port}: {why}", file=sys.stderr)
        return 1
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    games = f"{len(files)} game{'s' if len(files) != 1 else ''}"
    print(f"ludeme playground at http://{shown}:{bound}/ ({games}; Ctrl-C stops it)",
          flush=True)
    if not loopback(host):
        print("warning: listening beyond this machine; anyone who can reach it can use it",
              file=sys.stderr)
    config = uvicorn.Config(app, log_level="warning", ws="none", lifespan="on",
                            timeout_graceful_shutdown=5)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0
