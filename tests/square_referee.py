"""Rules checks on square boards written independently of the engine, shared by the Mincut and
Minefield tests. A board is a dict {(x, y): symbol} with x, y from 0 and y = 0 the bottom row."""

from __future__ import annotations


def connected(b: dict, n: int, sym: str, top_bottom: bool) -> bool:
    """Is there an orthogonal chain of `sym` joining the top and bottom rows (or, with
    top_bottom false, the left and right columns)?"""
    if top_bottom:
        start, goal = [(x, n - 1) for x in range(n)], (lambda p: p[1] == 0)
    else:
        start, goal = [(0, y) for y in range(n)], (lambda p: p[0] == n - 1)
    seen = {p for p in start if b[p] == sym}
    todo = list(seen)
    while todo:
        p = todo.pop()
        if goal(p):
            return True
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (p[0] + dx, p[1] + dy)
            if b.get(q) == sym and q not in seen:
                seen.add(q)
                todo.append(q)
    return False
