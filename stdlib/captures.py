"""Capture sequences, as the draughts family plays them: a turn that takes pieces by a chain
of jumps, the pieces jumped staying on the board until the chain ends, the rule that the
chain taking the most (or the most valuable) pieces must be played, and long-range jumps
(flying kings).

A chain is a turn of several decisions, one jump each (`c3-e5`, then `e5-c7`): the engine's
(continue ...) carries it on. A piece jumped before the chain's last jump becomes a neutral
piece the game declares (`taken:`, shown e.g. as `x` in position text): it still blocks, and
it cannot be jumped again, since it is no enemy's; the chain's last jump takes every such
piece off with its own capture. So no state besides the board is needed, and position text
in the middle of a chain says everything.

Which jumps are allowed is judged by searching the rest of the chain from each one on the
position's own board, made and undone in place (as (max-dice ...) searches the rest of a
turn of dice): the same moves, from the landing site, with the pieces jumped so far taken.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from stdlib.moves import kinded, kinds_named
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Move
from stdlib.types import CellKind, Cond, Direction, Moves, Region

# Criteria of (capture-sequence ... rank:) are weighed into one number, each criterion worth
# more than any total of those after it: a board has fewer than BASE pieces.
BASE = 1 << 12
PIECES = "pieces"

Log = list[tuple[int, int]]  # (site, value before) of the changes made during a search


@ludeme("flying-hop")
def flying_hop(env: Env, directions: Direction = "Diagonal", *, over: CellKind = "Enemy",
               from_: Region | None = None, of: str | None = None) -> Moves:
    """A long jump (the flying king of international draughts): one of the mover's pieces
    (those on the `from:` sites; with of:, only its pieces of that kind) goes any distance
    over empty sites in one of the directions to the first piece in its way, when that piece
    is `over:` (an enemy's by default), jumps it, and lands on any empty site beyond it
    before the next piece; the piece jumped is taken off. Each landing site is a move,
    written `from-to`.

    (flying-hop Diagonal of:"King")"""
    from stdlib.logic import cell_test

    dirs = env.resolve_dirs(directions)
    jumped = cell_test(env, over)
    no_piece = env.no_piece
    kinds = kinds_named(env, of)
    names = env.names
    step = env.topology.step
    size = len(env.names)

    def ray(site: int, d: str) -> tuple[int, ...]:
        """The sites from `site` (excluded) to the board's edge in direction d."""
        out: list[int] = []
        site = step[d][site]
        while site != -1:
            out.append(site)
            site = step[d][site]
        return tuple(out)
    rays = {d: [ray(s, d) for s in range(size)] for d in env.topology.directions}
    made: dict[tuple[int, int, int, int, int], Move] = {}  # each jump made once per game

    def landing(frm: int, over_site: int, to: int, piece: int, taken: int) -> Move:
        found = made.get((frm, over_site, to, piece, taken))
        if found is None:
            found = Move("move", (frm, to), ((frm, env.left_behind(piece)),
                                            (over_site, env.left_behind(taken)), (to, piece)),
                         names)
            made[(frm, over_site, to, piece, taken)] = found
        return found

    def free(board: list[int], site: int) -> bool:
        return board[site] == EMPTY and site not in no_piece

    def generate(ctx: Ctx) -> list[Move]:
        board, owner, mover = ctx.board, ctx.owner, ctx.mover
        ds = dirs(mover) if callable(dirs) else dirs
        out: list[Move] = []
        for s in from_(ctx) if from_ is not None else range(len(board)):
            piece = board[s] if s >= 0 else EMPTY
            if owner[piece] != mover or (kinds is not None and piece not in kinds):
                continue
            for d in ds:
                line = rays[d][s]
                i = 0
                while i < len(line) and free(board, line[i]):
                    i += 1
                if i >= len(line) - 1 or board[line[i]] == EMPTY or not jumped(ctx, line[i]):
                    continue
                for u in line[i + 1:]:
                    if not free(board, u):
                        break
                    out.append(landing(s, line[i], u, piece, board[line[i]]))
                    if ctx.probe:
                        return out
        return out
    return kinded(generate, "move")


def _marker(env: Env, taken: str) -> int:
    """The board value of the neutral piece named `taken` (0 when there is none)."""
    values = [p.value for p in env.pieces if p.name == taken]
    if not values:
        env.error(f'no piece named "{taken}": declare it with (pieces {{(piece "{taken}" '
                  'symbol:"x")}})')
        return 0
    if len(values) > 1 or env.pieces[values[0] - 1].owner >= 0:
        env.error(f'taken:"{taken}" must name one piece that belongs to no player '
                  '(declared in (pieces ...))')
    return values[0]


@ludeme("capture-sequence")
def capture_sequence(env: Env, moves: Moves, *, taken: str, from_: Region | None = None,
                     most: bool = True, rank: list[str] | None = None) -> Moves:
    """The captures among the moves (by the pieces on the `from:` sites), each the next jump
    of a chain: until the chain's last jump, a piece jumped becomes the neutral piece named
    `taken:` (it still blocks the way and cannot be jumped again), and the last jump takes
    them all off. A jump is the last when no capture of the moves goes on from where it
    lands. With most:true (the default), only the jumps that begin (or continue) a chain
    taking the most pieces are offered; rank: orders chains by other criteria in turn, each
    "pieces" (how many are taken) or a kind (how many of that kind), e.g. rank:{"pieces"
    "King"} for the Italian rule "the most pieces, then the most kings". Each jump is judged
    by searching the rest of its chain on the position, made and undone in place.

    Pair it with (continue (capture-sequence ... from:LastTo) if:(capturing "Taken")) so
    that the same piece goes on jumping while the chain is under way.

    (capture-sequence ("Jumps") taken:"Taken")"""
    marker = _marker(env, taken)
    owner = env.owner
    names = env.names
    criteria: list[frozenset[int] | None] = []
    for name in rank or [PIECES]:
        criteria.append(None if name == PIECES else kinds_named(env, name) or frozenset())
    if len(criteria) > 4:
        env.error("rank: takes at most 4 criteria")
    # What taking a piece of each board value adds to a chain's worth.
    worth = [0] * (len(env.pieces) + 1)
    for v in range(1, len(env.pieces) + 1):
        for i, kinds in enumerate(criteria):
            if kinds is None or v in kinds:
                worth[v] += BASE ** (len(criteria) - 1 - i)
    made: dict[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], Move] = {}

    def move_of(move: Move, changes: tuple[tuple[int, int], ...]) -> Move:
        if changes == move.changes:
            return move
        key = (move.sites, changes)
        found = made.get(key)
        if found is None:
            if len(made) > 100_000:
                made.clear()
            found = made[key] = Move(move.kind, move.sites, changes, names)
        return found

    def captures(ctx: Ctx, origins: Collection[int] | None
                 ) -> list[tuple[Move, int, tuple[int, ...]]]:
        """The moves that take pieces (from one of `origins`; any, for None): each with the
        worth of what it takes and the sites it takes them from."""
        board, mover = ctx.board, ctx.mover
        out = []
        for m in moves(ctx):
            if not m.sites or (origins is not None and m.sites[0] not in origins):
                continue
            value = 0
            took: tuple[int, ...] = ()
            for s, v in m.changes:
                o = owner[board[s]]
                if o >= 0 and o != mover and owner[v] != o:
                    value += worth[board[s]]
                    took += (s,)
            if took:
                out.append((m, value, took))
        return out

    def pending(move: Move, took: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        """The move's changes, leaving the pieces it takes on the board as taken."""
        return tuple((s, marker if s in took else v) for s, v in move.changes)

    def make(board: list[int], changes: tuple[tuple[int, int], ...], log: Log) -> None:
        for s, v in changes:
            log.append((s, board[s]))
            board[s] = v

    def undo(board: list[int], log: Log, length: int) -> None:
        while len(log) > length:
            s, old = log.pop()
            board[s] = old

    def best(ctx: Ctx, origin: int, log: Log) -> int:
        """The greatest worth the chain can still take from `origin` (-1: it cannot go on)."""
        top = -1
        for m, value, took in captures(ctx, (origin,)):
            length = len(log)
            make(ctx.board, pending(m, took), log)
            rest = best(ctx, m.sites[-1], log) if most else -1
            undo(ctx.board, log, length)
            total = value + max(rest, 0)
            if total > top:
                top = total
            if not most:
                break
        return top

    def generate(ctx: Ctx) -> Sequence[Move]:
        origins = None if from_ is None else frozenset(from_(ctx))
        found = captures(ctx, origins)
        if not found or ctx.probe:
            return [m for m, _, _ in found[:1]]  # a capture exists: one is enough to know
        board = ctx.board
        state = ctx.state
        log: Log = []
        scored = []
        explain, ctx.explain = ctx.explain, None
        if state is not None:
            state.trial += 1  # the board is not the position's for now (see Env.track)
        try:
            for m, value, took in found:
                make(board, pending(m, took), log)
                rest = best(ctx, m.sites[-1], log)
                undo(board, log, 0)
                scored.append((m, value, took, rest))
        finally:
            undo(board, log, 0)
            if state is not None:
                state.trial -= 1
            ctx.explain = explain
        top = max(value + max(rest, 0) for _, value, _, rest in scored)
        markers = tuple((s, EMPTY) for s, v in enumerate(board) if v == marker)
        out: list[Move] = []
        for m, value, took, rest in scored:
            if most and value + max(rest, 0) < top:
                if explain is not None:
                    explain.setdefault(m.key, "another capture takes more: the most pieces "
                                       "must be taken")
                continue
            out.append(move_of(m, pending(m, took) if rest >= 0 else m.changes + markers))
        return out
    return kinded(generate, moves)


@ludeme("capturing")
def capturing(env: Env, taken: str) -> Cond:
    """True while a chain of captures is under way: pieces jumped by it (turned into the
    neutral piece named `taken`, see (capture-sequence ...)) still stand on the board.

    (continue (capture-sequence ("Jumps") from:LastTo taken:"Taken") if:(capturing "Taken"))"""
    marker = _marker(env, taken)

    def test(ctx: Ctx) -> bool:
        return marker in ctx.board
    mark(test).why = "a chain of captures is under way"
    return test
