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

from dsl.ast import Form, Node, Str
from stdlib.lowering import Alternatives, Generator, Lower, keywords, left_behind_table, lowers
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


def _worth(env: Env, rank: list[str] | None) -> list[int]:
    """What taking a piece of each board value adds to a chain's worth, by the rank:
    criteria (each worth more than any total of those after it)."""
    criteria: list[frozenset[int] | None] = []
    for name in rank or [PIECES]:
        criteria.append(None if name == PIECES else kinds_named(env, name) or frozenset())
    if len(criteria) > 4:
        env.error("rank: takes at most 4 criteria")
    worth = [0] * (len(env.pieces) + 1)
    for v in range(1, len(env.pieces) + 1):
        for i, kinds in enumerate(criteria):
            if kinds is None or v in kinds:
                worth[v] += BASE ** (len(criteria) - 1 - i)
    return worth


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
    worth = _worth(env, rank)
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
        worth of what it takes and the sites it takes them from. The moves are listed in
        full even when only whether one exists is asked (ctx.probe): a generator probed
        gives its first move, which may be from another site or take nothing."""
        board, mover = ctx.board, ctx.mover
        out = []
        probing, ctx.probe = ctx.probe, False
        try:
            listed = moves(ctx)
        finally:
            ctx.probe = probing
        for m in listed:
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


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("flying-hop")
def lower_flying_hop(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(flying-hop [directions] [over:] [from:] [of:]): along each direction over empty sites
    to the first piece, when it is over:, and onto each empty site beyond it up to the next
    piece or special site; the piece jumped is taken off."""
    from stdlib.moves import _cell, _lower_dirs, _lower_origins

    given = keywords(node, {"over", "from", "of"}, k)
    env = k.env
    steps, width = _lower_dirs(k, node, args[0] if args else None, "Diagonal")
    jumped = _cell(k, node, given.get("over"), "Enemy", "x")
    loop = _lower_origins(k, node, given, steps, width)
    open_ = k.table("may hold a piece",
                    [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    left = left_behind_table(k)
    start = k.action_start("move", node)
    generate = k.function("flying_hop", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
{loop}            while t != -1 and st[t] == 0 and {open_}[t] == 1:
                t = {steps}[mover, d, t]
            if t == -1:
                continue
            x = st[t]
            if x == 0 or not ({jumped}):
                continue
            u = {steps}[mover, d, t]
            while u != -1 and st[u] == 0 and {open_}[u] == 1:
                acts[n] = {start} + s * N + u
                tags[n] = tag
                n += 1
                u = {steps}[mover, d, u]
    return n
""")
    make = k.function("make_flying_hop", f"""
def {{name}}(st, T, mover, act):
    a = act - {start}
    s = a // N
    u = a % N
    v = st[s]
    over = -1
    for d in range({width}):
        t = {steps}[mover, d, s]
        seen = -1
        while t != -1 and t != u:
            if st[t] != 0 and seen == -1:
                seen = t
            t = {steps}[mover, d, t]
        if t == u:
            over = seen
            break
    change(st, s, {left}[v])
    if over != -1:
        change(st, over, {left}[st[over]])
    change(st, u, v)
    st[H_TO] = u
    st[H_FROM] = s
""")
    return Generator(generate, make, frozenset({"move"}))


def _inner_moves(k: Lower, node: Form, moves: Generator | Alternatives) -> tuple[str, str, int]:
    """The moves of a capture sequence as `(list, make, leaves)`: list `(st, T, mover, acts,
    tags, n) -> n` lists them as the builder lists a decision's (each tagged by its
    generator's index), make `(st, T, mover, act, tag)` makes one; only moves of a piece
    (numbered in the move block) are handled."""
    leaves: list[Generator] = []

    def lines(m: Generator | Alternatives, indent: str) -> list[str]:
        if isinstance(m, Generator):
            if m.kinds != {"move"} or m.passes:
                k.refuse(node, "no kernel lowering of (capture-sequence) over moves other "
                         "than a piece's")
            leaves.append(m)
            return [f"{indent}n = {m.generate}(st, T, mover, acts, tags, n, {len(leaves) - 1})"]
        out: list[str] = []
        first = f"first{len(leaves)}_{len(indent)}"
        for i, part in enumerate(m.parts):
            if m.ordered and i > 0:
                out.append(f"{indent}if n == {first}:")
                indent += "    "
            elif m.ordered:
                out.append(f"{indent}{first} = n")
            out += lines(part, indent)
        return out
    body = "\n".join(lines(moves, "    "))
    listing = k.function("sequence_moves", f"""
def {{name}}(st, T, mover, acts, tags, n):
{body}
    return n
""")
    makes = "\n".join(f"    {'if' if i == 0 else 'elif'} tag == {i}:\n"
                      f"        {g.make}(st, T, mover, act)" for i, g in enumerate(leaves))
    make = k.function("sequence_make", f"""
def {{name}}(st, T, mover, act, tag):
{makes}
""")
    return listing, make, len(leaves)


@lowers("capture-sequence")
def lower_capture_sequence(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(capture-sequence moves taken: [from:] [most:] [rank:]): the moves that take pieces,
    as `capture_sequence` offers them: each made on a copy of the state (its captures are the
    sites whose enemy piece it takes), the rest of its chain searched depth first on copies,
    without recursion, the pieces jumped turned into the taken: piece; with most:, only the
    jumps of the chains worth the most. A jump after which the chain goes on leaves the pieces
    it takes as taken: pieces; the last takes them all off."""
    from dsl.ast import Bool, ListNode

    given = keywords(node, {"taken", "from", "most", "rank"}, k)
    taken, most, rank = given["taken"], given.get("most"), given.get("rank")
    ranks = rank.items if isinstance(rank, ListNode) else () if rank is None else (rank,)
    if not isinstance(taken, Str) or most is not None and not isinstance(most, Bool) or \
            not all(isinstance(r, Str) for r in ranks):
        k.refuse(node, "no kernel lowering of (capture-sequence) with computed arguments")
    env = k.env
    marker = _marker(env, taken.value)
    worth = k.table("chain worth", _worth(env, [r.value for r in ranks] or None))  # type: ignore[attr-defined]
    keep_most = most is None or bool(most.value)
    inner = k.lower(args[0], "Moves")
    listing, make_one, leaves = _inner_moves(k, node, inner)
    start = k.action_start("move", node)
    origin = given.get("from")
    origins = "    allowed[:] = True\n"
    if origin is not None:
        region = k.lower(origin, "Region")
        origins = (f"    for i in range({region}(st, T, mover, -1, -1, buf)):\n"
                   "        allowed[buf[i]] = True\n")
    cap = max(1, leaves) * env.topology.size
    captures = k.function("sequence_captures", f"""
def {{name}}(st, T, mover, allowed, acts, tags, vals, lands):
    # The moves from the allowed sites that take pieces: action, tag, worth, landing site.
    found = np.empty(MAX_MOVES, np.int32)
    kinds = np.empty(MAX_MOVES, np.int32)
    n = {listing}(st, T, mover, found, kinds, 0)
    prefix = HISTORY if KEEPS_HISTORY else st.shape[0]
    trial = np.empty(prefix, np.int64)
    c = 0
    for i in range(n):
        a = found[i] - {start}
        if not allowed[a // N] or c >= acts.shape[0]:
            continue
        copy_into(trial, st, prefix)
        {make_one}(trial, T, mover, found[i], kinds[i])
        value = 0
        took = False
        for s in range(N):
            o = OWNER[st[s]]
            if o >= 0 and o != mover and OWNER[trial[s]] != o:
                value += {worth}[st[s]]
                took = True
        if took:
            acts[c] = found[i]
            tags[c] = kinds[i]
            vals[c] = value
            lands[c] = trial[H_TO]
            c += 1
    return c
""")
    pending = k.function("sequence_pending", f"""
def {{name}}(st, T, mover, act, tag, through):
    # Make the jump on st, the pieces it takes left on the board as taken: pieces (through
    # change, or written directly on a copy searched).
    before = st[:N].copy()
    {make_one}(st, T, mover, act, tag)
    for s in range(N):
        o = OWNER[before[s]]
        if o >= 0 and o != mover and OWNER[st[s]] != o:
            if through:
                change(st, s, {marker})
            else:
                put(st, s, {marker})
""")
    best = k.function("sequence_best", f"""
def {{name}}(st, T, mover, origin):
    # The most worth the chain can still take from origin (-1: no capture from there).
    depth = 2
    for s in range(N):
        o = OWNER[st[s]]
        if o >= 0 and o != mover:
            depth += 1
    prefix = HISTORY if KEEPS_HISTORY else st.shape[0]
    levels = np.empty((depth, prefix), np.int64)
    acts = np.empty((depth, {cap}), np.int32)
    tags = np.empty((depth, {cap}), np.int32)
    vals = np.empty((depth, {cap}), np.int64)
    lands = np.empty((depth, {cap}), np.int64)
    counts = np.zeros(depth, np.int64)
    nxt = np.zeros(depth, np.int64)
    acc = np.zeros(depth, np.int64)
    allowed = np.zeros(N, np.bool_)
    allowed[origin] = True
    copy_into(levels[0], st, prefix)
    counts[0] = {captures}(levels[0], T, mover, allowed, acts[0], tags[0], vals[0], lands[0])
    top = -1
    level = 0
    while level >= 0:
        i = nxt[level]
        if i >= counts[level] or level + 1 >= depth:
            level -= 1
            continue
        nxt[level] = i + 1
        total = acc[level] + vals[level, i]
        if total > top:
            top = total
        if not {keep_most}:
            return top
        child = levels[level + 1]
        copy_into(child, levels[level], prefix)
        {pending}(child, T, mover, acts[level, i], tags[level, i], False)
        allowed[:] = False
        allowed[lands[level, i]] = True
        level += 1
        counts[level] = {captures}(child, T, mover, allowed, acts[level], tags[level],
                                   vals[level], lands[level])
        nxt[level] = 0
        acc[level] = total
    return top
""")
    scored = k.function("sequence_scored", f"""
def {{name}}(st, T, mover, acts, tags, rests, keep):
    # The captures that may be played (keep[i]), each with the rest of its chain's worth.
    buf = np.empty(N, np.int32)
    allowed = np.zeros(N, np.bool_)
{origins}    vals = np.empty(acts.shape[0], np.int64)
    lands = np.empty(acts.shape[0], np.int64)
    c = {captures}(st, T, mover, allowed, acts, tags, vals, lands)
    prefix = HISTORY if KEEPS_HISTORY else st.shape[0]
    child = np.empty(prefix, np.int64)
    top = -1
    for i in range(c):
        copy_into(child, st, prefix)
        {pending}(child, T, mover, acts[i], tags[i], False)
        rests[i] = {best}(child, T, mover, lands[i])
        if vals[i] + max(rests[i], 0) > top:
            top = vals[i] + max(rests[i], 0)
    for i in range(c):
        keep[i] = not {keep_most} or vals[i] + max(rests[i], 0) == top
    return c
""")
    generate = k.function("capture_sequence", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    found = np.empty(MAX_MOVES, np.int32)
    kinds = np.empty(MAX_MOVES, np.int32)
    rests = np.empty(MAX_MOVES, np.int64)
    keep = np.empty(MAX_MOVES, np.bool_)
    c = {scored}(st, T, mover, found, kinds, rests, keep)
    for i in range(c):
        if keep[i]:
            acts[n] = found[i]
            tags[n] = tag
            n += 1
    return n
""")
    make = k.function("make_capture_sequence", f"""
def {{name}}(st, T, mover, act):
    found = np.empty(MAX_MOVES, np.int32)
    kinds = np.empty(MAX_MOVES, np.int32)
    rests = np.empty(MAX_MOVES, np.int64)
    keep = np.empty(MAX_MOVES, np.bool_)
    c = {scored}(st, T, mover, found, kinds, rests, keep)
    for i in range(c):
        if keep[i] and found[i] == act:
            if rests[i] >= 0:
                {pending}(st, T, mover, act, kinds[i], True)
                return
            before = st[:N].copy()
            {make_one}(st, T, mover, act, kinds[i])
            for s in range(N):
                if before[s] == {marker}:
                    change(st, s, 0)
            return
""")
    return Generator(generate, make, frozenset({"move"}))


@lowers("capturing")
def lower_capturing(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(capturing taken): some site holds the taken: piece."""
    keywords(node, set(), k)
    if not isinstance(args[0], Str):
        k.refuse(node, "no kernel lowering of (capturing) with a computed piece")
    marker = _marker(k.env, args[0].value)
    return k.function("capturing", f"""
def {{name}}(st, T, mover, to, frm):
    for s in range(N):
        if st[s] == {marker}:
            return True
    return False
""") + "(st, T, mover, to, frm)"
