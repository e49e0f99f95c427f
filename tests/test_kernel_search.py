"""MCTS natively in a game's kernel (interpreter/kernel/search.py, issue 26 item 6): the
whole UCT loop compiled with the game's rules, its tree in arrays. It finds forced wins and
proves them, a seed gives the same tree whatever the batches it runs in (and the arrays'
growth), and its statistics add up: every iteration visits the root and one of its
children, and a node's visits are its own first one plus its children's."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from interpreter import load_game, parse_game
from interpreter.agents import MCTSAgent
from interpreter.game import Game, State
from interpreter.kernel import available, kernel_for, why_interpreted
from interpreter.kernel.kernel import Kernel
from interpreter.kernel.search import NativeNode, NativeTree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from chess_fen import fen_to_text  # noqa: E402

pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

# After 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 mates.
SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def kernel_of(name: str) -> tuple[Game, Kernel]:
    game = load_game(str(ROOT / "games" / name))
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    return game, kernel


def connect_four_threat() -> State:
    """Red on c1, d1 and e1, Yellow above them: Red to move wins with b1 or f1."""
    game, _ = kernel_of("connectfour.game")
    state = game.initial_state()
    for move in ("c1", "c2", "d1", "d2", "e1", "e2"):
        state = state.play(move)
    return state


def tree_arrays(tree: NativeTree) -> list[list[float]]:
    n = tree.nodes
    return [a[:n].tolist() for a in (tree.parent, tree.action, tree.tag, tree.seat,
                                     tree.mover, tree.proven, tree.visits, tree.value)]


def test_mate_in_one_is_found_and_proven() -> None:
    game, _ = kernel_of("chess.game")
    state = game.from_text(fen_to_text(SCHOLARS))
    agent = MCTSAgent(20_000, seed=3, kernel=True)
    move = agent.choose(state)
    assert str(move) == "h5-f7"
    after = state.play(move)
    assert after.is_over and after.winner == "White"
    assert isinstance(agent.tree, NativeNode)
    report = agent.report
    assert report is not None and report.proven and report.expected == 1.0
    assert report.iterations < 20_000  # stopped once the root was proven


def test_connect_four_win_is_taken() -> None:
    state = connect_four_threat()
    for seed in range(3):
        agent = MCTSAgent(3000, seed=seed, kernel=True)
        move = agent.choose(state)
        assert str(move) in ("b1", "f1")
        assert state.play(move).winner == "Red"
        assert agent.report is not None and agent.report.expected == 1.0


def test_the_same_seed_makes_the_same_tree_whatever_the_batches() -> None:
    game, kernel = kernel_of("connectfour.game")
    st = kernel.encode(game.initial_state())
    whole = NativeTree(kernel, st)
    assert whole.run(600, 11, 1.0) == 600
    batched = NativeTree(kernel, st, nodes=4, pool=8)  # grown several times on the way
    ran = batched.run(1, 11, 1.0)
    while ran < 600:
        ran += batched.run(min(37, 600 - ran), -1, 1.0)
    assert batched.parent.shape[0] > 4
    assert tree_arrays(batched) == tree_arrays(whole)
    other = NativeTree(kernel, st)
    other.run(600, 12, 1.0)
    assert tree_arrays(other) != tree_arrays(whole)
    agents = [MCTSAgent(400, seed=5, kernel=True) for _ in range(2)]
    assert agents[0].choose(game.initial_state()) == agents[1].choose(game.initial_state())


@pytest.mark.parametrize("name", ["connectfour.game", "tictactoe.game"])
def test_visits_add_up_to_the_iterations(name: str) -> None:
    game, kernel = kernel_of(name)
    tree = NativeTree(kernel, kernel.encode(game.initial_state()))
    assert tree.run(2000, 1, 1.0) == 2000
    assert tree.visits[0] == 2000
    assert sum(int(tree.visits[c]) for c in tree.children(0)) == 2000
    for node in range(1, tree.nodes):
        below = sum(int(tree.visits[c]) for c in tree.children(node))
        if tree.proof(node) is None:
            assert tree.visits[node] == 1 + below
        else:
            assert tree.visits[node] >= 1 + below
        assert 0 <= tree.value[node] <= tree.visits[node]
        assert tree.seat[node] == tree.mover[tree.parent[node]]
    # Each node's state is its parent's with its action made (replayed from the root).
    for node in tree.children(0)[:3]:
        st = kernel.encode(game.initial_state())
        kernel.apply(st, int(tree.action[node]))
        assert np.array_equal(tree.state(node), st)


def test_a_time_budget_is_kept_between_batches() -> None:
    game, _ = kernel_of("connectfour.game")
    agent = MCTSAgent(None, 0.3, seed=1, kernel=True)
    agent.choose(game.initial_state())  # (compiles the search before its clock starts)
    report = agent.report
    assert report is not None and report.iterations > 1
    assert 0.3 <= report.seconds < 0.3 + 0.25


NEVER_ENDS = """(game "Never Ends"
  (players {(player "X") (player "O")})
  (board (square 2))
  (play (place (sites Empty)))
  (end (if (line 5) (win Mover))))
"""


def test_a_position_where_nobody_can_move_is_proven_at_once() -> None:
    """The board full and no end: the node made by the last placement is proven (no end,
    half a point each) in the iteration that makes it, as the interpreter's search does."""
    game = parse_game(NEVER_ENDS, "never.game")
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    tree = NativeTree(kernel, kernel.encode(game.from_text("X O\nX .\nmover: O")))
    assert tree.run(1, 1, 1.0) == 1
    assert tree.children(0) == [1]
    assert tree.proof(1) == [0.5, 0.5] and tree.value[1] == 0.5
    assert tree.proof(0) is None  # (draws are proven only where the game ends)
