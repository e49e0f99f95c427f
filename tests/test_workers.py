"""The persistent worker pool of `game.playouts(..., workers=k)` (interpreter/workers.py):
calls reuse the same processes, give the games one process gives, take another game or
another number of workers, and leave no process behind once shut down."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter import load_game, workers
from interpreter.game import Game
from interpreter.playouts import Playouts

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def no_pool_left() -> Iterator[None]:
    workers.shutdown()
    yield
    workers.shutdown()
    assert workers.processes() == []


def game(name: str, **options: object) -> Game:
    return load_game(str(ROOT / "games" / name), **options)


def same(a: Playouts, b: Playouts) -> bool:
    return (a.winners, a.lengths, a.reasons) == (b.winners, b.lengths, b.reasons)


def test_calls_reuse_the_pool_and_play_the_games_of_one_process() -> None:
    g = game("tictactoe.game")
    one = g.playouts(50, seed=5)
    first = g.playouts(50, seed=5, workers=2)
    pids = workers.processes()
    assert len(pids) == 2 and os.getpid() not in pids
    second = g.playouts(50, seed=5, workers=2)
    assert workers.processes() == pids  # the same processes, not new ones
    assert same(one, first) and same(one, second)
    assert not same(one, g.playouts(50, seed=6, workers=2))


def test_another_game_and_other_options_on_the_same_pool() -> None:
    ttt = game("tictactoe.game")
    ttt.playouts(10, seed=1, workers=2)
    pids = workers.processes()
    for other in (game("connectfour.game"), game("hex.game", size=5)):
        assert same(other.playouts(30, seed=2), other.playouts(30, seed=2, workers=2))
    assert workers.processes() == pids
    assert set(ttt.playouts(60, seed=1, workers=2).reasons) == {"3 in a row", "the board is full"}


def test_interpreted_games_use_the_pool_too() -> None:
    g = game("tictactoe.game")
    one = g.playouts(12, seed=4, kernel=False)
    assert same(one, g.playouts(12, seed=4, workers=2, kernel=False))
    pids = workers.processes()
    assert len(pids) == 2
    assert same(one, g.playouts(12, seed=4, workers=2, kernel=False))
    assert workers.processes() == pids


def test_another_number_of_workers_replaces_the_pool() -> None:
    g = game("tictactoe.game")
    one = g.playouts(40, seed=9)
    assert same(one, g.playouts(40, seed=9, workers=2))
    two = workers.processes()
    assert same(one, g.playouts(40, seed=9, workers=3))
    three = workers.processes()
    assert len(three) == 3 and not set(two) & set(three)
    workers.shutdown()
    assert workers.processes() == []
    assert not set(two + three) & {p.pid for p in multiprocessing.active_children()}


def square(x: int) -> int:
    return x * x


def refuse_three(x: int) -> int:
    if x == 3:
        raise ValueError("no 3")
    return x


def test_a_tasks_error_is_raised_and_the_pool_kept_giving_up_drops_it() -> None:
    assert list(workers.run(square, [1, 2, 3], 2)) == [1, 4, 9]
    pids = workers.processes()
    with pytest.raises(ValueError, match="no 3"):
        list(workers.run(refuse_three, [1, 2, 3, 4], 2))
    assert workers.processes() == pids
    assert list(workers.run(square, list(range(5)), 2)) == [0, 1, 4, 9, 16]
    started = workers.run(square, list(range(100)), 2)
    assert next(started) == 0
    started.close()  # the consumer gave up: the rest dropped, the pool with it
    assert workers.processes() == []
    assert list(workers.run(square, [7], 2)) == [49]  # a new pool
    assert workers.processes() and not set(workers.processes()) & set(pids)


def test_the_workers_stop_when_the_process_exits() -> None:
    script = ("import sys; from interpreter import load_game, workers; "
              "g = load_game(sys.argv[1]); g.playouts(20, seed=1, workers=2); "
              "print(*workers.processes())")
    done = subprocess.run([sys.executable, "-c", script, str(ROOT / "games" / "tictactoe.game")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc here to look the processes up")
    for pid in pids:  # gone (or, at most, a zombie no one waits for: not running)
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                assert f.read().split(") ")[1][0] == "Z", pid
        except FileNotFoundError:
            pass
