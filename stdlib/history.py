"""Rules about the history of the game: what the previous move did constrains the next."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from dsl.ast import Bool, Form, Int, Node
from stdlib.lowering import Alternatives, Generator, Lower, keywords, lowers
from stdlib.moves import kinded
from stdlib.parts import mark
from stdlib.patterns import matches, windows
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env, Memory, Move, every_move
from stdlib.steps import Changes, MoveScreen, Verdicts
from stdlib.types import Cond, Moves, Pattern

Restriction = tuple[tuple[tuple[int, int], ...], ...]  # windows as ((site, value), ...)


@ludeme("no-restore")
def no_restore(env: Env, pattern: Pattern, moves: Moves) -> Moves:
    """A ko-like restriction: when a move breaks a placement of the pattern (it stood on the
    board before the move and does not after), the very next move may not leave those sites
    with exactly the contents they had before the move that broke it. The restriction lasts
    one move. Position text key `forbidden:` lists the sites and contents that may not come
    back, e.g. `forbidden: c7=A d7=C c6=C d6=A`.

    (no-restore ("Crosscut") (any-of (place-group 2) (exchange Orthogonal)))"""
    # Every placement of the pattern (a pattern may stand on the same sites in several
    # orientations: each is a placement of its own), by the sites it covers.
    placements = list(windows(env, pattern))
    per_site: list[list[int]] = [[] for _ in range(env.topology.size)]
    for i, w in enumerate(placements):
        for s in w.sites:
            per_site[s].append(i)
    names = env.names
    symbols = [".", *(p.symbol for p in env.pieces)]
    owner = env.owner

    def update(old: list[int], new: list[int], changed: tuple[int, ...], _: Any
               ) -> Restriction | None:
        broken: set[tuple[tuple[int, int], ...]] = set()
        candidates: set[int] = set()
        for s in changed:
            candidates.update(per_site[s])
        for i in candidates:
            w = placements[i]
            if matches(w, old, owner) and not matches(w, new, owner):
                broken.add(tuple((s, old[s]) for s in w.sites))
        return tuple(sorted(broken)) or None

    def render(value: Restriction) -> str:
        return "; ".join(write_cells(window, names, symbols) for window in value)

    def parse(text: str) -> Restriction | None:
        windows_ = [read_cells(part, env.topology.index, symbols) for part in text.split(";")]
        return tuple(w for w in windows_ if w) or None

    slot = len(env.memories)
    env.memories.append(Memory("forbidden", update, render, parse))

    def restores(board: Collection[int], restriction: Restriction, move: Move) -> bool:
        after = dict(move.changes)
        return any(all(after.get(s, board[s]) == v for s, v in window)  # type: ignore[index]
                   for window in restriction)

    def generate(ctx: Ctx) -> Sequence[Move]:
        restriction = ctx.state.memory[slot] if ctx.state is not None else None
        if not restriction:
            return moves(ctx)
        candidates = every_move(moves, ctx)
        allowed = []
        touched = {s for window in restriction for s, _ in window}
        for m in candidates:
            # Only a move changing a restricted site can bring its old contents back.
            if not touched.isdisjoint(m.changed) and restores(ctx.board, restriction, m):
                if ctx.explain is not None:
                    ctx.explain.setdefault(m.key, "it would restore what the last move "
                                           "changed (no immediate recreation)")
            else:
                allowed.append(m)
        return allowed
    return kinded(generate, moves)


def write_cells(cells: Sequence[tuple[int, int]], names: Sequence[str],
                symbols: Sequence[str]) -> str:
    """Sites and what they hold, as position text writes them: `c7=A d7=. c6=C`."""
    return " ".join(f"{names[s]}={symbols[v]}" for s, v in cells)


def read_cells(text: str, index: dict[str, int], symbols: Sequence[str]
               ) -> tuple[tuple[int, int], ...]:
    """The (site, board value) pairs of a text written by write_cells, in site order;
    ValueError saying how to write them when it is not."""
    cells = []
    for item in text.split():
        site, eq, symbol = item.partition("=")
        if not eq or site not in index or symbol not in symbols:
            raise ValueError(f"write each cell as site=symbol, e.g. c7=A (not {item!r})")
        cells.append((index[site], symbols.index(symbol)))
    return tuple(sorted(cells))


def zobrist(env: Env) -> list[list[int]]:
    """The game's table of random 64-bit keys, one per site and board value (0 for an empty
    site), shared by every ludeme that hashes positions: a board's hash is the XOR of its
    sites' keys. Made once per game, from a fixed seed, so hashes are the same every run."""
    table = env.shared.get("zobrist")
    if table is None:
        rng = random.Random(0x1D_E4E)
        values = len(env.pieces) + 1
        table = [[0] + [rng.getrandbits(64) for _ in range(values - 1)]
                 for _ in range(env.topology.size)]
        env.shared["zobrist"] = table
        env.uses_history = True
    return table


def board_hash(table: Sequence[Sequence[int]], board: Sequence[int]) -> int:
    """The Zobrist hash of a board."""
    h = 0
    for s, v in enumerate(board):
        if v:
            h ^= table[s][v]
    return h


def mover_keys(env: Env) -> list[int]:
    """The game's random 64-bit key per role, XORed into a board's hash to tell whose turn it
    is in the position (a situation)."""
    keys = env.shared.get("zobrist movers")
    if keys is None:
        rng = random.Random(0x5_1DE)
        keys = env.shared["zobrist movers"] = [rng.getrandbits(64) for _ in env.roles]
    return keys  # type: ignore[no-any-return]


def situation(keys: Sequence[int], board_hash: int, to_move: int,
              memory: tuple[Any, ...]) -> int:
    """The hash of a situation: the board, the player to move, and what the ludemes remember
    (castling rights, an en passant square, ...)."""
    h = board_hash ^ keys[to_move]
    if any(value is not None for value in memory):
        h ^= hash(memory) & 0xFFFF_FFFF_FFFF_FFFF
    return h


@ludeme("repeated")
def repeated(env: Env, *, last: int | None = None, situational: bool = False,
             times: int = 2) -> Cond:
    """True when the board is one that stood earlier in this game (after an earlier turn, or at
    the start): positional superko, forbidden with (forbid (repeated)). With last:N, only the
    last N positions count, the present one included: (forbid (repeated last:2)) is the simple
    ko rule, which forbids taking back at once what the opponent just took. With
    situational:true, the same board counts only with the same player to move (a move being
    tried out is taken to hand the turn to the next player), and with what the ludemes
    remember (castling rights, an en passant square). times:3 asks for the third time (chess's
    threefold repetition). A turn that changed nothing (a pass) repeats nothing. Positions
    keep the hashes of the boards they come from (a position read from text starts a new
    history).

    (forbid (named "ko" (repeated last:2)))"""
    table = zobrist(env)
    if last is not None and last < 1:
        env.error("last: needs 1 or more")
    if last is not None and (situational or times != 2):
        env.error("situational: and times: look at the whole game: leave last: out")
    if times < 2:
        env.error("times: needs 2 or more")
    keys = mover_keys(env) if situational else None
    if not situational:  # a ko: the last turn's changes survive position text (`before:`)
        env.shared["recent history"] = True
    roles = len(env.roles)
    where: dict[int, dict[int, int]] = {}  # per board value, the site of each of its keys

    def test(ctx: Ctx) -> bool:
        state = ctx.state
        if state is None or state.history is None:
            return False
        if ctx.changed is None and ctx.last is not None and not ctx.last:
            return False  # a pass
        board = ctx.board
        # The position's hash is up to date on its own board, also while the engine tries a
        # move there (it keeps the hash as it goes); not while a filter judges a move.
        current = board is state.board and ctx.changed is None
        # A move being tried out makes a position that is not in the history yet: any earlier
        # one that is the same repeats it. The position itself is in its history: it repeats
        # one that stood before it.
        trying = not current or state.tried > 0
        h = state.zhash if current else board_hash(table, board)
        earlier = times - 1  # times it must have stood before
        if keys is not None:
            to_move = (ctx.mover + 1) % roles if trying else state.to_move
            key = situation(keys, h, to_move, state.memory)
            return state.situations.get(key, 0) >= earlier + (0 if trying else 1)  # type: ignore[union-attr]
        if last is None:
            return state.seen.get(h, 0) >= earlier + (0 if trying else 1)
        return h in (state.history[-last:] if trying else state.history[-last - 1:-1])

    def screen(ctx: Ctx) -> Callable[[Move], bool] | None:
        """The moves after which the board certainly does not repeat: what `test` judges when
        the move is tried on the position (its hash kept up to date), from the position's hash
        and the move's changes."""
        state = ctx.state
        if keys is not None or state is None or ctx.board is not state.board \
                or ctx.changed is not None:
            return None
        if state.history is None:
            return lambda move: True
        recent = None if last is None else set(state.history[-last:])
        # (Where captured pieces go to hands by kind, a capture changes the hash beyond the
        # board: the changes alone cannot tell.)
        return _Fresh(table, ctx.board, state.zhash, recent, state.seen, times - 1, where,
                      ctx.env.hand_kinds is None)
    given = mark(test)
    given.why = "a position repeated" if last is None else "a position just seen repeated"
    given.screen = screen
    return test


class _Fresh(MoveScreen):
    """The screen of (repeated) on one position: which moves certainly make a board that does
    not repeat (the hash after the move, from the position's and the move's changes) — and,
    for all placements at once, which certainly make one that does."""

    __slots__ = ("table", "board", "before", "recent", "seen", "earlier", "where",
                 "board_only")

    def __init__(self, table: list[list[int]], board: list[int], before: int,
                 recent: set[int] | None, seen: dict[int, int], earlier: int,
                 where: dict[int, dict[int, int]], board_only: bool = True) -> None:
        self.table, self.board, self.before = table, board, before
        self.recent, self.seen, self.earlier = recent, seen, earlier
        self.where = where  # per board value, the site of each of its keys (made when asked)
        self.board_only = board_only  # do the steps' changes change the hash only by sites?

    def _after(self, changes: tuple[tuple[int, int], ...]) -> int:
        table, board = self.table, self.board
        if len(changes) == 1:
            ((s, v),) = changes
            return self.before ^ table[s][board[s]] ^ table[s][v]
        h = self.before
        if len(changes) == 2 and changes[0][0] != changes[1][0]:  # (the usual capture)
            (s, v), (t, u) = changes
            return h ^ table[s][board[s]] ^ table[s][v] ^ table[t][board[t]] ^ table[t][u]
        for s, v in dict(changes).items():  # (a site changed twice: its last value)
            keys = table[s]
            h ^= keys[board[s]] ^ keys[v]
        return h

    def _repeats(self, h: int) -> bool:
        recent = self.recent
        return h in recent if recent is not None else self.seen.get(h, 0) >= self.earlier

    def __call__(self, move: Move) -> bool:
        changes = move.changes
        if not changes:
            return True  # a turn that changes nothing repeats nothing
        return not self._repeats(self._after(changes))

    def then(self, changes: Changes) -> Changes | None:
        """Exact for any changes of sites (the hash after them, from the position's)."""
        if not self.board_only:
            return None
        return None if changes and self._repeats(self._after(changes)) else ()

    def placements(self, value: int, sites: Sequence[int]) -> Verdicts | None:
        """A placement on an empty site makes the position's hash XOR the key of the value on
        the site: the boards that stood before, by their hash, say which sites repeat one."""
        table, board, before = self.table, self.board, self.before
        repeats = 0
        earlier, seen = self.earlier, self.seen
        boards: Collection[int] | None = self.recent
        if boards is None and len(seen) < len(sites):
            boards = [h for h, n in seen.items() if n >= earlier]
        if boards is not None and len(boards) <= len(sites):
            where = self.where.get(value)
            if where is None:
                where = self.where[value] = {row[value]: s for s, row in enumerate(table)}
            for h in boards:
                s = where.get(before ^ h)
                if s is not None and board[s] == EMPTY:
                    repeats |= 1 << s
        else:
            repeated = self._repeats
            for s in sites:
                if board[s] == EMPTY and repeated(before ^ table[s][value]):
                    repeats |= 1 << s
        return ~repeats, repeats



# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("repeated")
def lower_repeated(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(repeated [last:N] [times:N] [situational:]) over the kernel's position history (the
    hashes of the boards after each turn, the start's first, at HISTORY; with situational:true
    those of the situations, at SITUATIONS, the player to move being the next one while a
    move is tried): as `repeated`, a move being tried (H_TRYING) makes a board not in the
    history yet; a turn that changed nothing repeats nothing."""
    given = keywords(node, {"last", "times", "situational"}, k)
    flag = given.get("situational")
    if flag is not None and not isinstance(flag, Bool):
        k.refuse(node, "no kernel lowering of (repeated) with a computed situational:")
    situational = flag is not None and flag.value
    last_node, times_node = given.get("last"), given.get("times")
    last = last_node.value if isinstance(last_node, Int) else None
    times = times_node.value if isinstance(times_node, Int) else 2
    if last_node is not None and last is None or times_node is not None \
            and not isinstance(times_node, Int):
        k.refuse(node, "no kernel lowering of (repeated) with computed arguments")
    if situational:  # (last: is an error with situational:)
        k.keep_situations()
        found = f"""
    h = situation_hash(st, h, (mover + 1) % R if st[H_TRYING] == 1 else st[H_TO_MOVE])
    seen = 0
    for i in range(st[H_HISTORY]):
        if st[SITUATIONS + i] == h:
            seen += 1
    return seen >= {times - 1} + (0 if st[H_TRYING] == 1 else 1)"""
    elif last is None:
        found = f"""
    seen = 0
    for i in range(st[H_HISTORY]):
        if st[HISTORY + i] == h:
            seen += 1
    return seen >= {times - 1} + (0 if st[H_TRYING] == 1 else 1)"""
    else:
        found = f"""
    count = st[H_HISTORY]
    end = count if st[H_TRYING] == 1 else count - 1
    for i in range(max(0, end - {last}), end):
        if st[HISTORY + i] == h:
            return True
    return False"""
    return k.function("repeated", """
def {name}(st, T, mover, to, frm):
    if st[H_NCHANGED] == 0:
        return False  # a pass
    h = st[H_HASH]""" + found + "\n") + "(st, T, mover, to, frm)"


@lowers("no-restore")
def lower_no_restore(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator | Alternatives:
    """(no-restore pattern moves): the moves, each of which, while the last decision broke
    placements of the pattern, is made on a copy of the state and left out if it changes a
    site of those placements and leaves one of them as it was before (no_restore's
    `restores`). The restriction lives in slots: its count, the H_SWAPPED it was made under
    (the pie rule's swap forgets it, as the interpreter forgets memories), and per placement
    its sites and their old contents; after each decision `remember` finds the placements
    that held before it and do not after."""
    from stdlib.patterns import PatternSpec, lower_windows

    keywords(node, set(), k)
    env = k.env
    spec = k.compiled(args[0])
    slots = [i for i, m in enumerate(env.memories) if m.key == "forbidden"]
    if not isinstance(spec, PatternSpec) or len(slots) != 1:
        k.refuse(node, "no kernel lowering of (no-restore) with this pattern")
    index = slots[0]
    found = windows(env, spec)
    _, holds = lower_windows(k, found)
    width = max((len(w.sites) for w in found), default=1)
    sites = k.table("window sites in order", [list(w.sites) + [-1] * (width - len(w.sites))
                                              for w in found] or [[-1]])
    capacity = max(1, len({w.sites for w in found}))
    entry = 2 * width

    def encode(state: Any) -> list[int]:
        restriction = state.memory[index] or ()
        out = [len(restriction), int(state.swapped)]
        for window in restriction:
            cells = list(window) + [(-1, 0)] * (width - len(window))
            out += [s for s, _ in cells] + [v for _, v in cells]
        return out + [0] * (2 + capacity * entry - len(out))
    at = k.slot(f"forbidden {sites}", 2 + capacity * entry, encode)
    update = k.function("forbidden_update", f"""
def {{name}}(st, T, mover, before):
    count = 0
    for w in range({len(found)}):
        differs = False
        for j in range({width}):
            c = {sites}[w, j]
            if c < 0:
                break
            if before[c] != st[c]:
                differs = True
                break
        if not differs or not {holds}(before, w) or {holds}(st, w):
            continue
        known = False  # the same sites broken in another orientation: the same contents
        # (each window's sites in order: the same sites are the same list)
        for e in range(count):
            same = True
            for j in range({width}):
                if st[{at} + 2 + e * {entry} + j] != {sites}[w, j]:
                    same = False
                    break
            if same:
                known = True
                break
        if known:
            continue
        base = {at} + 2 + count * {entry}
        for j in range({width}):
            c = {sites}[w, j]
            st[base + j] = c
            st[base + {width} + j] = before[c] if c >= 0 else 0
        count += 1
    st[{at}] = count
    st[{at} + 1] = st[H_SWAPPED]
""")
    k.remember("forbidden", update, f"forbidden {sites}")
    restores = k.function("restores", f"""
def {{name}}(st, trial):
    count = st[{at}]
    k = trial[H_NCHANGED]
    touched = k < 0
    for i in range(max(k, 0)):
        c = trial[CHANGED + i]
        for e in range(count):
            for j in range({width}):
                if st[{at} + 2 + e * {entry} + j] == c:
                    touched = True
    if not touched:
        return False
    for e in range(count):
        base = {at} + 2 + e * {entry}
        same = True
        for j in range({width}):
            c = st[base + j]
            if c >= 0 and trial[c] != st[base + {width} + j]:
                same = False
                break
        if same:
            return True
    return False
""")

    def wrap(moves: Generator | Alternatives) -> Generator | Alternatives:
        if isinstance(moves, Alternatives):
            return Alternatives([wrap(part) for part in moves.parts], moves.ordered)
        generate = k.function("no_restore", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    first = n
    n = {moves.generate}(st, T, mover, acts, tags, n, tag)
    if n == first or st[{at}] == 0 or st[{at} + 1] != st[H_SWAPPED]:
        return n
    trial = st.copy()
    kept = first
    for i in range(first, n):
        copy_into(trial, st, st.shape[0])
        trial[H_NCHANGED] = 0
        {moves.make}(trial, T, mover, acts[i])
        if not {restores}(st, trial):
            acts[kept] = acts[i]
            tags[kept] = tags[i]
            kept += 1
    return kept
""")
        return replace(moves, generate=generate)

    lowered = k.lower(args[1], "Moves")
    if not isinstance(lowered, Generator | Alternatives):
        k.refuse(node, "no kernel lowering of (no-restore) of these moves")
    return wrap(lowered)
