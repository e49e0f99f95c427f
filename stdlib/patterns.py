"""Patterns (glyphs): small shapes of pieces, matched anywhere on the board in every rotation
and reflection, with the two colours either way round.

A pattern is written as rows of cells, like position text: cells separated by spaces, and on hex
boards each row indented to show its half-cell offset. Cell symbols:

    X  a piece of one player        O  a piece of another player
    .  an empty site                *  any piece
    ?  anything (the site must exist)

`X` and `O` stand for two different players, whichever way round. The library's shared
patterns (crosscut, hard corner, switches) are defines in `stdlib/patterns.lud`.

Every placement of every orientation on the board is computed once, at compile time, and
indexed by site, so asking "does the move just made form the pattern?" looks only at the
windows containing the sites the move changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dsl import types as t
from stdlib.registry import ludeme
from stdlib.runtime import EMPTY, Ctx, Env
from stdlib.types import Annotated, Cond, Region

SYMBOLS = frozenset("XO.*?")


@dataclass(frozen=True)
class PatternSpec:
    """A pattern as written: its name and its cells as (column, row, symbol), column in half
    cells (the character position / 2) and row counted downward."""

    name: str
    cells: tuple[tuple[float, int, str], ...]


PatternT = Annotated[PatternSpec, t.PATTERN]


@ludeme("pattern")
def pattern(rows: list[str], *, name: str = "pattern") -> PatternT:
    """A shape of pieces, written as rows of cells separated by spaces (X and O the two
    colours either way round, . empty, * any piece, ? anything); `name` is how refusals
    describe it ("forms a crosscut").

    (pattern {"X O" "O X"} name:"crosscut")"""
    cells: list[tuple[float, int, str]] = []
    for r, row in enumerate(rows):
        for i, ch in enumerate(row):
            if ch == " ":
                continue
            if ch not in SYMBOLS:
                raise ValueError(f"pattern {name!r}: unknown cell {ch!r} in row {r + 1} (cells "
                                 "are X, O, ., *, ?)")
            cells.append((i / 2.0, r, ch))
    if not cells:
        raise ValueError(f"pattern {name!r} has no cells")
    if not any(c[2] in "XO*" for c in cells):
        raise ValueError(f"pattern {name!r} needs at least one piece (X, O or *)")
    return PatternSpec(name, tuple(cells))


Window = tuple[tuple[int, str], ...]


def _transforms(shape: str) -> list[tuple[float, bool]]:
    """(rotation angle, mirrored) pairs of the board's symmetry group."""
    step = 60 if shape == "hex" else 90
    return [(math.radians(a), m) for a in range(0, 360, step) for m in (False, True)]


def windows(env: Env, spec: PatternSpec) -> list[Window]:
    """Every placement of every orientation of the pattern on the board (deduplicated, with
    X/O swapped counted as the same window)."""
    topo = env.topology
    row_height = math.sqrt(3) / 2 if topo.shape == "hex" else 1.0
    # Pattern cells in board coordinates (y up), relative to the first cell.
    base = [(x, -r * row_height, sym) for x, r, sym in spec.cells]
    x0, y0, _ = base[0]
    rel = [(x - x0, y - y0, sym) for x, y, sym in base]
    at = {(round(x, 3), round(y, 3)): s for s, (x, y) in enumerate(topo.xy)}
    seen: set[frozenset[tuple[int, str]]] = set()
    out: list[Window] = []
    for angle, mirrored in _transforms(topo.shape):
        cos, sin = math.cos(angle), math.sin(angle)
        shape = []
        for x, y, sym in rel:
            if mirrored:
                x = -x
            shape.append((x * cos - y * sin, x * sin + y * cos, sym))
        for ax, ay in topo.xy:
            window = []
            for dx, dy, sym in shape:
                site = at.get((round(ax + dx, 3), round(ay + dy, 3)))
                if site is None:
                    break
                window.append((site, sym))
            else:
                key = frozenset(window)
                swapped = frozenset((s, {"X": "O", "O": "X"}.get(c, c)) for s, c in window)
                if key not in seen and swapped not in seen:
                    seen.add(key)
                    out.append(_match_order(window))
    return out


def _match_order(window: list[tuple[int, str]]) -> Window:
    """Cells in the order that fails fastest: empties and colours first, wildcards dropped."""
    rank = {".": 0, "X": 1, "O": 2, "*": 3}
    return tuple(sorted(((s, c) for s, c in window if c != "?"), key=lambda sc: rank[sc[1]]))


def matches(window: Window, board: list[int], owner: tuple[int, ...]) -> bool:
    """Does the window hold the pattern, X and O bound to two different players?"""
    x = o = -3
    for site, sym in window:
        v = board[site]
        if sym == ".":
            if v != EMPTY:
                return False
        elif sym == "*":
            if v == EMPTY:
                return False
        else:
            who = owner[v]
            if who < 0:
                return False
            if sym == "X":
                if x == -3:
                    x = who
                elif who != x:
                    return False
            else:
                if o == -3:
                    o = who
                elif who != o:
                    return False
    return x == -3 or o == -3 or x != o


@ludeme("forms")
def forms(env: Env, *patterns: PatternT, at: Region | None = None) -> Cond:
    """True when one of the patterns stands on the board in a window that contains a site the
    move being judged changes (or, with at:, one of those sites; in end conditions, a site the
    last turn changed).

    (place (sites Empty) unless:(forms ("Crosscut")))"""
    size = env.topology.size
    per_site: list[list[tuple[str, Window]]] = [[] for _ in range(size)]
    for spec in patterns:
        for w in windows(env, spec):
            for site, _ in w:
                per_site[site].append((spec.name, w))
    everywhere = tuple(range(size))

    def test(ctx: Ctx) -> bool:
        if at is not None:
            sites = at(ctx)
        else:
            sites = ctx.changed if ctx.changed is not None else (
                ctx.last if ctx.last is not None else everywhere)
        board, owner = ctx.board, ctx.owner
        for s in sites:
            for name, w in per_site[s]:
                if matches(w, board, owner):
                    test.why = f"forms a {name}"  # type: ignore[attr-defined]
                    return True
        return False

    names = " or ".join(p.name for p in patterns)
    test.why = f"forms a {names}"  # type: ignore[attr-defined]
    test.why_not = f"does not form a {names}"  # type: ignore[attr-defined]
    return test


@ludeme("count-patterns")
def count_patterns(env: Env, spec: PatternT) -> Annotated[object, t.INT_EXPR]:
    """The number of placements of the pattern standing on the whole board.

    (= (count-patterns ("Crosscut")) 0)"""
    all_windows = windows(env, spec)

    def count(ctx: Ctx) -> int:
        return sum(1 for w in all_windows if matches(w, ctx.board, ctx.owner))
    return count
