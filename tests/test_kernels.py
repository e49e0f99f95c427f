"""Game kernels (interpreter/kernel) against the interpreter, the reference semantics.

For every game file with a kernel, the kernel plays random games and the interpreter replays
them: the legal actions, the board, the player to move, the result and the end reason must
agree after every move (interpreter/kernel/differential.py): 2,000 games per file (a first
200 in the quick run), fewer for games whose random games are long (see `_differences`).
Without numba these tests skip,
except those of which ludeme keeps a game interpreted (that needs no numba).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import IllegalMoveError, load_game, parse_game
from interpreter.kernel import available, kernel_for, why_interpreted
from stdlib import lowering

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("games/*.game"), *ROOT.glob("examples/*.game")])
needs_numba = pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not "
                                 "installed: pip install -e '.[kernels]'")


def _lowered() -> list[Path]:
    return [f for f in FILES if why_interpreted(load_game(str(f))) is None]


LOWERED = _lowered()


def _differences(game_file: Path, first: int, games: int, plies: int) -> list[str]:
    """The differences in random games from seed `first` on: `games` of them, or fewer whose
    lengths (as the kernel plays them) add up to `plies` — long games (chess, Chinese
    checkers) are replayed by the interpreter at a few hundred moves a second, and the suite
    must stay within its time."""
    from interpreter.kernel.differential import first_difference

    game = load_game(str(game_file))
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    assert not kernel.all_counted, "a function compiled without reference counts made an " \
        "array (interpreter/kernel/refcounts.py)"
    seeds = list(range(first, first + games))
    lengths = kernel.playouts(seeds).lengths
    chosen = []
    total = 0
    for seed, length in zip(seeds, lengths, strict=True):
        if chosen and total + length > plies:
            break
        chosen.append(seed)
        total += length
    return [d for s in chosen if (d := first_difference(game, kernel, s)) is not None]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_game_has_a_kernel_or_says_which_form_keeps_it_interpreted(path: Path) -> None:
    why = why_interpreted(load_game(str(path)))
    assert why is None or re.match(r"^.+\.game:\d+:\d+: .+", why), why


def test_the_form_without_a_lowering_is_named_where_it_is_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(lowering.LOWERINGS, "full")
    game = load_game(str(ROOT / "games/tictactoe.game"))
    assert why_interpreted(game) == (f"{ROOT / 'games/tictactoe.game'}:8:9: (full ...) has no "
                                     "kernel lowering yet")


def test_arguments_a_lowering_does_not_handle_keep_the_game_interpreted() -> None:
    text = """(game "Within"
      (players {(player "X") (player "O")})
      (board (square 4))
      (region "Left" (sites Column 1 2))
      (play (place (sites Empty)))
      (end (if (line 3 within:{(sites Named "Left")}) (win Mover))))"""
    why = why_interpreted(parse_game(text, "within.game"))
    assert why is not None and why.startswith("within.game:6:16: ") and "within:" in why


@needs_numba
def test_a_stuck_met_while_it_is_judged_counts_as_false() -> None:
    """A stone may not be placed where the opponent could not answer; judging the opponent's
    answer asks the same of the mover, where the interpreter takes (stuck ...) as false
    (stdlib.logic.stuck: one turn ahead, not forever). With two sites left, each placement
    leaves one, whose placement is allowed at that depth: both are moves. Judged forever,
    the last placement would be refused, the opponent stuck and neither a move."""
    game = parse_game("""(game "Answer"
      (players {(player "X") (player "O")})
      (board (square 2))
      (play (place (sites Empty) unless:(stuck Next)))
      (end (if (stuck Next) (win Mover))))""", "answer.game")
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    state = game.from_text("X O\n. .\nmover: X")
    assert len(state.legal_actions()) == 2
    assert kernel.legal_actions(kernel.encode(state)) == sorted(state.legal_actions())


def _functions(calls: dict[str, str]) -> str:
    return "\n\n\n".join(f"@njit(cache=True)\ndef {name}(st):\n    return {body}\n"
                          for name, body in calls.items())


def test_functions_calling_one_another_become_one_calling_itself() -> None:
    """numba cannot load mutual recursion from its cache: all functions of a cycle but
    can_move are inlined into it; a cycle no single function breaks is refused."""
    from interpreter.kernel.builder import Builder, _break_cycles

    game = load_game(str(ROOT / "games/tictactoe.game"))
    source = _break_cycles(Builder(game), game, _functions(
        {"legal": "drops(st)", "can_move": "drops(st) or False", "drops": "mates(st)",
         "mates": "not can_move(st)"}))
    assert "@njit(cache=True)\ndef can_move(" in source
    assert "@njit(cache=True)\ndef legal(" in source
    assert "@njit(cache=True, inline='always')\ndef drops(" in source
    assert "@njit(cache=True, inline='always')\ndef mates(" in source
    tangled = _functions({"a": "b(st) and c(st)", "b": "a(st) and c(st)",
                          "c": "a(st) and b(st)"})
    with pytest.raises(lowering.Unlowerable, match="rules that call themselves"):
        _break_cycles(Builder(game), game, tangled)


@needs_numba
@pytest.mark.parametrize("path", LOWERED, ids=lambda p: p.name)
def test_kernel_plays_the_interpreters_games(path: Path) -> None:
    assert _differences(path, 0, 200, 4_000) == []


@needs_numba
@pytest.mark.slow
@pytest.mark.parametrize("path", LOWERED, ids=lambda p: p.name)
def test_kernel_plays_the_interpreters_games_thousands(path: Path) -> None:
    assert _differences(path, 200, 2_000, 40_000) == []


@needs_numba
def test_the_differential_test_finds_a_wrong_kernel() -> None:
    """A kernel whose line needs two in a row, not three: the comparison must say so."""
    from interpreter.kernel.builder import build
    from interpreter.kernel.differential import first_difference
    from interpreter.kernel.kernel import Kernel

    game = load_game(str(ROOT / "games/tictactoe.game"))
    built = build(game)
    assert "c >= 3" in built.source
    built.source = built.source.replace("c >= 3", "c >= 2")
    built.digest = "wrong" + built.digest[5:]
    wrong = Kernel(game, built)
    found = [d for s in range(20) if (d := first_difference(game, wrong, s)) is not None]
    assert found and "results differ" in found[0]


@needs_numba
def test_playouts_are_the_same_for_the_same_seeds() -> None:
    game = load_game(str(ROOT / "games/connectfour.game"))
    kernel = kernel_for(game)
    assert kernel is not None
    first = kernel.playouts(list(range(300)))
    again = kernel.playouts(list(range(300)))
    assert (first.winners, first.lengths, first.reasons) == \
        (again.winners, again.lengths, again.reasons)
    # Game i depends on its own seed only, not on the games played before it.
    alone = kernel.playouts([57])
    assert (alone.winners[0], alone.lengths[0]) == (first.winners[57], first.lengths[57])
    assert {"Red", "Yellow"} <= set(first.winners)
    assert all(7 <= n <= 42 for n in first.lengths)


@needs_numba
def test_step_api_refuses_an_illegal_action() -> None:
    game = load_game(str(ROOT / "games/tictactoe.game"))
    kernel = kernel_for(game)
    assert kernel is not None
    st = kernel.start.copy()
    kernel.apply(st, 4)
    assert kernel.to_move(st) == 1 and kernel.legal_actions(st) == [0, 1, 2, 3, 5, 6, 7, 8]
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        kernel.apply(st, 4)


CHANCE = """(game "Roll and place"
  (players {(player "X") (player "O")})
  (board (square 4))
  (play (roll 2 faces:3 doubles:2 opening:%s) (place (sites Empty)) (place (sites Empty)))
  (end (if (line 3) (win Mover)) (if (full) (draw))))"""


@needs_numba
@pytest.mark.parametrize("opening", ["false", "true"])
def test_kernel_rolls_dice_as_the_interpreter_does(opening: str) -> None:
    """Chance decisions: the outcomes listed, the dice they set (a double counted twice), an
    opening roll that decides who starts, and two decisions after the roll in one turn."""
    from interpreter.kernel.differential import first_difference

    game = parse_game(CHANCE % opening, "roll.game")
    kernel = kernel_for(game)
    assert kernel is not None, why_interpreted(game)
    assert [d for s in range(300) if (d := first_difference(game, kernel, s))] == []


@needs_numba
def test_kernel_draws_outcomes_with_their_probabilities() -> None:
    """Two 3-faced dice, order ignored: a double is 1/9 likely, each other pair 2/9."""
    game = parse_game(CHANCE % "false", "roll.game")
    kernel = kernel_for(game)
    assert kernel is not None
    first = [kernel.playout_actions(seed, 1)[0] for seed in range(3000)]
    doubles = sum(game.actions.notation(a) in ("roll:1,1", "roll:2,2", "roll:3,3")
                  for a in first)
    assert 850 < doubles < 1150  # 1000 expected; the seeds are fixed
