"""`ludeme analyze`: many games between agents, combined into win rates with confidence
intervals, lengths, branching and kinds of move; the same for a seed whatever runs them."""

from __future__ import annotations

import importlib.util
import io
import json
import re
from pathlib import Path

import pytest
from console import ludeme

from interpreter import load_game, parse_game
from interpreter.analyze import analyze, game_seed, wilson

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_game_seeds_depend_on_base_and_index_only() -> None:
    seeds = {game_seed(b, i) for b in range(3) for i in range(50)}
    assert len(seeds) == 150
    assert game_seed(7, 3) == game_seed(7, 3)


def test_report_of_random_games() -> None:
    report = analyze(load_game(GAMES / "tictactoe.game"), "random", 60, seed=1, workers=1)
    s = report.summary()
    assert s["games"] == 60 and s["seed"] == 1
    assert s["agents"] == {"X": "random", "O": "random"}
    x, o = s["roles"]["X"], s["roles"]["O"]
    assert x["wins"] + o["wins"] + s["draws"] == 60
    for role in (x, o):
        low, high = role["ci95"]
        assert 0 <= low <= role["rate"] <= high <= 1
    assert x["wins"] > o["wins"]  # the first player's advantage, clear in 60 games
    assert 5 <= s["length"]["min"] <= s["length"]["mean"] <= s["length"]["max"] <= 9
    assert s["turns"] == s["length"]  # a turn is one move here, and no one is forced to pass
    assert 4 < s["branching"] < 7  # 9 moves, then 8, ...: about 5.7 on average
    assert s["moves"] == {"place": {"count": sum(r.plies for r in report.results),
                                    "share": 1.0}}
    assert s["bound_hits"] == 0 and s["stuck"] == 0 and s["crashes"] == []
    assert sum(s["endings"].values()) == 60
    text = "\n".join(report.lines())
    assert "60 games of Tic-Tac-Toe" in text and "95% CI" in text and "moves: place 100.0%" \
        in text
    assert re.search(r"^  length: mean [\d.]+, min \d+, max \d+ turns$", text, re.M), text


def test_agents_per_role() -> None:
    report = analyze(load_game(GAMES / "hex.game", size=3), "mcts:40,random", 10, seed=2,
                     workers=1)
    s = report.summary()
    assert s["agents"] == {"Red": "mcts:40", "Blue": "random"}
    assert s["roles"]["Red"]["wins"] >= 8, s
    assert s["draws"] == 0


def test_length_bound_and_stuck_games_are_counted() -> None:
    forever = parse_game('(game "Forever" (players {(player "X") (player "O")})'
                         ' (board (square 2)) (play (pass)) (end (if (full) (draw))))')
    s = analyze(forever, "random", 3, seed=1, workers=1).summary()
    assert s["bound_hits"] == 3 and s["length"]["min"] == 80
    assert s["turns"]["max"] == 0  # every move a forced pass: no turn was played
    assert s["moves"]["pass"]["share"] == 1.0
    stuck = parse_game('(game "Stuck" (players {(player "X") (player "O")})'
                       ' (board (square 2)) (play (place (sites Empty)))'
                       ' (end (if (line 5) (win Mover))))')
    s = analyze(stuck, "random", 3, seed=1, workers=1).summary()
    assert s["stuck"] == 3 and s["bound_hits"] == 0 and s["draws"] == 0


def test_kinds_of_move_and_pie() -> None:
    s = analyze(load_game(GAMES / "hex.game", size=3, pie=True), "random", 40, seed=3,
                workers=1).summary()
    assert set(s["moves"]) == {"place", "swap"}
    assert 0 < s["moves"]["swap"]["count"] < 40


def test_progress_bar() -> None:
    pytest.importorskip("tqdm", reason="the progress bars need tqdm (the progress extra)")
    out = io.StringIO()
    analyze(load_game(GAMES / "tictactoe.game"), "random", 5, seed=1, workers=1, progress=out)
    assert "5/5 games" in out.getvalue()


# The command line ---------------------------------------------------------------------------

def test_same_seed_same_report_whatever_the_workers() -> None:
    args = ["analyze", "games/hex.game", "--option", "size=3", "-n", "24", "--seed", "9",
            "--agents", "flat:10,random"]
    one = ludeme(*args, "--workers", "1")
    two = ludeme(*args, "--workers", "2")
    assert one.returncode == 0, one.stderr
    assert two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    assert "24 games of Hex, flat:10 (Red) vs random (Blue), seed 9:" in one.stdout
    other = ludeme("analyze", "games/tictactoe.game", "-n", "24", "--seed", "10")
    again = ludeme("analyze", "games/tictactoe.game", "-n", "24", "--seed", "11")
    assert other.stdout.splitlines()[1:] != again.stdout.splitlines()[1:]  # the seed matters


def test_json_output() -> None:
    r = ludeme("analyze", "games/tictactoe.game", "-n", "10", "--seed", "1", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 10 and set(data["roles"]) == {"X", "O"}
    assert r.stderr == ""  # no progress bar when stderr is not a terminal


def test_without_a_seed_the_report_names_the_one_it_used() -> None:
    r = ludeme("analyze", "games/tictactoe.game", "-n", "5", "--json")
    seed = json.loads(r.stdout)["seed"]
    again = ludeme("analyze", "games/tictactoe.game", "-n", "5", "--json", "--seed", str(seed))
    assert json.loads(again.stdout) == json.loads(r.stdout)


@pytest.mark.parametrize("args, needle", [
    (["--agents", "alphazero"], "alphazero"),
    (["--agents", "random,random,random"], "one per role"),
    (["--agents", "mcts:x"], "bad budget"),
    (["--address", "localhost:6379"], "--backend ray"),
    (["--option", "size=3"], "size"),
])
def test_bad_arguments_are_clean_errors(args: list[str], needle: str) -> None:
    r = ludeme("analyze", "games/tictactoe.game", "-n", "2", *args)
    assert r.returncode == 1, r.stdout
    assert "Traceback" not in r.stderr and needle in r.stderr, r.stderr


def test_ray_missing_is_said_clearly(tmp_path: Path) -> None:
    fake = tmp_path / "ray"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n",
                                      encoding="utf-8")
    r = ludeme("analyze", "games/tictactoe.game", "-n", "2", "--backend", "ray",
               env={"PYTHONPATH": str(tmp_path)})
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "not installed" in r.stderr and "pip install" in r.stderr


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_gives_the_local_results() -> None:
    """On a local Ray instance (run as a command, so that Ray's own warnings and processes
    stay out of the test process)."""
    args = ["analyze", "games/tictactoe.game", "-n", "16", "--seed", "4",
            "--agents", "mcts:20,random"]
    local = ludeme(*args, "--workers", "1")
    ray = ludeme(*args, "--backend", "ray", timeout=300)
    assert ray.returncode == 0, ray.stderr
    assert ray.stdout == local.stdout
