"""Chance (stdlib/chance.py): dice as chance decisions, the dice as state, moves that use them,
and everything chance-aware — the state's contract, notation, position text, random games,
agents, the REPL and the adapters. The game is examples/dice-race.game (one die, two pieces
each on a shared edge of a 5x5 board); small games written here test the roll itself.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.agents import FlatMonteCarloAgent, MCTSAgent, RandomAgent
from interpreter.analyze import analyze
from interpreter.repl import Repl

ROOT = Path(__file__).resolve().parent.parent
RACE = ROOT / "examples" / "dice-race.game"


def race():
    return load_game(RACE)


def rolling(dice: int, extra: str = "") -> str:
    """A game that only rolls (then passes), to look at the roll alone."""
    return f"""(game "Rolls"
      (players {{(player "A" symbol:"A") (player "B" symbol:"B")}})
      (board (square 3))
      (play (roll {dice} faces:6 {extra}) (pass))
      (end (if (>= (turns) 4) (draw))))"""


# The roll ----------------------------------------------------------------------------------------


def test_one_die_has_six_equally_likely_outcomes() -> None:
    state = race().initial_state()
    outcomes = state.chance_outcomes()
    assert [(str(m), p) for m, p in outcomes] == [(f"roll:{v}", Fraction(1, 6))
                                                  for v in range(1, 7)]
    assert state.legal_moves() == [m for m, _ in outcomes]


def test_two_dice_are_unordered_with_exact_probabilities() -> None:
    state = parse_game(rolling(2)).initial_state()
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert len(outcomes) == 21 and sum(outcomes.values()) == 1
    assert outcomes["roll:3,5"] == Fraction(1, 18) and outcomes["roll:4,4"] == Fraction(1, 36)
    assert "roll:5,3" not in outcomes  # written ascending: the order of the dice does not matter


def test_ordered_dice_and_doubles() -> None:
    ordered = parse_game(rolling(2, "ordered:true")).initial_state()
    outcomes = {str(m): p for m, p in ordered.chance_outcomes()}
    assert len(outcomes) == 36 and outcomes["roll:5,3"] == Fraction(1, 36)
    doubles = parse_game(rolling(2, "doubles:2")).initial_state()
    assert doubles.play("roll:4,4").dice == (4, 4, 4, 4)
    assert doubles.play("roll:2,6").dice == (2, 6)


@pytest.mark.parametrize(("text", "message"), [
    ("(roll 0)", "from 1 to 8 dice"), ("(roll 2 faces:1)", "from 2 to 100 faces"),
    ("(roll 1 doubles:9)", "doubles:"),
])
def test_bad_dice_are_refused_where_written(text: str, message: str) -> None:
    game = rolling(1).replace("(roll 1 faces:6 )", text)
    with pytest.raises(Exception, match=message):
        parse_game(game)


# The state's contract ----------------------------------------------------------------------------


def test_a_chance_position_has_no_mover_and_its_moves_are_the_outcomes() -> None:
    state = race().initial_state()
    assert state.is_chance and state.mover is None and not state.is_over
    after = state.play("roll:4")
    assert not after.is_chance and after.mover == "White" and after.dice == (4,)
    assert after.chance_outcomes() == []
    assert [str(m) for m in after.legal_moves()] == ["a1-e1", "b1-e2"]
    assert state.is_chance and state.dice == ()  # play made a new state


def test_only_games_that_roll_have_chance() -> None:
    for path in sorted((ROOT / "games").glob("*.game")):
        game = load_game(path)
        rolls = "(roll" in path.read_text()
        assert game.has_chance == rolls, path.name
        if not rolls:
            assert not game.initial_state().is_chance, path.name


def test_roll_notation_reads_back_and_a_bad_roll_says_why() -> None:
    state = race().initial_state()
    assert str(state.play(" roll:6 ").chance_outcomes()) == "[]"
    with pytest.raises(IllegalMoveError, match="roll: and the values"):
        state.play("roll:x")
    with pytest.raises(IllegalMoveError):
        state.play("roll:7")  # no such outcome


def test_position_text_says_the_dice_and_reads_them_back() -> None:
    game = race()
    after = game.initial_state().play("roll:4")
    text = after.to_text()
    assert "dice: 4" in text and "decision: 2" in text and "last to" not in text
    again = game.from_text(text)
    assert again.dice == (4,) and not again.is_chance and again.to_text() == text
    with pytest.raises(Exception, match="dice"):
        game.from_text(text.replace("dice: 4", "dice: 9"))


def test_a_move_uses_its_die_and_the_turn_passes_to_a_roll() -> None:
    game = race()
    state = game.from_text(". . . B B\n. . . . .\n. . . . .\n. . . . .\nW W . . .\n"
                           "mover: White\ndecision: 2\ndice: 3\n")
    assert [str(m) for m in state.legal_moves()] == ["a1-d1", "b1-e1"]
    after = state.play("b1-e1")
    assert after.dice == () and after.is_chance and after.to_text().startswith(
        ". . . B B\n. . . . .\n. . . . .\n. . . . .\nW . . . W\nmover: Black")


def test_landing_on_an_enemy_captures_it() -> None:
    game = race()
    state = game.from_text(". . . . B\n. . . . .\n. . . . .\n. . . . .\nW . . B .\n"
                           "mover: White\ndecision: 2\ndice: 3\n")
    assert [str(m) for m in state.legal_moves()] == ["a1-d1"]
    after = state.play("a1-d1")
    assert after.to_text().startswith(". . . . B\n. . . . .\n. . . . .\n. . . . .\n"
                                      ". . . W .\n")


def test_reaching_the_goal_wins_and_no_piece_moves_past_the_end() -> None:
    game = race()
    text = "B . . . .\nW . . . .\nW . . . .\n. . . . .\n. . . . .\nmover: White\ndecision: 2\n"
    # White's way ends ... a5 a4 a3 a2: from a4 a 2 reaches the goal; from a3 a 5 is past it.
    won = game.from_text(text + "dice: 2\n").play("a4-a2")
    assert won.winner == "White" and won.outcome.reason == "a piece reached its goal"
    assert [str(m) for m in game.from_text(text + "dice: 5\n").legal_moves()] == ["pass"]


# Random games ------------------------------------------------------------------------------------


def test_draws_follow_the_probabilities() -> None:
    game = parse_game(rolling(2))
    state = game.initial_state()
    rng = random.Random(7)
    n = 36_000
    counts = Counter(str(game.draw(state, rng)) for _ in range(n))
    for move, p in state.chance_outcomes():
        expected = n * float(p)
        assert abs(counts[str(move)] - expected) < 5 * (expected * (1 - float(p))) ** 0.5


def test_playouts_are_the_same_for_a_seed_whatever_the_workers() -> None:
    game = race()
    one = game.playouts(24, seed=11)
    two = game.playouts(24, seed=11, workers=2)
    assert (one.winners, one.lengths, one.reasons) == (two.winners, two.lengths, two.reasons)
    assert set(one.winners) == {"White", "Black"}
    assert set(one.reasons) == {"a piece reached its goal"}
    assert game.playouts(24, seed=12).lengths != one.lengths


def test_a_playout_is_the_public_loop_drawing_chance_by_probability() -> None:
    game = race()
    record: list[str] = []
    final, plies = game.playout(random.Random(3), record=record)
    rng = random.Random(3)
    state = game.initial_state()
    for move in record:
        expected = game.draw(state, rng) if state.is_chance else rng.choice(state.legal_moves())
        assert str(expected) == move
        state = state.play(move)
    assert state.to_text() == final.to_text() and final.is_over


def test_make_and_unmake_a_roll_and_a_move() -> None:
    game = race()
    state = game.initial_state()
    before = state.to_text()
    rolled = game.make(state, "roll:5")
    moved = game.make(state, state.legal_moves()[0])
    assert state.is_chance and state.dice == ()
    game.unmake(state, moved)
    assert state.dice == (5,) and not state.is_chance
    game.unmake(state, rolled)
    assert state.to_text() == before and state.is_chance


@given(st.integers(0, 10_000))
def test_every_position_of_a_random_game_keeps_the_chance_contract(seed: int) -> None:
    game = race()
    rng = random.Random(seed)
    state = game.initial_state()
    while not state.is_over:
        text = state.to_text()
        assert game.from_text(text).to_text() == text
        if state.is_chance:
            outcomes = state.chance_outcomes()
            assert state.mover is None and not state.dice
            assert sum(p for _, p in outcomes) == 1
            state = state.play(game.draw(state, rng))
        else:
            assert state.mover is not None and len(state.dice) == 1
            state = state.play(rng.choice(state.legal_moves()))


# Agents, the REPL, analyze -----------------------------------------------------------------------


@pytest.mark.parametrize("agent", [RandomAgent(1), FlatMonteCarloAgent(60, seed=1),
                                   MCTSAgent(120, seed=1)], ids=["random", "flat", "mcts"])
def test_agents_draw_at_chance_and_choose_a_legal_move_after(agent) -> None:
    state = race().initial_state()
    assert str(agent.choose(state)).startswith("roll:")
    after = state.play("roll:3")
    assert agent.choose(after) in after.legal_moves()


def test_mcts_samples_outcomes_below_a_move() -> None:
    agent = MCTSAgent(200, seed=2)
    agent.choose(race().initial_state().play("roll:3"))
    assert agent.tree is not None
    below = [c for c in agent.tree.children if c.chance]
    assert below and all(len(c.outcomes) > 1 for c in below if c.visits > 20)


def test_the_repl_rolls_shows_the_roll_and_undo_keeps_it() -> None:
    out = io.StringIO()
    repl = Repl(race(), stdin=io.StringIO("a1-c1\nundo\nquit\n"), stdout=out, seed=3)
    repl.cmdloop()
    text = out.getvalue()
    assert "White rolls: roll:2" in text and "White to move (dice 2" in text
    assert "Black rolls: roll:" in text
    assert repl.moves == ["roll:2"]  # undo took back the move and Black's roll
    again = io.StringIO()
    Repl(race(), stdin=io.StringIO("quit\n"), stdout=again, seed=3).cmdloop()
    assert "White rolls: roll:2" in again.getvalue()


def test_analyze_is_deterministic_by_seed() -> None:
    game = race()
    a = analyze(game, "random", 6, seed=4, workers=1).summary()
    b = analyze(game, "random", 6, seed=4, workers=1).summary()
    assert a == b and a["games"] == 6 and not a["crashes"]


# Adapters ----------------------------------------------------------------------------------------


def test_openspiel_sees_explicit_chance_nodes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.openspiel import load

    game = load(RACE)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert [a for a, _ in outcomes] == state.legal_actions()
    assert state.action_to_string(outcomes[3][0]) == "roll:4"
    state.apply_action(outcomes[3][0])
    assert not state.is_chance_node() and state.current_player() == 0
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_pettingzoo_rolls_inside_step() -> None:
    pytest.importorskip("pettingzoo")
    from interpreter.pettingzoo import env

    runs = []
    for _ in range(2):
        e = env(RACE)
        e.reset(seed=5)
        seen = []
        for _agent in e.agent_iter(max_iter=400):
            observation, reward, done, cut, info = e.last()
            if done or cut:
                e.step(None)
                continue
            mask = observation["action_mask"]
            assert not e.position.is_chance and mask.any()
            action = int(mask.nonzero()[0][0])
            seen.append(action)
            e.step(action)
        runs.append(seen)
    assert runs[0] == runs[1] and len(runs[0]) > 3
