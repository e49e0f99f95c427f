"""Xiangqi against OpenSpiel, an independent engine, move by move.

games/xiangqi.game with openspiel:true is played through ludeme and OpenSpiel's `xiangqi` in
lockstep (`tests/oracle.py`): at every position the legal moves, the player to move and whether
the game is over must agree, and at the end the returns and the kind of end. Along some games
the whole board must agree too (OpenSpiel's ToString against ludeme's position text).

What OpenSpiel plays, read from open_spiel/games/xiangqi/xiangqi.{h,cc}:

- no parameters. Player 0 is Red, who moves first, player 1 Black: ludeme's roles in order.
- the board is 10 rows of 9 points, row 0 at the top (Black's back rank) and column 0 at the
  left; the point (r, c) is square r * 9 + c. An action is from * 90 + to. Ludeme names the
  point by its column's letter and its rank from Red's side: (r, c) is `abcdefghi`[c] + str(10
  - r), so an action reads `from-to`.
- the pieces move as the published rules say (a cannon takes over exactly one screen, a
  horse's leg and an elephant's eye block, the elephant stays on its side of the river, the
  general and advisors in their palace, a soldier moves sideways once across the river). A
  move is legal when afterwards the mover's general is not attacked and the generals do not
  face each other on an open file (`WouldLeaveInCheck`).
- the end: after each move, a player left without a legal move has lost, in check or not
  (stalemate loses, as in the published rules). The game also ends, drawn, when 500 moves
  (plies) have been played (`kMaxGameLength`, in `IsTerminal`), judged after the first rule:
  a mate on the 500th move wins. OpenSpiel has no repetition rule.

games/xiangqi.game follows the published rules by default, which forbid perpetual check and
draw other repetitions but have no move limit; openspiel:true leaves repetitions alone and
draws at 500 moves, OpenSpiel's rules. Each rule changed on its own in the game file is caught
by the random games (`test_a_wrong_rule_is_caught`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    ActionMap,
    KernelState,
    OracleMismatch,
    game_rng,
    lockstep,
    random_chooser,
    require_openspiel,
)

from interpreter import load_game, parse_game

pyspiel = require_openspiel("xiangqi")

GAMES = Path(__file__).resolve().parent.parent / "games"
SEED = 23
ROWS, COLUMNS = 10, 9
LETTERS = "abcdefghi"


def point(square: int) -> str:
    """OpenSpiel's square (row r from the top, column c from the left) as a ludeme site."""
    r, c = divmod(square, COLUMNS)
    return f"{LETTERS[c]}{ROWS - r}"


def action_map() -> ActionMap:
    """Every action from * 90 + to of OpenSpiel's xiangqi as `from-to`."""
    cells = ROWS * COLUMNS
    return ActionMap({a: f"{point(a // cells)}-{point(a % cells)}" for a in range(cells * cells)})


ACTIONS = action_map()


@cache
def xiangqi(**options: Any) -> Any:
    return load_game(GAMES / "xiangqi.game", openspiel=True, **options)


@cache
def spiel_xiangqi() -> Any:
    return pyspiel.load_game("xiangqi")


def spiel_board(spiel_state: Any) -> str:
    """OpenSpiel's board as ludeme writes it: the same letters, spaced, top row first."""
    return "\n".join(" ".join(row) for row in str(spiel_state).splitlines())


def spiel_end(spiel_state: Any) -> str:
    """Why OpenSpiel's game is over: someone could not move (it won or lost), or the limit."""
    return "no move" if spiel_state.returns() != [0.0, 0.0] else "the move limit"


def ours(reason: str) -> str:
    return "no move" if reason in ("checkmate", "stalemate") else reason


def play_games(game: Any, games: int, seed: int, label: str = "xiangqi",
               boards: bool = False, kernel: Any = None) -> list[Any]:
    """`games` random games through both engines (checked as `oracle.compare` checks them);
    after each the kind of end must agree, and with `boards`, the board after every move.
    `kernel`: the game's kernel, to play the ludeme side in it (oracle.KernelState)."""
    ends = []
    for number in range(games):
        where = f"game {number} (seed {seed})"
        start = None if kernel is None else (KernelState(game, kernel),
                                             spiel_xiangqi().new_initial_state())
        end = lockstep(game, spiel_xiangqi(), ACTIONS, random_chooser(game_rng(seed, number)),
                       label=label, where=where, max_plies=spiel_xiangqi().max_game_length() + 10,
                       start=start)
        reason = reason_of(end.state)
        if ours(reason) != spiel_end(end.spiel_state):
            raise OracleMismatch(f"{label}: {where} ended by {reason!r} in "
                                 f"ludeme, by {spiel_end(end.spiel_state)!r} in OpenSpiel")
        if boards:
            replay_boards(game, end.moves)
        ends.append(end)
    return ends


def reason_of(state: Any) -> str:
    """Why a finished game ended: the interpreter's outcome, or a kernel state's reason."""
    if isinstance(state, KernelState):
        return str(state.kernel.reason(state.st))
    return str(state.outcome.reason)


def replay_boards(game: Any, moves: list[str]) -> None:
    """The moves through both engines again, the boards compared after each."""
    state, spiel_state = game.initial_state(), spiel_xiangqi().new_initial_state()
    index = {point(s): s for s in range(ROWS * COLUMNS)}
    for number, move in enumerate(moves, 1):
        state = state.play(move)
        frm, _, to = move.partition("-")
        spiel_state.apply_action(index[frm] * ROWS * COLUMNS + index[to])
        board = "\n".join(state.to_text().splitlines()[:ROWS])
        assert board == spiel_board(spiel_state), \
            f"after {number} moves: {' '.join(moves[:number])}"


def test_the_actions_read_as_openspiel_writes_them() -> None:
    """OpenSpiel's ActionToString (`H(9,1)-(7,2)`: row and column from the top left) names
    the same points as the action map."""
    state = spiel_xiangqi().new_initial_state()
    for a in state.legal_actions():
        text = state.action_to_string(0, a)
        (r1, c1), (r2, c2) = (tuple(int(n) for n in part.strip("()").split(","))
                              for part in text[1:].split("-"))
        assert ACTIONS.sites[a] == f"{point(r1 * COLUMNS + c1)}-{point(r2 * COLUMNS + c2)}"


def test_the_start_positions_agree() -> None:
    state = xiangqi().initial_state()
    board = "\n".join(state.to_text().splitlines()[:ROWS])
    assert board == spiel_board(spiel_xiangqi().new_initial_state())


def test_random_games_agree_with_openspiel() -> None:
    """Four random games from the start (about 1,500 plies): moves, mover, end and returns
    agree at every position, and the boards after every move of the first."""
    ends = play_games(xiangqi(), 1, SEED, boards=True)
    ends += play_games(xiangqi(), 3, SEED + 1)
    assert sum(len(end.moves) for end in ends) > 400


def test_the_kernels_random_games_agree_with_openspiel() -> None:
    """The game's kernel (interpreter/kernel: the cannon's screens, the horse's leg, the
    elephant's eye, the palaces and the facing generals lowered), played through its step
    API, agrees with OpenSpiel as the interpreter does: twenty random games, moves, mover,
    end and its kind, and returns at every position, the boards after every move of the
    first."""
    from interpreter.kernel import available, kernel_for

    if not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    game = xiangqi()
    kernel = kernel_for(game)
    assert kernel is not None
    ends = play_games(game, 20, SEED + 3, label="xiangqi (kernel)", kernel=kernel)
    replay_boards(game, ends[0].moves)
    assert sum(len(end.moves) for end in ends) > 2_000


@pytest.mark.slow
def test_many_random_games_agree_with_openspiel() -> None:
    """A hundred random games: between them they end in every way OpenSpiel's games end."""
    ends = play_games(xiangqi(), 100, SEED + 2)
    assert {ours(end.state.outcome.reason) for end in ends} == {"no move", "the move limit"}
    assert {end.state.outcome.reason for end in ends} >= {"checkmate", "stalemate"}
    assert {end.state.winner for end in ends} == {"Red", "Black", None}


# Wrong rules are caught ----------------------------------------------------------------------

MUTANTS = {
    "a cannon takes without a screen": ('to:Enemy over:1', 'to:Enemy'),
    "a cannon takes over two screens": ('to:Enemy over:1', 'to:Enemy over:2'),
    "no horse's leg": ('to:#1 path:Orthogonal', 'to:#1'),
    "the horse's leg on the diagonal": ('to:#1 path:Orthogonal', 'to:#1 path:Diagonal'),
    "no elephant's eye": ('to:#1 path:Diagonal', 'to:#1'),
    "elephants cross the river": (' within:(sites Named "Own side")', ''),
    "advisors leave the palace": (
        '(step Diagonal of:"Advisor" to:#1 within:(sites Named "Palace"))',
        '(step Diagonal of:"Advisor" to:#1)'),
    "the general leaves the palace": (
        '(step Orthogonal of:"General" to:EmptyOrEnemy within:(sites Named "Palace"))',
        '(step Orthogonal of:"General" to:EmptyOrEnemy)'),
    "soldiers go sideways before the river": (' from:(sites Named "Across the river")', ''),
    "the generals may face each other": (' (slide Forward of:"General" to:Enemy)', ''),
    "stalemate draws": ('(if (named "stalemate" (stuck Next)) (win Mover))',
                        '(if (named "stalemate" (stuck Next)) (draw))'),
    "the move limit at 400": ("(>= (turns) 500)", "(>= (turns) 400)"),
}


def mutant(name: str) -> Any:
    source = (GAMES / "xiangqi.game").read_text()
    old, new = MUTANTS[name]
    if old not in source:
        pytest.skip(f"games/xiangqi.game no longer contains {old!r}")
    return parse_game(source.replace(old, new), source=name, openspiel=True)


@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_wrong_rule_is_caught(name: str) -> None:
    """The comparison notices a game file with one rule changed, within 100 random games."""
    with pytest.raises(OracleMismatch):
        play_games(mutant(name), 100, SEED + 2, label=name)
