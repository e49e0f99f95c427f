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
    statistics_add_up(tree)
    # Each node's state is its parent's with its action made (replayed from the root).
    for node in tree.children(0)[:3]:
        st = kernel.encode(game.initial_state())
        kernel.apply(st, int(tree.action[node]))
        assert np.array_equal(tree.state(node), st)


def statistics_add_up(tree: NativeTree) -> None:
    """A node's visits are its own first one plus its children's (more if it is proven: a
    proven node is visited again without going below), its summed score at most its visits,
    and it was moved into by the role to move at its parent."""
    for node in range(1, tree.nodes):
        below = sum(int(tree.visits[c]) for c in tree.children(node))
        if tree.proof(node) is None:
            assert tree.visits[node] == 1 + below
        else:
            assert tree.visits[node] >= 1 + below
        assert 0 <= tree.value[node] <= tree.visits[node]
        assert tree.seat[node] == tree.mover[tree.parent[node]]


def subtree(tree: NativeTree, node: int) -> tuple[object, ...]:
    """What the tree knows below a node (and of it, but for the role that moved into it):
    its action, mover, visits, summed score, proof, untried moves, and its children's."""
    at, left = int(tree.pool_at[node]), int(tree.pool_left[node])
    untried = list(zip(tree.pool_act[at:at + left].tolist(),
                       tree.pool_tag[at:at + left].tolist(), strict=True)) if at >= 0 else None
    return (int(tree.action[node]), int(tree.tag[node]), int(tree.mover[node]),
            int(tree.visits[node]), float(tree.value[node]), int(tree.proven[node]), untried,
            [subtree(tree, c) for c in tree.children(node)])


def test_a_subtree_is_kept_for_the_next_search() -> None:
    """The node of the position two moves on is found, made the root with all it knew
    (renumbered from 0, the rest dropped), and the search goes on from it."""
    game, kernel = kernel_of("connectfour.game")
    start = game.initial_state()
    tree = NativeTree(kernel, kernel.encode(start))
    tree.run(3000, 7, 1.0)
    mine = max(tree.children(0), key=lambda c: int(tree.visits[c]))
    reply = max(tree.children(mine), key=lambda c: int(tree.visits[c]))
    after = start.apply_action(int(tree.action[mine])).apply_action(int(tree.action[reply]))
    assert tree.find(start, mine) == -1  # (not at or below the move: the start)
    assert tree.find(after, 0) == tree.find(after, mine) == reply
    before = subtree(tree, reply)
    size = sum(1 for n in range(tree.nodes) if _below(tree, n, reply))
    tree.keep(reply, kernel.encode(after))
    assert tree.nodes == size and tree.seat[0] == -1 and tree.parent[0] == -1
    assert subtree(tree, 0) == before
    assert np.array_equal(tree.root, kernel.encode(after))
    kept = int(tree.visits[0])
    assert tree.run(1000, 8, 1.0) == 1000
    assert tree.visits[0] == kept + 1000
    statistics_add_up(tree)
    for node in tree.children(0)[:3]:  # the states replayed from the new root
        st = kernel.encode(after)
        kernel.apply(st, int(tree.action[node]))
        assert np.array_equal(tree.state(node), st)


def _below(tree: NativeTree, node: int, top: int) -> bool:
    while node > top:
        node = int(tree.parent[node])
    return node == top


def test_the_agent_goes_on_with_the_tree_of_the_position_it_is_asked_about() -> None:
    game, _ = kernel_of("connectfour.game")
    state = game.initial_state()
    agent, fresh = MCTSAgent(2000, seed=1), MCTSAgent(2000, seed=1, keep=False)
    move = agent.choose(state)
    assert fresh.choose(state) == move
    assert isinstance(agent.tree, NativeNode) and agent.report is not None
    assert agent.report.kept == 0
    mine = max(agent.tree.children, key=lambda c: (c.visits, c.reward))  # (the move chosen)
    assert state.apply_action(mine.action).board == state.play(move).board
    reply = max(mine.children, key=lambda c: c.visits)
    after = state.play(move).apply_action(reply.action)
    known = reply.visits  # (the tree is renumbered by the next search)
    agent.choose(after)
    fresh.choose(after)
    assert agent.report.kept == known > 0
    assert agent.tree.visits == known + 2000
    assert fresh.report is not None and fresh.report.kept == 0
    assert fresh.tree is not None and fresh.tree.visits == 2000
    # A position from elsewhere starts a new tree.
    agent.choose(game.initial_state().play("a1"))
    assert agent.report.kept == 0


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
