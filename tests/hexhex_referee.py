"""Mineway's rules on a hexhex board, written independently of the engine (from
docs/rules/mineway.md), shared by the Mineway tests.

A cell of the side-n board is (x, y) with y = row - n (0 is the centre row, up is +) and x in
half-cell units, x = |y| + 2 * (position in the row, from 0); in position text the row with
ordinate y is indented by |y| spaces, so a cell's x is also its column in the text. The six
neighbours of (x, y) are E (x+2, y), W (x-2, y), NE (x+1, y+1), NW (x-1, y+1), SE (x+1, y-1),
SW (x-1, y-1); the rules' "lines" are these six rays continued.
"""

from __future__ import annotations

DIRS = {"E": (2, 0), "W": (-2, 0), "NE": (1, 1), "NW": (-1, 1), "SE": (1, -1), "SW": (-1, -1)}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SYM = {"Silver": "S", "Gold": "G"}
OTHER = {"Silver": "Gold", "Gold": "Silver"}


class Hex:
    def __init__(self, n: int) -> None:
        self.n = n
        self.rows = [[(abs(y) + 2 * c, y) for c in range(2 * n - 1 - abs(y))]
                     for y in range(n - 1, -n, -1)]
        self.cells = [c for row in self.rows for c in row]
        self.cellset = set(self.cells)
        self.mine = (2 * (n - 1), 0)
        self.perimeter = {c for c in self.cells if len(self.neighbours(c)) < 6}
        self.rays = {c: [self.ray(c, d) for d in DIRS] for c in self.cells}

    def name(self, cell) -> str:
        x, y = cell
        return LETTERS[(x - abs(y)) // 2] + str(y + self.n)

    def cell(self, name: str):
        y = int(name[1:]) - self.n
        return (abs(y) + 2 * LETTERS.index(name[0]), y)

    def neighbours(self, cell):
        x, y = cell
        return [(x + dx, y + dy) for dx, dy in DIRS.values() if (x + dx, y + dy) in self.cellset]

    def ray(self, cell, d: str):
        (dx, dy), (x, y), out = DIRS[d], cell, []
        while (x + dx, y + dy) in self.cellset:
            x, y = x + dx, y + dy
            out.append((x, y))
        return out

    def parse(self, text: str):
        """Stones {cell: 'S'|'G'} and the mover of a position text."""
        board = [line for line in text.splitlines() if line.strip() and ":" not in line]
        keys = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
        assert len(board) == len(self.rows)
        stones = {}
        for line, row in zip(board, self.rows, strict=True):
            # the text's layout is the geometry: a cell's x is its column in the line
            assert line.rstrip() == " " * abs(row[0][1]) + line.strip(), line
            for cell in row:
                ch = line[cell[0]]
                if cell == self.mine:
                    assert ch == "*", "the mine holds a stone"
                elif ch != ".":
                    assert ch in "SG", ch
                    stones[cell] = ch
        return stones, keys["mover"].strip()

    # The rules' definitions. The mine is never in `stones`, so it counts as empty on a line.
    def drops(self, stones, p: str, border_drops: bool = False) -> set[str]:
        """Names of the empty cells (not the mine) where p may drop."""
        out = set()
        for c in self.cells:
            if c in stones or c == self.mine:
                continue
            ok = False
            for ray in self.rays[c]:
                for between, t in enumerate(ray):
                    if t in stones:
                        ok |= stones[t] == p and between >= 1
                        break
            if border_drops and c in self.perimeter:
                ok |= any(stones.get(t) == p for t in self.neighbours(c))
            if ok:
                out.add(self.name(c))
        return out

    def can_travel(self, stones, p: str) -> bool:
        seen, todo = {self.mine}, [self.mine]
        while todo:
            u = todo.pop()
            for ray in self.rays[u]:
                for between, t in enumerate(ray):
                    if t in stones:
                        # mine -> station: adjacent or through empties;
                        # station -> station: at least one empty cell between
                        if stones[t] == p and (u == self.mine or between >= 1) and t not in seen:
                            seen.add(t)
                            todo.append(t)
                        break
                    if u != self.mine and t in self.perimeter:
                        return True  # station -> border crossing (adjacent or along a line)
        return False
