"""What a worker process does for a session's game: start it, play, undo, load a position or a
record, save a record, let the computer move, and draw the view.

The server keeps no game and no position, only plain data: the rules (a text and options), the
position play started from (a text, or None for the initial one) and the moves since. Each
task gets that data (a `Line`) and works out the position from it. So that this costs little,
a worker keeps, for the last few sessions it served, the last positions it reached
(`KEEP_POSITIONS` of each, for undo); anything older is replayed from the start.

Every task answers with plain data: the session's new moves, the roles that made them, who
is to move, and the view as JSON text (the server adds its own fields to it without reading
it). A request the game refuses is `{"refused": message}`.

Bounds: a game has at most `MAX_MOVES` decisions (played, or read from a record); a worker
keeps the positions of at most `KEEP_SESSIONS` sessions, `KEEP_POSITIONS` positions each,
and compiles at most `tasks.compiled`'s cache of games.
"""

from __future__ import annotations

import json
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dsl.errors import GameError
from interpreter.game import Game, State
from interpreter.record import RecordError, format_record, parse_record, text_hash
from interpreter.web import tasks
from interpreter.web.views import game_view, person_to_move

# The most decisions a game in the playground may have (played, or replayed from a record).
MAX_MOVES = 5_000
# Positions a worker keeps for each session it served lately, and how many sessions.
KEEP_POSITIONS = 32
KEEP_SESSIONS = 16


@dataclass(frozen=True)
class Line:
    """A session's game as the server keeps it: rules, starting position and moves."""

    session: str  # the session's token: whose positions these are
    text: str
    source: str
    options: dict[str, Any]
    start: str | None
    moves: tuple[str, ...]

    @classmethod
    def of(cls, data: dict[str, Any]) -> Line:
        return cls(data["session"], data["text"], data["source"], dict(data["options"]),
                   data["start"], tuple(data["moves"]))

    @property
    def rules(self) -> tuple[Any, ...]:
        return (self.text, self.source, tasks.option_key(self.options), self.start)


class Refused(GameError):
    """A request the game refuses; the message says why."""


@dataclass
class _Kept:
    rules: tuple[Any, ...]
    moves: tuple[str, ...]
    positions: list[State]  # the last ones: positions[-1] is after all the moves


_kept: OrderedDict[str, _Kept] = OrderedDict()


def game_of(line: Line) -> Game:
    return tasks.compiled(line.text, line.source, tasks.option_key(line.options))


def position(game: Game, line: Line) -> State:
    """The position after the line's moves, from a kept one where possible."""
    kept = _kept.get(line.session)
    positions: list[State] = []
    done = 0
    if kept is not None and kept.rules == line.rules:
        common = 0
        for ours, theirs in zip(kept.moves, line.moves, strict=False):
            if ours != theirs:
                break
            common += 1
        back = len(kept.moves) - common
        if back < len(kept.positions):
            positions = kept.positions[:len(kept.positions) - back]
            done = common
    if not positions:
        try:
            positions = [game.from_text(line.start) if line.start is not None
                         else game.initial_state()]
        except GameError as exc:
            raise Refused(str(exc)) from None
    state = positions[-1]
    for move in line.moves[done:]:
        try:
            state = state.play(move)
        except GameError as exc:
            raise Refused(f"the game could not be replayed: {exc}") from None
        positions.append(state)
        if len(positions) > 2 * KEEP_POSITIONS:  # a long replay keeps only the last ones
            del positions[:-KEEP_POSITIONS]
    remember(line, game, positions)
    return state


def remember(line: Line, game: Game, positions: list[State]) -> None:
    """Keep the last positions of the line (for the session's next request)."""
    _kept[line.session] = _Kept(line.rules, line.moves, positions[-KEEP_POSITIONS:])
    _kept.move_to_end(line.session)
    while len(_kept) > KEEP_SESSIONS:
        _kept.popitem(last=False)


def rolled(game: Game, session: str, state: State, moves: list[str], roles: list[str],
           positions: list[State]) -> State:
    """Chance's decisions from `state` on (a roll of the dice), each drawn with its
    probability and added to `moves` (made by the player about to move), `roles` and
    `positions`; the position after them. A session's dice are seeded by its token and the
    number of moves, so the same session rolls the same again after an undo."""
    while state.is_chance:
        rng = random.Random(f"{session}:{len(moves)}")
        move = game.draw(state, rng)
        roles.append(game.players[state.to_move])
        state = game.apply(state, move)
        moves.append(str(move))
        positions.append(state)
    return state


def answer(game: Game, state: State, moves: list[str] | tuple[str, ...],
           roles: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """A task's answer: the moves (and, for new ones, `roles`: who made each), who is to
    move, the view as JSON text, and `extra`."""
    return {"moves": list(moves), "roles": roles, "person": person_to_move(game, state),
            "options": dict(game.options),
            "view": json.dumps(game_view(game, state), separators=(",", ":")), **extra}


def refusing(work: Any) -> Any:
    """Run `work()`; a Refused (or a move the game refuses) becomes `{"refused": message}`."""
    try:
        return work()
    except GameError as exc:
        return {"refused": str(exc)}


# The tasks ---------------------------------------------------------------------------------
def start(line: dict[str, Any]) -> dict[str, Any]:
    """Check the rules with their options and, if they compile, play from the line's start
    (the initial position, or a position text): the check's answer as `checked`."""
    ln = Line.of(line)
    checked = tasks.check(ln.text, ln.source, ln.options)
    if not checked["ok"]:
        return {"checked": checked}
    ln = Line(ln.session, ln.text, ln.source, checked["values"], ln.start, ())
    game = game_of(ln)

    def work() -> dict[str, Any]:
        state = position(game, ln)
        moves: list[str] = []
        roles: list[str] = []
        positions = [state]
        state = rolled(game, ln.session, state, moves, roles, positions)
        if moves:
            remember(Line(ln.session, ln.text, ln.source, ln.options, ln.start,
                          tuple(moves)), game, positions)
        return answer(game, state, moves, roles, checked=checked)

    return refusing(work)


def view(line: dict[str, Any]) -> dict[str, Any]:
    """The view of the line's position."""
    ln = Line.of(line)
    game = game_of(ln)
    return refusing(lambda: answer(game, position(game, ln), ln.moves))


def play(line: dict[str, Any], move: str) -> dict[str, Any]:
    """Play a move in notation; several decisions of one turn may be given separated by
    spaces (all are played, or none)."""
    ln = Line.of(line)
    game = game_of(ln)

    def work() -> dict[str, Any]:
        words = move.split()
        if not words:
            raise Refused("type a move, e.g. c3")
        if len(words) > 50:
            raise Refused("at most 50 decisions at once")
        if len(ln.moves) + len(words) > MAX_MOVES:
            raise Refused(f"this game has reached the playground's limit of {MAX_MOVES:,} "
                          "decisions")
        first = state = position(game, ln)
        if state.is_over:
            raise Refused(f"{move.strip()}: the game is over")
        played: list[str] = []
        roles: list[str] = []
        positions = [state]
        for i, word in enumerate(words):
            if i and state.mover != first.mover:
                raise Refused(f"{word}: {' '.join(words[:i])} already ended "
                              f"{first.mover}'s turn; nothing was played")
            found = game.find(state, word)
            roles.append(state.mover or "")
            state = game.apply(state, found)
            played.append(str(found))
            positions.append(state)
        state = rolled(game, ln.session, state, played, roles, positions)
        moves = ln.moves + tuple(played)
        kept = _kept[ln.session]
        remember(Line(ln.session, ln.text, ln.source, ln.options, ln.start, moves), game,
                 kept.positions + positions[1:])
        return answer(game, state, moves, roles)

    return refusing(work)


def undo(line: dict[str, Any], agents: dict[str, str]) -> dict[str, Any]:
    """Take back the last decision, and the computer's replies before it (the decisions made
    where the computer plays the person to move)."""
    ln = Line.of(line)
    game = game_of(ln)

    def work() -> dict[str, Any]:
        if not ln.moves:
            raise Refused("nothing to undo")
        n = len(ln.moves) - 1
        while True:
            back = Line(ln.session, ln.text, ln.source, ln.options, ln.start, ln.moves[:n])
            state = position(game, back)
            if n == 0 or (not state.is_chance
                           and agents.get(person_to_move(game, state) or "") is None):
                if not state.is_chance:
                    return answer(game, state, back.moves)
                # Back at a start that is chance's: its roll is made again (the same one).
                moves, roles, positions = list(back.moves), list[str](), [state]
                state = rolled(game, ln.session, state, moves, roles, positions)
                remember(Line(ln.session, ln.text, ln.source, ln.options, ln.start,
                              tuple(moves)), game, positions)
                return answer(game, state, moves, roles)
            n -= 1

    return refusing(work)


def load_position(line: dict[str, Any], text: str) -> dict[str, Any]:
    """Play on from a position text (its moves start again)."""
    ln = Line.of(line)
    game = game_of(ln)

    def work() -> dict[str, Any]:
        state = game.from_text(text)
        start = state.to_text()
        if len(start) > tasks.MAX_TEXT:
            raise Refused(f"the position is too large: at most {tasks.MAX_TEXT:,} characters")
        remember(Line(ln.session, ln.text, ln.source, ln.options, start, ()), game, [state])
        return answer(game, state, [], [], start=start)

    return refusing(work)


def save_record(line: dict[str, Any]) -> dict[str, Any]:
    """The game so far as a record: {"name", "text"}."""
    ln = Line.of(line)
    game = game_of(ln)

    def work() -> dict[str, Any]:
        if ln.start is not None:
            raise Refused("this game started from a position text; a record starts from the "
                          "initial position")
        state = position(game, ln)
        name = f"{Path(ln.source).stem or 'game'}.rec"
        # The record names the game file by its name: both are names in one (notional)
        # directory.
        return {"name": name, "text": format_record(game, Path(ln.source), Path(name),
                                                    list(ln.moves), state)}

    return refusing(work)


def load_record(session: str, record: str, candidates: list[dict[str, str]]
                ) -> dict[str, Any]:
    """Play on from a record. Its game is the first of `candidates` ({"id", "source",
    "text"}: the game being played, then the listed ones) whose text has the record's hash;
    the answer says which (`candidate`, its index) and the check's answer (`checked`)."""
    def work() -> dict[str, Any]:
        try:
            rec = parse_record(record, "record")
        except RecordError as exc:
            raise Refused(str(exc)) from None
        if len(rec.moves) > MAX_MOVES:
            raise Refused(f"the record has {len(rec.moves):,} moves; the playground plays "
                          f"games of at most {MAX_MOVES:,}")
        found = [i for i, c in enumerate(candidates) if text_hash(c["text"]) == rec.sha256]
        if not found:
            raise Refused(f"record:{rec.sha256_line}: the record is for {rec.game}, whose "
                          "text is not that of the game being played nor of any game listed "
                          "here (its sha256 differs)")
        chosen = candidates[found[0]]
        checked = tasks.check(chosen["text"], chosen["source"], dict(rec.options))
        if not checked["ok"]:
            return {"checked": checked, "candidate": found[0]}
        ln = Line(session, chosen["text"], chosen["source"], checked["values"], None, ())
        game = game_of(ln)
        state = position(game, ln)
        positions = [state]
        moves: list[str] = []
        roles: list[str] = []
        for number, text in rec.moves:
            try:
                move = game.find(state, text)
            except GameError as exc:
                raise Refused(str(RecordError(rec.source, number, str(exc)))) from None
            roles.append(state.mover or "")
            state = game.apply(state, move)
            moves.append(str(move))
            positions.append(state)
            if len(positions) > 2 * KEEP_POSITIONS:
                del positions[:-KEEP_POSITIONS]
        remember(Line(session, ln.text, ln.source, ln.options, None, tuple(moves)), game,
                 positions)
        return answer(game, state, moves, roles, checked=checked, candidate=found[0])

    return refusing(work)


def think(line: dict[str, Any], spec: str, seed: int) -> dict[str, Any]:
    """The computer's move for the person to move (agent `spec`), played: the answer says
    what it played (`said`)."""
    ln = Line.of(line)
    game = game_of(ln)

    def work() -> dict[str, Any]:
        state = position(game, ln)
        if state.is_over or not state.legal_moves():
            return answer(game, state, ln.moves, [], said=None)
        agent = tasks.bounded_agent(spec, seed)
        began = time.perf_counter()
        move = agent.choose(state)
        seconds = time.perf_counter() - began
        report = getattr(agent, "report", None)
        mover = state.mover or ""
        after = game.apply(state, game.find(state, move))
        played, roles, positions = [str(move)], [mover], [after]
        after = rolled(game, ln.session, after, played, roles, positions)
        moves = ln.moves + tuple(played)
        kept = _kept[ln.session]
        remember(Line(ln.session, ln.text, ln.source, ln.options, ln.start, moves), game,
                 kept.positions + positions)
        said = f"{mover} ({agent.name}) plays {move}"
        if report is not None:
            said += f" after {seconds:.1f} s ({report})"
        return answer(game, after, moves, roles, said=said)

    return refusing(work)


def validate(text: str, source: str, options: dict[str, Any], n: int, seed: int,
             seconds: float) -> dict[str, Any]:
    """Check a game text and play up to `n` random games of it, all within `seconds` from
    now: {"checked"} when the rules have errors, else {"checked", "report"}."""
    began = time.perf_counter()
    checked = tasks.check(text, source, options)
    if not checked["ok"]:
        return {"checked": checked}
    left = max(0.0, seconds - (time.perf_counter() - began))
    report = tasks.playouts(text, source, checked["values"], n, seed, left)
    return {"checked": checked, "report": report}


TASKS: dict[str, Callable[..., Any]] = {
    "check": tasks.check, "start": start, "view": view, "play": play, "undo": undo,
    "position": load_position, "save": save_record, "load": load_record, "think": think,
    "validate": validate}
