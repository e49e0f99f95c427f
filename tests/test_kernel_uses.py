"""Where random games use a game's kernel (issue 26 items 2 and 6): `game.playouts`,
`validate --playouts` / `playout`, `analyze` between random agents, and MCTS. The kernels
themselves are checked against the interpreter in tests/test_kernels.py; here, that these
users get the same answers whichever way they run (workers, batches, tasks), that what they
count agrees with the interpreter replaying the kernel's games, and that a game without a
kernel falls back to the interpreter (or, asked for the kernel, says why)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from console import ludeme

from interpreter import GameError, load_game, parse_game
from interpreter.agents import Agent, KernelNode, MCTSAgent, RandomAgent
from interpreter.analyze import GameTask, Report, Turns, analyze, game_seed, run_local
from interpreter.game import Game
from interpreter.kernel import available, kernel_for, why_interpreted
from interpreter.kernel.search import NativeNode

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                "installed: pip install -e '.[kernels]'")

TWO_STONES = """(game "Two Stones"
  (players {(player "X") (player "O")})
  (board (square 4))
  (play (place (sites Empty)) (place (sites Empty)))
  (end (if (line 3) (win Mover)) (if (full) (draw))))
"""


def game(name: str) -> Game:
    return load_game(str(ROOT / "games" / name))


# Games written with a form that has no kernel lowering yet (the first that still has none is
# used, once every game file has a kernel): groups counted, a site found by its offset.
UNLOWERED = [
    """(game "Few Groups"
  (players {(player "Black") (player "White")})
  (board (square 4))
  (play (place (sites Empty)))
  (end (if (> (count-groups Mover by:Orthogonal) 3) (win Next)) (if (full) (draw))))""",
    """(game "Offsets"
  (players {(player "Black") (player "White")})
  (board (square 4))
  (play (place (sites Empty) if:(is Empty (site-at To 1 0))))
  (end (if (line 3) (win Mover)) (if (full) (draw))))"""]


def interpreted_file(tmp: Path, chance: bool = True) -> Path:
    """A game file that runs interpreted today (which one changes as lowerings arrive);
    with chance=False, one without dice: a game file of games/, else one of UNLOWERED
    written into `tmp`."""
    for path in sorted((ROOT / "games").glob("*.game")):
        g = load_game(str(path))
        if why_interpreted(g) is not None and (chance or not g.has_chance):
            return path
    for i, text in enumerate(UNLOWERED):
        if why_interpreted(parse_game(text, "unlowered.game")) is not None:
            path = tmp / f"unlowered-{i}.game"
            path.write_text(text, encoding="utf-8")
            return path
    pytest.skip("every game file and every game of UNLOWERED has a kernel")


# game.playouts -------------------------------------------------------------------------------

def test_kernel_playouts_are_the_same_whatever_the_workers() -> None:
    g = game("connectfour.game")
    one = g.playouts(40, seed=7)
    two = g.playouts(40, seed=7, workers=3)
    assert (one.winners, one.lengths, one.reasons) == (two.winners, two.lengths, two.reasons)
    assert set(one.reasons) <= {"4 in a row", "the board is full"}
    assert g.playouts(40, seed=8).lengths != one.lengths


def test_kernel_playouts_are_the_kernels_games() -> None:
    """Game i is the kernel's random game from game_seed(base, i): replayed in the
    interpreter it has the same winner, length and ending."""
    g = game("tictactoe.game")
    kernel = kernel_for(g)
    assert kernel is not None
    found = g.playouts(30, seed=3)
    for i in range(30):
        state = g.initial_state()
        actions = kernel.playout_actions(game_seed(3, i))
        for action in actions:
            state = state.apply_action(action)
        assert (state.winner, len(actions), state.reason) == \
            (found.winners[i], found.lengths[i], found.reasons[i])


def test_kernel_false_plays_interpreted_and_true_requires_a_kernel(tmp_path: Path) -> None:
    g = game("tictactoe.game")
    assert g.playouts(20, seed=1, kernel=False).winners != g.playouts(20, seed=1).winners
    other = load_game(str(interpreted_file(tmp_path)))
    assert len(other.playouts(2, seed=1).winners) == 2  # no kernel: interpreted
    with pytest.raises(GameError, match=re.escape(why_interpreted(other) or "?")):
        other.playouts(2, seed=1, kernel=True)


# What validate and analyze count ----------------------------------------------------------------

def test_counted_games_agree_with_the_interpreter_replaying_them() -> None:
    """Turns (two decisions a turn here), decisions, branching and endings as counted in the
    kernel are what the interpreter finds replaying the same games."""
    from interpreter.kernel.stats import count_playouts

    g = parse_game(TWO_STONES, "two-stones.game")
    kernel = kernel_for(g)
    assert kernel is not None, why_interpreted(g)
    seeds = [game_seed(5, i) for i in range(25)]
    found = count_playouts(kernel, seeds)
    for i, seed in enumerate(seeds):
        state, turns, branching = g.initial_state(), Turns(), 0
        for action in kernel.playout_actions(seed):
            moves = state.legal_moves()
            turns.decided(state, moves)
            branching += len(moves)
            state = state.apply_action(action)
        assert found.turns[i] == turns.count
        assert found.decisions[i] == len(kernel.playout_actions(seed))
        assert found.branching[i] == branching
        assert found.winners[i] == state.winner and found.reasons[i] == state.reason
    assert any(t != d for t, d in zip(found.turns, found.decisions, strict=True))


def test_counted_games_are_the_kernels_games_with_chance() -> None:
    """The counting loop draws chance outcomes with their probabilities, as the kernel's
    playouts do: the same seeds give the same games."""
    from interpreter.kernel.stats import count_playouts

    g = load_game(str(ROOT / "examples" / "dice-race.game"))
    kernel = kernel_for(g)
    assert kernel is not None, why_interpreted(g)
    seeds = [game_seed(7, i) for i in range(60)]
    found = count_playouts(kernel, seeds)
    played = kernel.playouts(seeds)
    assert found.decisions == played.lengths and found.winners == played.winners


def test_validate_says_the_game_runs_natively() -> None:
    r = ludeme("validate", "--playouts", "50", "--seed", "1", "games/connectfour.game")
    assert r.returncode == 0, r.stderr
    assert re.search(r"^  kernel: native \(compiled in \d+\.\d s\)$", r.stdout, re.M), r.stdout
    wins = [int(n) for n in re.findall(r"^\s*(?:Red|Yellow) wins: (\d+)", r.stdout, re.M)]
    draws = re.search(r"^\s*draws: (\d+)", r.stdout, re.M)
    assert draws and sum(wins) + int(draws[1]) == 50, r.stdout
    assert "ended by 4 in a row:" in r.stdout


def test_validate_names_the_form_that_keeps_a_game_interpreted(tmp_path: Path) -> None:
    path = interpreted_file(tmp_path)
    why = why_interpreted(load_game(str(path)))
    r = ludeme("validate", "--playouts", "3", "--seed", "1", str(path))
    assert r.returncode == 0, r.stderr
    assert f"  kernel: interpreted: {why}\n" in r.stdout, r.stdout


def test_validate_shows_a_stuck_kernel_game_replayed_in_the_interpreter(tmp_path: Path) -> None:
    text = ('(game "Never Ends"\n  (players {(player "X") (player "O")})\n'
            '  (board (square 2))\n  (play (place (sites Empty)))\n'
            '  (end (if (line 5) (win Mover))))\n')
    (tmp_path / "never.game").write_text(text, encoding="utf-8")
    r = ludeme("validate", "--playouts", "5", "never.game", cwd=tmp_path)
    assert "kernel: native" in r.stdout, r.stdout
    assert "5 games reached a position where the player to move has no legal move" in r.stdout
    board = r.stdout.split("the first:\n")[1].splitlines()[:2]
    assert sorted((board[0] + " " + board[1]).split()) == ["O", "O", "X", "X"], r.stdout


def test_analyze_in_the_kernel_is_the_same_in_batches_and_in_tasks() -> None:
    """Locally the games run in batches in this process; on Ray (or any runner) a task per
    game: the same games."""
    g = game("connectfour.game")
    batched = analyze(g, "random", 60, seed=4)
    text, source = g.env.text or "", g.expansion.game.span.path
    tasks = [GameTask(text, source, (), ("random", "random"), game_seed(4, i), i, None, True)
             for i in range(60)]
    tasked = Report(g.name, g.players, ("random", "random"), 4, list(run_local(tasks, 2)))
    assert tasked.summary() == batched.summary()
    s = batched.summary()
    assert s["games"] == 60 and not s["crashes"] and s["moves"]["place"]["share"] == 1.0
    assert 1 < s["branching"] <= 7
    assert analyze(g, "random", 60, seed=4, kernel=False).summary() != s


def test_analyze_of_searching_agents_stays_interpreted() -> None:
    g = game("tictactoe.game")
    with pytest.raises(GameError, match="random agents"):
        analyze(g, "mcts:5", 2, seed=1, kernel=True)
    assert analyze(g, "mcts:5,random", 2, seed=1, workers=1).summary()["games"] == 2


# MCTS ---------------------------------------------------------------------------------------------

def test_mcts_in_the_kernel_plays_legal_games_and_beats_random_play() -> None:
    g = game("connectfour.game")
    wins = 0
    for i in range(4):
        agents: list[Agent] = [MCTSAgent(200, seed=i, kernel=True), RandomAgent(100 + i)]
        if i % 2:
            agents.reverse()
        state = g.initial_state()
        while not state.is_over:
            move = agents[state.to_move].choose(state)
            assert move in state.legal_moves()
            state = state.play(move)
        wins += state.winner == g.players[i % 2]
    assert wins >= 3


def test_mcts_in_the_kernel_takes_a_win_and_proves_it() -> None:
    g = game("tictactoe.game")
    state = g.from_text("O . X\n. O .\nX . .\nmover: X")
    agent = MCTSAgent(5000, seed=1, kernel=True)
    assert str(agent.choose(state)) == "c1"
    assert isinstance(agent.tree, NativeNode)
    assert agent.report is not None and agent.report.expected == 1.0
    assert agent.report.iterations < 5000
    one = MCTSAgent(300, seed=4, kernel=True).choose(g.initial_state())
    assert one == MCTSAgent(300, seed=4, kernel=True).choose(g.initial_state())  # seeded


@pytest.mark.parametrize("native", [True, False])
def test_mcts_in_the_kernel_credits_each_decision_to_its_mover(native: bool) -> None:
    """The native tree (its nodes' states replayed from the root) and the Python tree of
    kernel states alike."""
    g = parse_game(TWO_STONES, "two-stones.game")
    if kernel_for(g) is None:
        pytest.skip(f"no kernel: {why_interpreted(g)}")
    agent = MCTSAgent(300, seed=2, kernel=True, native=native)
    agent.choose(g.initial_state())
    assert isinstance(agent.tree, NativeNode if native else KernelNode)
    kernel = kernel_for(g)
    assert kernel is not None
    stack = [agent.tree]
    steps = set()
    while stack:
        node = stack.pop()
        for child in node.children:
            assert child.seat == kernel.to_move(node.st) == node.to_move
            steps.add(kernel.turn_step(node.st)[1])
            assert 0 <= child.reward <= child.visits
            stack.append(child)
    assert steps == {0, 1}


def test_mcts_kernel_true_without_a_kernel_says_why(tmp_path: Path) -> None:
    other = load_game(str(interpreted_file(tmp_path, chance=False)))
    state = other.initial_state()
    with pytest.raises(GameError):
        MCTSAgent(10, seed=1, kernel=True).choose(state)
    assert MCTSAgent(10, seed=1).choose(state) in state.legal_moves()
