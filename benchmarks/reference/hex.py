"""Random games of Hex, written by hand: the same rules as games/hex.game, no interpreter.

An n x n rhombus; cell (r, c) touches (r, c±1), (r-1, c), (r-1, c+1), (r+1, c-1), (r+1, c).
Red (first) joins the top and bottom rows, Blue the left and right columns. A union-find with
four virtual nodes for the sides tells at once when a placement completes a connection.
"""

from __future__ import annotations

import random

RED, BLUE = 0, 1


def neighbours(n: int) -> list[list[int]]:
    out = []
    for r in range(n):
        for c in range(n):
            cells = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1),
                     (r + 1, c)]
            out.append([rr * n + cc for rr, cc in cells if 0 <= rr < n and 0 <= cc < n])
    return out


def playout(n: int, rng: random.Random, adjacent: list[list[int]] | None = None
            ) -> tuple[int, int]:
    """Play one random game; return the winner and the number of moves."""
    adjacent = adjacent or neighbours(n)
    size = n * n
    top, bottom, left, right = size, size + 1, size + 2, size + 3
    parent = list(range(size + 4))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    board = [-1] * size
    empty = list(range(size))
    player = RED
    moves = 0
    while True:
        i = rng.randrange(len(empty))
        cell = empty[i]
        empty[i] = empty[-1]
        empty.pop()
        board[cell] = player
        moves += 1
        r, c = divmod(cell, n)
        if player == RED:
            if r == 0:
                union(cell, top)
            if r == n - 1:
                union(cell, bottom)
        else:
            if c == 0:
                union(cell, left)
            if c == n - 1:
                union(cell, right)
        for other in adjacent[cell]:
            if board[other] == player:
                union(cell, other)
        if (player == RED and find(top) == find(bottom)) or \
                (player == BLUE and find(left) == find(right)):
            return player, moves
        player = 1 - player
