"""games/ultimate-tictactoe.game against OpenSpiel's `ultimate_tic_tac_toe`, turn by turn, and
its rules from positions.

OpenSpiel (`open_spiel/games/ultimate_tic_tac_toe/ultimate_tic_tac_toe.cc`) plays nine
Tic-Tac-Toe states, local boards 0 to 8 in reading order (top-left first), cells 0 to 8 in
reading order within each. When the next board is free (at the start, or when the board a
move sends to is won or full) a turn is two actions, "choose local board b" then a cell;
otherwise one action, a cell of the forced board (its ToString says `Forced board: b` or
`any`). Ludeme's turn is one placement on the 9x9 grid of `(boards (square 3) (square 3))`,
which numbers sub-boards and cells the same way. So at every position of seeded random games,
the set of whole turns (board, cell) must be ludeme's legal moves, translated by geometry:
local board b = (br, bc), cell c = (cr, cc) is the grid's row 3 br + cr from the top and column
3 bc + cc, ludeme's site in that column and row 9 - (3 br + cr). After each turn the boards
must be the same, and at the end the returns.

Where the rules differ: they do not. OpenSpiel follows the published rules (a won or full
local board is closed; a player sent to one chooses any open board; a drawn board counts for
nobody on the meta board; the game is drawn when every board is decided without a row of
three). The house rule that a drawn board counts for both players is the game's option
drawn:"both", which OpenSpiel does not offer; tested here from positions.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from tests.oracle import KernelState, require_openspiel, site

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "ultimate-tictactoe.game"


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


def cell_site(board: int, cell: int) -> str:
    """OpenSpiel's local board and cell as a ludeme site name."""
    (br, bc), (cr, cc) = divmod(board, 3), divmod(cell, 3)
    return site(3 * bc + cc, 9 - (3 * br + cr))


def forced_board(spiel_state) -> int | None:
    """The local board OpenSpiel's next action plays in, or None when the player chooses."""
    line = str(spiel_state).splitlines()[-1]
    assert line.startswith("Forced board: "), line
    board = line.removeprefix("Forced board: ")
    return None if board == "any" else int(board)


def spiel_turns(spiel_state) -> dict[str, list[int]]:
    """OpenSpiel's whole turns, each as its ludeme site and its actions."""
    forced = forced_board(spiel_state)
    if forced is not None:
        return {cell_site(forced, c): [c] for c in spiel_state.legal_actions()}
    turns = {}
    for b in spiel_state.legal_actions():
        chosen = spiel_state.child(b)
        for c in chosen.legal_actions():
            turns[cell_site(b, c)] = [b, c]
    return turns


def spiel_board(spiel_state) -> list[str]:
    """Each site's symbol (X, O or '.'), by the site's number in reading order, from the
    observation tensor: planes empty, nought (player 1), cross (player 0) by local board and
    cell."""
    tensor = spiel_state.observation_tensor(0)
    cells = ["?"] * 81
    for b in range(9):
        for c in range(9):
            (br, bc), (cr, cc) = divmod(b, 3), divmod(c, 3)
            at = (3 * br + cr) * 9 + 3 * bc + cc
            cells[at] = "O" if tensor[81 + b * 9 + c] else "X" if tensor[162 + b * 9 + c] \
                else "."
    return cells


def ludeme_board(state) -> list[str]:
    return state.to_text().split("mover")[0].split()


def kernel_board(state: KernelState) -> list[str]:
    """A kernel state's board as ludeme_board gives an interpreter's: X, O or '.' per site."""
    owner = state.game.env.owner
    return ["." if v == 0 else state.game.players[owner[v]]
            for v in state.kernel.board(state.st)]


def play_against_openspiel(game, spiel, seed: int, kernel=None) -> tuple[int, str | None]:
    """A random game through both engines, the ludeme side played by the interpreter or, given
    the game's kernel, by the kernel's step API (oracle.KernelState)."""
    rng = random.Random(seed)
    spiel_state = spiel.load_game("ultimate_tic_tac_toe").new_initial_state()
    state = game.initial_state() if kernel is None else KernelState(game, kernel)
    board = ludeme_board if kernel is None else kernel_board
    moves: list[str] = []
    while not spiel_state.is_terminal():
        assert not state.is_over, f"seed {seed}, after {moves}: ludeme says it is over"
        assert state.mover == ("X", "O")[spiel_state.current_player()]
        turns = spiel_turns(spiel_state)
        assert {str(m) for m in state.legal_moves()} == set(turns), f"seed {seed}: {moves}"
        move = rng.choice(sorted(turns))
        for action in turns[move]:
            spiel_state.apply_action(action)
        state = state.play(move)
        moves.append(move)
        assert board(state) == spiel_board(spiel_state), f"seed {seed}: {moves}"
    assert state.is_over, f"seed {seed}: OpenSpiel ended the game after {moves}, ludeme did not"
    returns = spiel_state.returns()
    winner = None if returns[0] == returns[1] else ("X", "O")[returns.index(1.0)]
    assert state.winner == winner, f"seed {seed}: {moves}"
    return len(moves), winner


def test_whole_turns_boards_and_results_match_openspiel(game) -> None:
    spiel = require_openspiel("ultimate_tic_tac_toe")
    results = [play_against_openspiel(game, spiel, seed) for seed in range(300)]
    winners = {winner for _, winner in results}
    assert winners == {"X", "O", None}  # wins for each side and draws were all compared


def test_the_kernels_whole_turns_boards_and_results_match_openspiel(game) -> None:
    """The game's kernel (interpreter/kernel: the sub-boards' results worked out from the
    board), played through its step API, agrees with OpenSpiel as the interpreter does."""
    from interpreter.kernel import available, kernel_for

    spiel = require_openspiel("ultimate_tic_tac_toe")
    if not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    kernel = kernel_for(game)
    assert kernel is not None
    results = [play_against_openspiel(game, spiel, seed, kernel) for seed in range(300, 600)]
    assert {winner for _, winner in results} == {"X", "O", None}


# Rules from positions ------------------------------------------------------------------------

EMPTY_ROW = ". . . . . . . . ."


def position(rows: dict[int, str], mover: str, last: str | None = None) -> str:
    """A position text: the rows given by their number from the bottom, the rest empty."""
    lines = [rows.get(r, EMPTY_ROW) for r in range(9, 0, -1)]
    lines.append(f"mover: {mover}")
    if last is not None:
        lines.append(f"last to: {last}")
    return "\n".join(lines) + "\n"


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_the_first_move_is_anywhere_and_a_move_sends_to_the_matching_board(game) -> None:
    state = game.initial_state()
    assert len(moves(state)) == 81
    # e5 is the centre cell of the centre board: O must play in the centre board.
    assert moves(state.play("e5")) == {"d6", "f6", "d5", "f5", "d4", "e4", "f4", "e6"}
    # c3 is the top-right cell of the bottom-left board: O goes to the top-right board.
    assert moves(state.play("c3")) == {f"{c}{r}" for c in "ghi" for r in (7, 8, 9)}
    # Position text keeps the last move, which says where the next one goes.
    after = state.play("c3")
    assert "last to: c3" in after.to_text()
    assert game.from_text(after.to_text()).to_text() == after.to_text()


def test_a_won_board_is_closed_and_sending_there_frees_the_choice(game) -> None:
    # X has won the top-left board (a9 b9 c9) with cells to spare; O's last move, c6, is the
    # top-right cell of the middle-left board: X is sent to the top-right board.
    text = position({9: "X X X . . . . . .", 8: "O O . . . . . . .",
                     6: ". . O . . . . . ."}, "X", last="c6")
    state = game.from_text(text)
    assert moves(state) == {f"{c}{r}" for c in "ghi" for r in (7, 8, 9)}
    # Sent to the won top-left board instead (a6 is its cell 1): any open board, none of the
    # won board's empty cells.
    free = moves(game.from_text(text.replace("last to: c6", "last to: a6")))
    assert len(free) == 81 - 9 - 1
    assert not free & {"c8", "a7", "b7", "c7"}


def test_a_full_board_without_a_row_is_drawn_and_closed(game) -> None:
    # The top-left board is full without a row; O's a6 is the top-left cell of the
    # middle-left board, which sends X to the top-left board: X may play in any open board.
    drawn = {9: "X O X . . . . . .", 8: "X O O . . . . . .", 7: "O X X . . . . . ."}
    state = game.from_text(position({**drawn, 6: "O . . . . . . . ."}, "X", last="a6"))
    assert len(moves(state)) == 81 - 9 - 1
    assert not state.is_over


def test_three_won_boards_in_a_row_win(game) -> None:
    # X holds the top-left and top-middle boards and two in a row in the top-right one; O's
    # i6 is the top-right cell of the middle-right board, which sends X to the top-right one.
    rows = {9: "X X X X X X X X .", 8: ". . . . . . O O .", 6: ". . . . . . . . O"}
    state = game.from_text(position(rows, "X", last="i6"))
    assert moves(state) == {"i9", "i8", "g7", "h7", "i7"}
    assert not state.play("g7").is_over  # the board is not won: no row of boards
    won = state.play("i9")
    assert won.winner == "X"
    assert won.outcome.reason == "three small boards in a row"


def test_a_drawn_board_counts_for_nobody_or_with_the_option_for_both(game) -> None:
    # X has won the top-left and top-middle boards; the top-right one is drawn (full, no row).
    rows = {9: "X X X X X X X O X", 8: ". . . . . . X O O", 7: ". . . . . . O X X",
            1: "O . O . O . O . ."}
    text = position(rows, "O", last="g1")  # X has just moved (the end is judged for it)
    assert game.from_text(text).winner is None
    assert not game.from_text(text).is_over
    assert load_game(GAME, drawn="both").from_text(text).winner == "X"


def test_the_game_is_drawn_when_every_board_is_decided(game) -> None:
    # Every board is drawn but the bottom-right one, where X's last cell, g1, completes a row:
    # X wins that board, no row of boards, and no board is open: a draw.
    drawn = ["X O X", "X O O", "O X X"]
    rows = {r: " ".join([drawn[(9 - r) % 3]] * 3) for r in range(9, 0, -1)}
    rows[1] = f"{drawn[2]} {drawn[2]} . X X"
    text = position(rows, "X", last="a2")  # a2 sends to the middle board, drawn: free choice
    state = game.from_text(text)
    assert moves(state) == {"g1"}
    end = state.play("g1")
    assert end.is_over and end.winner is None
    assert end.outcome.reason == "every small board won or drawn"
