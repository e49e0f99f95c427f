"""Independent brute-force referees for the ludemes' documented meanings.

Nothing here calls `stdlib` (only `compiled`, at the end, hands a game text to the engine
under test): the boards' geometry, site names, sides, corners and position text are rebuilt
from the ludemes' documentation (`ludeme grammar -v`), so a property that compares a ludeme's
verdict with these referees tests the implementation against its documentation.

Coordinates. A cell is (x, y): y is its row counted from the bottom (0 the bottom row). On
square boards x is its column (0 the left); on hexagonal boards x is the cell's character
column in position text (half-cell units), so the six neighbours are E (x+2, y), W (x-2, y),
NE (x+1, y+1), NW (x-1, y+1), SE (x+1, y-1) and SW (x-1, y-1).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

LETTERS = "abcdefghijklmnopqrstuvwxyz"
Cell = tuple[int, int]

SQUARE_DIRS: dict[str, Cell] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
HEX_DIRS: dict[str, Cell] = {
    "E": (2, 0), "W": (-2, 0), "NE": (1, 1), "NW": (-1, 1), "SE": (1, -1), "SW": (-1, -1),
}
COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
OPPOSITE = {d: COMPASS[(i + 4) % 8] for i, d in enumerate(COMPASS)}


@dataclass
class Board:
    """One board of the given shape, rebuilt from the documentation."""

    shape: str  # "square", "rectangle", "hex-rhombus", "hexhex", "hex-triangle"
    a: int
    b: int = 0  # rows of a rectangle
    rows: list[list[Cell]] = field(default_factory=list)  # top row first, left to right

    def __post_init__(self) -> None:
        n = self.a
        if self.shape in ("square", "rectangle"):
            height = self.b if self.shape == "rectangle" else n
            self.rows = [[(x, y) for x in range(n)] for y in range(height - 1, -1, -1)]
        elif self.shape == "hex-rhombus":
            self.rows = [[(n - 1 - y + 2 * c, y) for c in range(n)] for y in range(n - 1, -1, -1)]
        elif self.shape == "hexhex":
            self.rows = [[(abs(y - n + 1) + 2 * c, y) for c in range(2 * n - 1 - abs(y - n + 1))]
                         for y in range(2 * n - 2, -1, -1)]
        elif self.shape == "hex-triangle":
            self.rows = [[(y + 2 * c, y) for c in range(n - y)] for y in range(n - 1, -1, -1)]
        else:
            raise ValueError(self.shape)
        self.cells: list[Cell] = [c for row in self.rows for c in row]
        self.cellset = set(self.cells)
        self.names = {c: LETTERS[i] + str(c[1] + 1)
                      for row in self.rows for i, c in enumerate(row)}
        self.cell_of = {v: k for k, v in self.names.items()}

    # -- the text of the board ---------------------------------------------------------------

    @property
    def hex(self) -> bool:
        return self.shape.startswith("hex")

    @property
    def ludeme(self) -> str:
        if self.shape == "rectangle":
            return f"(rectangle {self.a} {self.b})"
        return f"({self.shape} {self.a})"

    def render(self, content: dict[Cell, str], keys: Iterable[str] = ()) -> str:
        """Position text: `content` maps cells to one-character symbols ('.' if absent)."""
        lines = []
        for row in self.rows:
            if self.hex:
                line = [" "] * (max(x for x, _ in row) + 1)
                for c in row:
                    line[c[0]] = content.get(c, ".")
                lines.append("".join(line))
            else:
                lines.append(" ".join(content.get(c, ".") for c in row))
        return "\n".join([*lines, *keys]) + "\n"

    # -- geometry ----------------------------------------------------------------------------

    @property
    def dirs(self) -> dict[str, Cell]:
        return HEX_DIRS if self.hex else SQUARE_DIRS

    def expand(self, name: str) -> list[str]:
        """A direction constant as absolute directions (Adjacent is orthogonal on squares)."""
        if name in self.dirs:
            return [name]
        if self.hex:
            return list(HEX_DIRS) if name in ("Orthogonal", "Adjacent", "All") else []
        return {"Orthogonal": ["N", "E", "S", "W"], "Adjacent": ["N", "E", "S", "W"],
                "Diagonal": ["NE", "SE", "SW", "NW"], "All": COMPASS}.get(name, [])

    def step(self, c: Cell, d: str) -> Cell | None:
        dx, dy = self.dirs[d]
        t = (c[0] + dx, c[1] + dy)
        return t if t in self.cellset else None

    def ray(self, c: Cell, d: str) -> list[Cell]:
        out = []
        t = self.step(c, d)
        while t is not None:
            out.append(t)
            t = self.step(t, d)
        return out

    def neighbours(self, c: Cell, dirs: Iterable[str]) -> list[Cell]:
        absolute = [x for d in dirs for x in self.expand(d)]
        return [t for d in absolute if (t := self.step(c, d)) is not None]

    def axes(self) -> list[tuple[str, str]]:
        """The board's lines, as (direction, opposite) pairs."""
        if self.hex:
            return [("E", "W"), ("NE", "SW"), ("NW", "SE")]
        return [("E", "W"), ("N", "S"), ("NE", "SW"), ("NW", "SE")]

    def euclid(self, c: Cell) -> tuple[float, float]:
        if self.hex:
            return (c[0] / 2.0, c[1] * math.sqrt(3) / 2.0)
        return (float(c[0]), float(c[1]))

    # -- regions -----------------------------------------------------------------------------

    def sides(self) -> dict[str, set[Cell]]:
        """Every side of the board by the compass point it faces (corners included)."""
        first = {row[0] for row in self.rows}
        last = {row[-1] for row in self.rows}
        top, bottom = set(self.rows[0]), set(self.rows[-1])
        if self.shape in ("square", "rectangle", "hex-rhombus"):
            return {"N": top, "S": bottom, "W": first, "E": last}
        if self.shape == "hex-triangle":
            return {"S": bottom, "NW": first, "NE": last}
        n = self.a
        upper = {c for c in self.cells if c[1] >= n - 1}
        lower = {c for c in self.cells if c[1] <= n - 1}
        return {"N": top, "S": bottom, "NW": first & upper, "NE": last & upper,
                "SW": first & lower, "SE": last & lower}

    def corners(self) -> dict[str, set[Cell]]:
        """Every corner by the compass point it faces."""
        top, bottom = self.rows[0], self.rows[-1]
        if self.shape in ("square", "rectangle", "hex-rhombus"):
            return {"NW": {top[0]}, "NE": {top[-1]}, "SW": {bottom[0]}, "SE": {bottom[-1]}}
        if self.shape == "hex-triangle":
            return {"N": {top[0]}, "SW": {bottom[0]}, "SE": {bottom[-1]}}
        mid = self.rows[self.a - 1]
        return {"NW": {top[0]}, "NE": {top[-1]}, "W": {mid[0]}, "E": {mid[-1]},
                "SW": {bottom[0]}, "SE": {bottom[-1]}}

    @property
    def regular(self) -> bool:
        """Not degenerate: at least two cells along every side, so corners have names."""
        return self.a >= 2 and (self.shape != "rectangle" or self.b >= 2)

    def corner_sites(self) -> set[Cell]:
        """The corner sites: those on two sides at once."""
        sides = list(self.sides().values())
        return {c for c in self.cells if sum(c in s for s in sides) >= 2}

    def side(self, name: str, corners: bool = True) -> set[Cell]:
        sides = self.sides()
        out = set(sides[name])
        if not corners:
            for other, cells in sides.items():
                if other != name:
                    out -= cells
        return out

    def perimeter(self) -> set[Cell]:
        full = 6 if self.hex else 8
        return {c for c in self.cells if len(self.neighbours(c, self.dirs)) < full}

    def centre(self) -> set[Cell]:
        pts = [self.euclid(c) for c in self.cells]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        dist = {c: (p[0] - cx) ** 2 + (p[1] - cy) ** 2 for c, p in zip(self.cells, pts,
                                                                       strict=True)}
        best = min(dist.values())
        return {c for c, d in dist.items() if d < best + 1e-9}


def components(board: Board, cells: set[Cell], dirs: Iterable[str]) -> list[set[Cell]]:
    """The connected components of `cells` under the directions."""
    dirs = list(dirs)
    seen: set[Cell] = set()
    out = []
    for c in cells:
        if c in seen:
            continue
        comp, todo = {c}, [c]
        seen.add(c)
        while todo:
            x = todo.pop()
            for t in board.neighbours(x, dirs):
                if t in cells and t not in seen:
                    seen.add(t)
                    comp.add(t)
                    todo.append(t)
        out.append(comp)
    return out


def connected(board: Board, stones: set[Cell], regions: list[set[Cell]], at_least: int,
              dirs: Iterable[str]) -> bool:
    """One chain of the stones touches `at_least` of the regions."""
    return any(sum(1 for r in regions if r & comp) >= at_least
               for comp in components(board, stones, dirs))


def has_ring(board: Board, stones: set[Cell], by: Iterable[str]) -> bool:
    """A closed chain of the stones (adjacent by `by`) surrounds at least one site whose
    surrounded area does not reach the edge. A site c is surrounded when, with c taken out of
    the stones, c cannot reach the board's edge through non-stone sites (moving by the dual
    adjacency: all six on hex; on squares, eight for orthogonal chains and four for chains
    that may also step diagonally)."""
    by = set(by)
    if board.hex:
        escape = list(HEX_DIRS)
    else:
        escape = COMPASS if by <= {"N", "E", "S", "W"} else ["N", "E", "S", "W"]
    edge = board.perimeter()
    for c in board.cells:
        if c in edge:
            continue
        walls = stones - {c}
        seen, todo, out = {c}, [c], False
        while todo and not out:
            x = todo.pop()
            for t in board.neighbours(x, escape):
                if t in walls or t in seen:
                    continue
                if t in edge:
                    out = True
                    break
                seen.add(t)
                todo.append(t)
        if not out:
            return True
    return False


def longest_runs(board: Board, stones: set[Cell], axes: list[tuple[str, str]]) -> list[int]:
    """The lengths of every maximal run of the stones along the axes."""
    out = []
    for d, back in axes:
        for c in stones:
            p = board.step(c, back)
            if p is not None and p in stones:
                continue  # not the start of a run
            n, t = 1, board.step(c, d)
            while t is not None and t in stones:
                n += 1
                t = board.step(t, d)
            out.append(n)
    return out


# -- games and positions ---------------------------------------------------------------------

ROLE_NAMES = ("Amber", "Blue", "Cyan", "Dun")  # symbols A B C D (the names' first letters)
NEUTRALS = (("Stone", "x"), ("Wall", "w"))
SPECIAL = "*"


@dataclass
class Position:
    """A random position: the board, the roles, what each cell holds and who moves."""

    board: Board
    roles: tuple[str, ...]
    neutrals: tuple[tuple[str, str], ...]
    specials: frozenset[Cell]
    content: dict[Cell, str]  # cell -> symbol; empty cells absent
    mover: int  # index of the role to move

    @property
    def last(self) -> int:
        """The role before the mover: `Mover` in end conditions judged by from_text."""
        return (self.mover - 1) % len(self.roles)

    def symbol(self, role: int) -> str:
        return self.roles[role][0]

    def stones(self, role: int) -> set[Cell]:
        s = self.symbol(role)
        return {c for c, v in self.content.items() if v == s}

    def empty(self) -> set[Cell]:
        return {c for c in self.board.cells if c not in self.content}

    def owner(self, c: Cell) -> int | None:
        """The role owning the piece on c (None: empty, special or neutral)."""
        v = self.content.get(c)
        for i in range(len(self.roles)):
            if v == self.symbol(i):
                return i
        return None

    def text(self) -> str:
        return self.board.render(self.content, [f"mover: {self.roles[self.mover]}"])

    def names(self, cells: Iterable[Cell]) -> set[str]:
        return {self.board.names[c] for c in cells}


def game_text(pos: Position, play: str = "(place (sites Empty))", end: str = "(if (= 1 0) (draw))",
              player_extra: dict[int, str] | None = None, start: str = "") -> str:
    """A small game on the position's board with its roles, neutral pieces and specials."""
    extra = player_extra or {}
    players = " ".join(f'(player "{r}"{" " + extra[i] if i in extra else ""})'
                       for i, r in enumerate(pos.roles))
    sections = [f"(players {{{players}}})", f"(board {pos.board.ludeme})"]
    if pos.neutrals:
        pieces = " ".join(f'(piece "{n}" symbol:"{s}")' for n, s in pos.neutrals)
        sections.append(f"(pieces {{{pieces}}})")
    if pos.specials:
        sites = " ".join(f'"{n}"' for n in sorted(pos.names(pos.specials)))
        sections.append(f'(special "mine" (sites {{{sites}}}) symbol:"{SPECIAL}")')
    if start:
        sections.append(start)
    sections += [f"(play {play})", f"(end {end})"]
    return '(game "Referee"\n  ' + "\n  ".join(sections) + ")\n"


# -- shared by the referee tests -----------------------------------------------------------------

CondFn = Callable[["Position", int, Cell], bool]

KINDS = ["Empty", "Occupied", "Friend", "Enemy", "EmptyOrEnemy"]


def sites_list(names: set[str]) -> str:
    """A (sites {...}) form naming the sites, in order."""
    return "(sites {" + " ".join(f'"{n}"' for n in sorted(names)) + "})"


def cell_holds(pos: Position, kind: str, c: Cell, who: int) -> bool:
    """(is KIND c) for role `who`: neutral pieces are nobody's; a special site is empty (as
    the engine has it: `(is Empty ...)` sees a special site's empty board value)."""
    v = pos.content.get(c)
    if v == SPECIAL:
        v = None
    o = pos.owner(c)
    if kind == "Any":
        return True
    if kind == "Empty":
        return v is None
    if kind == "Occupied":
        return v is not None
    if kind == "Friend":
        return o == who
    if kind == "Enemy":
        return o is not None and o != who
    if kind == "EmptyOrEnemy":
        return v is None or (o is not None and o != who)
    raise AssertionError(kind)


# -- the engine under test, as the referee tests call it ---------------------------------------


@functools.lru_cache(maxsize=512)
def compiled(text: str) -> Any:
    """The game a generated game text compiles to (each text compiled once)."""
    from interpreter import parse_game

    return parse_game(text, source="referee.game")


def judged(pos: Position, end: str, **kw: str) -> str | None:
    """The winner from_text finds for a game whose only end condition is `end`."""
    return compiled(game_text(pos, end=end, **kw)).from_text(pos.text()).winner


def present(board: Board) -> list[str]:
    """The directions in which some site has a neighbour (a board one cell wide has no E)."""
    return [d for d in sorted(board.dirs) if any(board.step(c, d) for c in board.cells)] or \
        ["Adjacent"]
