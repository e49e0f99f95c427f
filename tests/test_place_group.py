"""place-group with each kind of onto:, against groups enumerated here: the position's kept
fitting flags (Empty, EmptyOrEnemy) and the site-by-site test (other kinds) both follow the
rule "every site holds what onto: says, at most max-replaced of them a piece"."""

from __future__ import annotations

import itertools
import random

import pytest

from interpreter import parse_game
from interpreter.game import State

GAME = """
(game "Dominoes"
  (players {{(player "A" symbol:"A") (player "B" symbol:"B")}})
  (board (square 4))
  (play (place-group 2 by:Orthogonal onto:{onto} max-replaced:{limit}))
  (end (if (stuck Next) (win Mover))))
"""


def expected(board: list[int], n: int, onto: str, limit: int, mover: int) -> set[str]:
    owner = {0: -1, 1: 0, 2: 1}

    def holds(v: int) -> bool:
        return {"Empty": v == 0, "Enemy": owner[v] not in (-1, mover),
                "EmptyOrEnemy": v == 0 or owner[v] not in (-1, mover),
                "Occupied": v != 0, "Any": True}[onto]

    out = set()
    for r, c in itertools.product(range(n), range(n)):
        for dr, dc in ((0, 1), (1, 0)):
            if r + dr < n and c + dc < n:
                pair = (r * n + c, (r + dr) * n + c + dc)
                if all(holds(board[s]) for s in pair) and \
                        sum(board[s] != 0 for s in pair) <= limit:
                    out.add(pair)
    return out


@pytest.mark.parametrize("onto", ["Empty", "EmptyOrEnemy", "Enemy", "Occupied", "Any"])
@pytest.mark.parametrize("limit", [0, 1, 2])
def test_groups_follow_onto_and_max_replaced(onto: str, limit: int) -> None:
    game = parse_game(GAME.format(onto=onto, limit=limit))
    rng = random.Random(f"{onto}{limit}")
    for _ in range(20):
        board = [rng.choice([0, 0, 1, 2]) for _ in range(16)]
        mover = rng.choice([0, 1])
        state = State(game, board, mover)
        found = {tuple(game.sites.index(name) for name in str(m).split(","))
                 for m in game.generate(state)}
        assert found == expected(board, 4, onto, limit, mover)
