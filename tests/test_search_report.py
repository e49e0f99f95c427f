"""The computer's report is honest about small samples: the chosen move's score comes with the
number of games it was measured over and a 95% interval, never a bare "expected 100%"."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_game
from interpreter.agents import FlatMonteCarloAgent, SearchReport

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_a_small_sample_says_how_small_it_is() -> None:
    text = str(SearchReport(200, 0.1, 1.0, 11))
    assert text == ("200 playouts; the move chosen scored 100% in 11 of them, "
                    "95% interval 74%–100%")
    assert "expected score" not in text


def test_proven_and_forced_moves_say_so() -> None:
    assert str(SearchReport(300, 0.1, 1.0, 40, proven=True)) == "300 playouts, a proven win"
    assert str(SearchReport(0, 0.0, 0.5)) == "the only legal move"


def test_flat_monte_carlo_counts_the_chosen_moves_games() -> None:
    state = load_game(GAMES / "tictactoe.game").initial_state().play("b2")
    agent = FlatMonteCarloAgent(iterations=80, seed=1)
    agent.choose(state)
    assert agent.report is not None
    assert agent.report.samples == 10  # 80 games dealt round-robin to 8 moves
    low, high = agent.report.interval()
    assert low <= agent.report.expected <= high and high - low > 0.2
