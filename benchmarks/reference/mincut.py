"""Random games of Mincut, written by hand: the same rules as games/mincut.game.

An n x n board; Red (first) joins top and bottom, Blue left and right, with orthogonal chains.
A turn: place on an empty site that forms no crosscut if there is one; otherwise step a stone
diagonally to an empty site strictly closer to the centre without forming a crosscut;
otherwise pass. Two passes in succession draw.
"""

from __future__ import annotations

import random

RED, BLUE, EMPTY = 0, 1, -1
DRAW = -1


class Board:
    def __init__(self, n: int) -> None:
        self.n = n
        self.cells = [EMPTY] * (n * n)
        self.orthogonal = [self._around(s, ((0, 1), (1, 0), (0, -1), (-1, 0))) for s in
                           range(n * n)]
        self.diagonal = [self._around(s, ((1, 1), (1, -1), (-1, 1), (-1, -1))) for s in
                         range(n * n)]
        # The 2x2 squares containing each site, as (a, b, c, d) with a-d and b-c diagonals.
        self.squares: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n * n)]
        for x in range(n - 1):
            for y in range(n - 1):
                sq = (y * n + x, y * n + x + 1, (y + 1) * n + x, (y + 1) * n + x + 1)
                for s in sq:
                    self.squares[s].append((sq[0], sq[1], sq[2], sq[3]))
        self.distance = [(2 * (s % n) - n + 1) ** 2 + (2 * (s // n) - n + 1) ** 2
                         for s in range(n * n)]

    def _around(self, s: int, offsets: tuple[tuple[int, int], ...]) -> list[int]:
        n = self.n
        x, y = s % n, s // n
        return [(y + dy) * n + x + dx for dx, dy in offsets
                if 0 <= x + dx < n and 0 <= y + dy < n]

    def crosscut_at(self, s: int) -> bool:
        cells = self.cells
        for a, b, c, d in self.squares[s]:
            ca, cb, cc, cd = cells[a], cells[b], cells[c], cells[d]
            if EMPTY not in (ca, cb, cc, cd) and ca == cd and cb == cc and ca != cb:
                return True
        return False

    def connected(self, player: int) -> bool:
        n, cells = self.n, self.cells
        if player == RED:  # rows: y = 0 (bottom) to y = n - 1 (top)
            start = [x for x in range(n) if cells[x] == player]
            goal = {(n - 1) * n + x for x in range(n)}
        else:
            start = [y * n for y in range(n) if cells[y * n] == player]
            goal = {y * n + n - 1 for y in range(n)}
        seen = set(start)
        stack = start
        while stack:
            s = stack.pop()
            if s in goal:
                return True
            for t in self.orthogonal[s]:
                if t not in seen and cells[t] == player:
                    seen.add(t)
                    stack.append(t)
        return False


def playout(n: int, rng: random.Random) -> tuple[int, int]:
    """Play one random game; return the winner (or DRAW) and the number of moves."""
    board = Board(n)
    cells = board.cells
    player, passes, moves = RED, 0, 0
    while True:
        placements = []
        for s in range(n * n):
            if cells[s] == EMPTY:
                cells[s] = player
                if not board.crosscut_at(s):
                    placements.append(s)
                cells[s] = EMPTY
        moves += 1
        if placements:
            cells[rng.choice(placements)] = player
            passes = 0
        else:
            steps = []
            for s in range(n * n):
                if cells[s] != player:
                    continue
                for t in board.diagonal[s]:
                    if cells[t] == EMPTY and board.distance[t] < board.distance[s]:
                        cells[s], cells[t] = EMPTY, player
                        if not board.crosscut_at(t):
                            steps.append((s, t))
                        cells[s], cells[t] = player, EMPTY
            if steps:
                s, t = rng.choice(steps)
                cells[s], cells[t] = EMPTY, player
                passes = 0
            else:
                passes += 1
                if passes == 2:
                    return DRAW, moves
        if board.connected(player):
            return player, moves
        player = 1 - player
