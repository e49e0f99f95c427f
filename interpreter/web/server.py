"""The playground's web server: one page, its static files, and a JSON API (Starlette).

Safety, in a few rules:

- A game text is data: it is parsed and compiled by the interpreter, never run as code; the
  page's script, style and page are the only files served (no path from a request ever reaches
  the file system), and the game files listed at start-up are read then, once.
- This process never compiles a game nor works on a position: everything that depends on a
  game text or a position (checking, starting, playing, drawing, undoing, replaying a record,
  random games, the computer's move) runs in worker processes (see `worker`, `gamework`), each
  task under a deadline (`Limits`) and each worker under a memory cap; a task past either is
  stopped and the user told so. The event loop only waits; each session runs one such task at
  a time, so one tab cannot stall another.
- Memory is bounded: every request body is limited in size, a game text in length; sessions
  are plain data bounded in number and size (see `sessions`), answers are passed on, not kept.
- Each browser tab has its own session, named by a random token it sends in the `X-Session`
  header; sessions are bounded in number.
- Same origin only: every POST must carry `X-Ludeme: 1`, which no other site's page can make
  a browser send, and must not come from another origin (see `origin`).
- Bound to the loopback interface, the server answers only requests addressed to it by that
  name (`localhost`, `127.0.0.1`), which defeats DNS rebinding.

API: every endpoint but `GET /api/games`, `GET /api/grammar` and `POST /api/session` needs
the session header.
Answers are JSON; an error is `{"error": message}` with a 4xx/5xx status (and, for rules that
do not compile, their `diagnostics`); a body that is not JSON (of any depth) is a 400.
"""

from __future__ import annotations

import asyncio
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
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dsl.errors import GameError
from interpreter.web import tasks
from interpreter.web.origin import SameOrigin
from interpreter.web.reference import grammar_endpoint, reference_page
from interpreter.web.sessions import MAX_SESSIONS, GameFile, Session, SessionStore
from interpreter.web.worker import (
    WORKER_MEMORY,
    Busy,
    OutOfMemory,
    TimedOut,
    WorkerError,
    WorkerPool,
)

STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"index.html": "text/html; charset=utf-8",
                "app.js": "text/javascript; charset=utf-8",
                "editor.js": "text/javascript; charset=utf-8",
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
    text: int = tasks.MAX_TEXT  # characters in a game text (or a position text)
    check_seconds: float = 10.0  # to check (and compile) a game text, and start it
    play_seconds: float = 10.0  # to play a move, draw the game, undo, replay a record...
    think_seconds: float = tasks.MAX_THINK_SECONDS + 10.0  # the computer's move, all told
    playouts: int = tasks.MAX_PLAYOUTS  # random games in one validation
    playout_seconds: float = tasks.MAX_PLAYOUT_SECONDS  # one validation, all told
    sessions: int = MAX_SESSIONS
    workers: int = 4  # worker processes
    worker_memory: int = WORKER_MEMORY  # address space of each (bytes)


# What a validation keeps of its time (a quarter at most) for the decision of a game under way
# when time runs out (its games stop between two decisions) and the report.
PLAYOUT_MARGIN = 1.0


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
    except RecursionError:
        raise ApiError(400, "the request body is not JSON this server reads: it nests too "
                       "deeply") from None
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


def failure(what: str, exc: WorkerError, limits: Limits) -> ApiError:
    """The answer to a task that gave none: what took too long or too much memory, or why it
    failed; 503 when the server was busy."""
    if isinstance(exc, Busy):
        return ApiError(503, str(exc))
    if isinstance(exc, TimedOut):
        return ApiError(422, f"{what} took too long ({exc}), and was stopped")
    if isinstance(exc, OutOfMemory):
        mib = limits.worker_memory >> 20
        return ApiError(422, f"{what} took too much memory (more than {mib:,} MiB), and was "
                        "stopped")
    return ApiError(422, f"{what} failed: {exc}")


def as_diagnostics(error: ApiError) -> ApiError:
    """A failure to start a game, as the editor shows it: a diagnostic at the top."""
    return ApiError(error.status, error.message, options=None, diagnostics=[
        {"line": 1, "column": 1, "end_line": 1, "end_column": 2, "severity": "error",
         "message": error.message, "note": None, "here": True}])


class Playground:
    """The application's state: the game files, the sessions and the worker pool. Every
    request that needs a game or a position sends it to a worker (`task`); the server itself
    only keeps each session's plain data and passes answers on."""

    def __init__(self, files: list[GameFile], limits: Limits, pool: WorkerPool | None) -> None:
        self.files = {f.id: f for f in files}
        self.limits = limits
        self.pool = pool or WorkerPool(limits.workers, limits.worker_memory)
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

    async def task(self, what: str, name: str, kwargs: dict[str, Any], timeout: float,
                   key: str | None = None) -> dict[str, Any]:
        """Run a task in a worker; ApiError saying what failed (`what`: the work, as the
        user sees it) when it gave no answer, or with the game's reason when it refused."""
        try:
            answer: dict[str, Any] = await self.pool.run(name, kwargs, timeout, key=key)
        except WorkerError as exc:
            raise failure(what, exc, self.limits) from None
        if "refused" in answer:
            raise ApiError(422, answer["refused"])
        return answer

    async def game_task(self, session: Session, what: str, name: str,
                        **kwargs: Any) -> dict[str, Any]:
        """A task on the session's game (its line goes with it); the session's moves follow
        the answer. One at a time per session."""
        async with session.lock:
            if not session.started:
                raise ApiError(422, "no game is open")
            answer = await self.task(what, name, {"line": session.line(), **kwargs},
                                     self.limits.play_seconds, session.token)
            if "moves" in answer:
                session.update(answer)
            return answer

    async def check(self, text: str, source: str, options: dict[str, Any],
                    key: str) -> dict[str, Any]:
        """tasks.check in a worker; a text that takes too long is refused as a diagnostic."""
        try:
            result: dict[str, Any] = await self.task(
                "checking this game text", "check",
                {"text": text, "source": source, "options": options},
                self.limits.check_seconds, key)
        except ApiError as exc:
            if exc.status == 503:
                raise
            result = {"ok": False, "values": options, **as_diagnostics(exc).extra}
        return result

    async def begin(self, session: Session, file: GameFile, text: str,
                    options: dict[str, Any]) -> Response:
        """Play `text` (checked with `options` first) from its initial position: the view and
        the rules; 422 with the diagnostics if they have errors."""
        line: dict[str, Any] = {"session": session.token, "text": text, "source": file.name,
                "options": options, "start": None, "moves": []}
        async with session.lock:
            try:
                answer = await self.task("starting this game", "start", {"line": line},
                                         self.limits.check_seconds, session.token)
            except ApiError as exc:
                raise as_diagnostics(exc) if exc.status == 422 else exc from None
            checked = answer["checked"]
            if not checked["ok"]:
                raise ApiError(422, "the rules have errors", diagnostics=checked["diagnostics"],
                               options=checked["options"])
            session.start(file, text, checked["values"])
            session.update(answer)
            session.players = json.loads(answer["view"])["players"]
        return self.respond(session, answer, rules=self.rules(text, checked))

    @staticmethod
    def respond(session: Session, answer: dict[str, Any], **extra: Any) -> Response:
        """`{"view": ..., **extra}`: the session's fields and the game's view, which a worker
        made as JSON text and is passed on as it is (it may be large: it is not read here)."""
        ours = json.dumps(session.fields(), separators=(",", ":"))
        game: str = answer["view"]
        body = '{"view":' + ours[:-1] + "," + game[1:]
        body += "," + json.dumps(extra)[1:] if extra else "}"
        return Response(body, media_type="application/json")

    @staticmethod
    def rules(text: str, checked: dict[str, Any]) -> dict[str, Any]:
        return {"text": text, "options": checked["options"], "values": checked["values"],
                "diagnostics": checked["diagnostics"]}

    # Pages -----------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        return Response(self.static["index.html"], media_type=STATIC_FILES["index.html"])

    async def script(self, request: Request) -> Response:
        return Response(self.static["app.js"], media_type=STATIC_FILES["app.js"])

    async def editor_script(self, request: Request) -> Response:
        return Response(self.static["editor.js"], media_type=STATIC_FILES["editor.js"])

    async def style(self, request: Request) -> Response:
        return Response(self.static["style.css"], media_type=STATIC_FILES["style.css"])

    # The API ---------------------------------------------------------------------------
    async def games(self, request: Request) -> JSONResponse:
        return JSONResponse({"games": [{"id": f.id, "file": f.name, "title": f.title}
                                       for f in self.files.values()]})

    async def new_session(self, request: Request) -> JSONResponse:
        await read_json(request, self.limits.body)
        return JSONResponse({"token": self.sessions.create().token})

    async def open(self, request: Request) -> Response:
        """Play one of the listed games: {"id", "options"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        ident = data.get("id")
        file = self.files.get(ident) if isinstance(ident, str) else None
        if file is None:
            raise ApiError(404, f"no game {ident!r} here")
        return await self.begin(session, file, file.text, options_field(data))

    async def check_text(self, request: Request) -> JSONResponse:
        """Check a game text: {"text", "options"} -> diagnostics and declared options."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        return JSONResponse(await self.check(text, session.source, options_field(data),
                                             session.token))

    async def restart(self, request: Request) -> Response:
        """Play the rules in the editor: {"text", "options"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        if session.file is None:
            raise ApiError(409, "open a game first")
        return await self.begin(session, session.file, text, options_field(data))

    async def view(self, request: Request) -> Response:
        await read_json(request, self.limits.body)
        session = self.session(request)
        return self.respond(session, await self.game_task(session, "drawing the game", "view"))

    async def play(self, request: Request) -> Response:
        """Play a move: {"move": notation}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        move = text_field(data, "move", 2000)
        return self.respond(session, await self.game_task(session, "playing the move", "play",
                                                          move=move))

    async def undo(self, request: Request) -> Response:
        await read_json(request, self.limits.body)
        session = self.session(request)
        agents = dict(session.agents)
        return self.respond(session, await self.game_task(session, "taking back the move",
                                                          "undo", agents=agents))

    async def agent(self, request: Request) -> Response:
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
        if not session.started:
            raise ApiError(422, "no game is open")
        if role not in session.players:
            raise ApiError(422, f"no role {role!r} (roles: {', '.join(session.players)})")
        session.set_agent(role, spec)
        return self.respond(session, await self.game_task(session, "drawing the game", "view"))

    async def think(self, request: Request) -> Response:
        """The computer plays its move, if it is to move."""
        await read_json(request, self.limits.body)
        session = self.session(request)
        spec = session.agent_to_move()
        if spec is None or session.thinking:
            answer = await self.game_task(session, "drawing the game", "view")
            return self.respond(session, answer, said=None)
        session.thinking = True
        try:
            seed = (session.seed * 1_000_003 + len(session.moves)) % (1 << 62)
            async with session.lock:
                answer = await self.task(
                    "the computer's move", "think",
                    {"line": session.line(), "spec": spec, "seed": seed},
                    self.limits.think_seconds, session.token)
                session.update(answer)
        except ApiError as exc:
            raise ApiError(exc.status, f"the computer could not move: {exc.message}") from None
        finally:
            session.thinking = False
        return self.respond(session, answer, said=answer["said"])

    async def position(self, request: Request) -> Response:
        """Play on from a position text: {"text"}."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        answer = await self.game_task(session, "reading the position", "position", text=text)
        session.start_text = answer["start"]
        return self.respond(session, answer)

    async def save_record(self, request: Request) -> JSONResponse:
        """The game so far as a record file: {"name", "text"}."""
        await read_json(request, self.limits.body)
        session = self.session(request)
        answer = await self.game_task(session, "writing the record", "save")
        return JSONResponse({"name": answer["name"], "text": answer["text"]})

    async def load_record(self, request: Request) -> Response:
        """Play on from a record: {"text"}. Its game is the one being played, or a listed one,
        recognised by the hash of its text."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        record = text_field(data, "text", self.limits.body)
        files = list(self.files.values())
        if session.file is not None:
            files.insert(0, GameFile(session.file.id, session.file.name, session.text))
        candidates = [{"source": f.name, "text": f.text} for f in files]
        async with session.lock:
            answer = await self.task("replaying the record", "load",
                                     {"session": session.token, "record": record,
                                      "candidates": candidates},
                                     self.limits.play_seconds, session.token)
            file = files[answer["candidate"]]
            checked = answer["checked"]
            if not checked["ok"]:
                raise ApiError(422, "the rules have errors", diagnostics=checked["diagnostics"],
                               options=checked["options"])
            listed = self.files.get(file.id)
            session.start(listed or file, file.text, checked["values"])
            session.update(answer)
            session.players = json.loads(answer["view"])["players"]
        return self.respond(session, answer, rules=self.rules(file.text, checked))

    async def validate(self, request: Request) -> JSONResponse:
        """Random games of a game text: {"text", "options", "n", "seed"} -> the report, all
        within `Limits.playout_seconds` (checking the text included)."""
        data = await read_json(request, self.limits.body)
        session = self.session(request)
        text = text_field(data, "text", self.limits.text)
        n, seed = data.get("n", 100), data.get("seed", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ApiError(400, "'n' must be a whole number of games, 1 or more")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ApiError(400, "'seed' must be a whole number")
        options = options_field(data)
        if session.validating:
            raise ApiError(409, "random games are already being played for this page")
        capped = min(n, self.limits.playouts)
        budget = self.limits.playout_seconds
        session.validating = True
        try:
            answer = await self.task(
                "the random games", "validate",
                {"text": text, "source": session.source, "options": options, "n": capped,
                 "seed": seed, "seconds": budget - min(PLAYOUT_MARGIN, budget / 4)}, budget,
                session.token)
        finally:
            session.validating = False
        checked = answer["checked"]
        if not checked["ok"]:
            raise ApiError(422, "the rules have errors", diagnostics=checked["diagnostics"],
                           options=checked["options"])
        report: dict[str, Any] = answer["report"]
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

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pg.pool.warm(2)
        try:
            yield
        finally:
            await asyncio.to_thread(pg.pool.close)

    post: list[tuple[str, Callable[[Request], Awaitable[Response]]]] = [
        ("/api/session", pg.new_session), ("/api/open", pg.open), ("/api/check", pg.check_text),
        ("/api/restart", pg.restart), ("/api/view", pg.view), ("/api/play", pg.play),
        ("/api/undo", pg.undo), ("/api/agent", pg.agent), ("/api/think", pg.think),
        ("/api/position", pg.position), ("/api/record/save", pg.save_record),
        ("/api/record/load", pg.load_record), ("/api/validate", pg.validate)]
    routes = [Route("/", pg.page), Route("/static/app.js", pg.script),
              Route("/static/editor.js", pg.editor_script),
              Route("/static/style.css", pg.style), Route("/api/games", pg.games),
              Route("/docs", reference_page), Route("/api/grammar", grammar_endpoint),
              *(Route(path, fn, methods=["POST"]) for path, fn in post)]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    middleware.append(Middleware(SameOrigin))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={ApiError: api_error})
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
    # IPPROTO_TCP named, so that asyncio turns Nagle's algorithm off for the connections it
    # accepts (it does only for sockets that say TCP): else an answer written in two parts
    # waits for the browser's delayed acknowledgement, 40 ms a request on a kept connection.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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
