"""Rules of the classic games, checked from position texts and short move sequences.

Positions are written as the contract's position text: one line per board row, top row first,
then `mover:`. `from_text` evaluates the end conditions as if the player before the mover had
just moved.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from textwrap import dedent

import pytest
from refusals import illegal

from interpreter import GameError, IllegalMoveError, load_game

GAMES = Path(__file__).resolve().parent.parent / "games"


@cache
def game(name: str, **options: object):
    return load_game(GAMES / f"{name}.game", **options)


def pos(text: str) -> str:
    """A position text written inside an indented triple-quoted string."""
    return dedent(text).strip("\n") + "\n"


def lines(text: str) -> list[str]:
    return text.splitlines()


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def play(state, *sequence: str):
    for m in sequence:
        assert not state.is_over, f"game over before {m}"
        state = state.play(m)
    return state


# =============================================================================================
# Tic-Tac-Toe
# =============================================================================================

class TestTicTacToe:
    def test_declaration(self) -> None:
        g = game("tictactoe")
        assert g.name == "Tic-Tac-Toe"
        assert g.players == ("X", "O")
        assert g.sites == ("a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1")
        s = g.initial_state()
        assert s.mover == "X"
        assert not s.is_over and s.winner is None
        assert moves(s) == set(g.sites)

    @pytest.mark.parametrize("sequence, winner", [
        # X: row 1
        (("a1", "a2", "b1", "b2", "c1"), "X"),
        # X: column a
        (("a1", "b1", "a2", "b2", "a3"), "X"),
        # X: diagonal a1-b2-c3
        (("a1", "a2", "b2", "a3", "c3"), "X"),
        # X: anti-diagonal a3-b2-c1
        (("c1", "a1", "b2", "a2", "a3"), "X"),
        # O: column b
        (("a1", "b1", "a2", "b2", "c3", "b3"), "O"),
        # O: row 3
        (("a1", "a3", "b2", "b3", "c2", "c3"), "O"),
    ])
    def test_wins_in_each_direction(self, sequence: tuple[str, ...], winner: str) -> None:
        s = play(game("tictactoe").initial_state(), *sequence[:-1])
        assert not s.is_over
        s = s.play(sequence[-1])
        assert s.is_over
        assert s.winner == winner
        assert s.mover is None
        assert s.legal_moves() == []

    def test_no_move_after_the_end(self) -> None:
        s = play(game("tictactoe").initial_state(), "a1", "a2", "b1", "b2", "c1")
        message = illegal(s, "c3")
        assert "over" in message

    def test_draw_on_full_board(self) -> None:
        g = game("tictactoe")
        s = g.from_text(pos("""
            X O X
            X O O
            O X .
            mover: X
            """))
        assert not s.is_over
        assert moves(s) == {"c1"}
        s = s.play("c1")
        assert s.is_over
        assert s.winner is None
        assert s.mover is None
        assert s.legal_moves() == []

    def test_draw_from_text(self) -> None:
        s = game("tictactoe").from_text("X O X\nX O O\nO X X\nmover: O\n")
        assert s.is_over and s.winner is None

    def test_line_on_the_last_cell_wins_rather_than_draws(self) -> None:
        s = game("tictactoe").from_text(pos("""
            X O X
            O X O
            O X .
            mover: X
            """))
        s = s.play("c1")
        assert s.is_over and s.winner == "X"

    @pytest.mark.parametrize("text, winner", [
        ("X X X\nO O .\n. . .\nmover: O", "X"),
        ("O X .\nO X .\n. X .\nmover: O", "X"),
        ("X O .\nX O .\n. O X\nmover: X", "O"),
        ("X X O\nX O .\nO . .\nmover: X", "O"),
    ])
    def test_from_text_sets_the_winner(self, text: str, winner: str) -> None:
        s = game("tictactoe").from_text(text)
        assert s.is_over
        assert s.winner == winner
        assert s.mover is None
        assert s.legal_moves() == []

    def test_from_text_game_in_progress(self) -> None:
        s = game("tictactoe").from_text("X . .\n. O .\n. . X\nmover: O\n")
        assert not s.is_over and s.winner is None and s.mover == "O"
        assert moves(s) == {"b3", "c3", "a2", "c2", "a1", "b1"}

    def test_to_text(self) -> None:
        g = game("tictactoe")
        assert g.initial_state().to_text() == ". . .\n. . .\n. . .\nmover: X\n"
        s = play(g.initial_state(), "a3", "c1", "b2")
        assert lines(s.to_text()) == ["X . .", ". X .", ". . O", "mover: O"]

    def test_play_returns_a_new_state(self) -> None:
        s = game("tictactoe").initial_state()
        t = s.play("b2")
        assert s.to_text() == ". . .\n. . .\n. . .\nmover: X\n"
        assert len(s.legal_moves()) == 9
        assert t.mover == "O" and len(t.legal_moves()) == 8

    def test_play_accepts_a_move_object(self) -> None:
        s = game("tictactoe").initial_state()
        (b2,) = [m for m in s.legal_moves() if str(m) == "b2"]
        assert s.play(b2).to_text() == s.play("b2").to_text()

    def test_occupied(self) -> None:
        s = play(game("tictactoe").initial_state(), "b2")
        message = illegal(s, "b2")
        assert "occupied" in message

    @pytest.mark.parametrize("move", ["d4", "a0", "a4", "z9", "hello"])
    def test_unknown_site(self, move: str) -> None:
        message = illegal(game("tictactoe").initial_state(), move)
        assert "no site" in message or "unknown" in message.lower(), message

    @pytest.mark.parametrize("move", ["b2-c3", "a1,b1", "a1<>b2", "pass", "swap"])
    def test_wrong_kind_of_move(self, move: str) -> None:
        illegal(game("tictactoe").initial_state(), move)

    def test_moving_a_piece_is_not_a_move_here(self) -> None:
        # X owns b2, but Tic-Tac-Toe moves are placements: the message should say how moves
        # are written.
        s = game("tictactoe").from_text("X . .\n. X .\n. . O\nmover: O\n")
        s = s.play("a1")
        message = illegal(s, "b2-c3")
        assert "written" in message or "site" in message, message

    def test_swap_without_pie(self) -> None:
        message = illegal(game("tictactoe").initial_state(), "swap")
        assert "pie" in message

    def test_pass_not_allowed(self) -> None:
        message = illegal(game("tictactoe").initial_state(), "pass")
        assert "pass" in message

    def test_empty_move(self) -> None:
        with pytest.raises(IllegalMoveError):
            game("tictactoe").initial_state().play("")

    def test_not_a_move_at_all(self) -> None:
        with pytest.raises(IllegalMoveError):
            game("tictactoe").initial_state().play(42)  # type: ignore[arg-type]

    def test_illegal_move_error_is_a_value_error(self) -> None:
        with pytest.raises(ValueError):
            game("tictactoe").initial_state().play("d4")
        assert issubclass(IllegalMoveError, GameError)

    @pytest.mark.parametrize("text, fragment", [
        ("X . .\n. . .\nmover: O", "rows"),               # two rows, not three
        ("X . .\n. . .\n. . .\n. . .\nmover: O", "rows"),  # four rows
        ("X . .\n. . .\n. . Z\nmover: O", "Z"),           # unknown symbol
        ("X . .\n. R .\n. . .\nmover: O", "R"),           # another game's symbol
        ("X . .\n. . .\n. . .\nmover: Z", "Z"),           # unknown mover
        ("X . .\n. . .\n. . .\nmover: x", "x"),           # role names are exact
        ("X . . .\n. . .\n. . .\nmover: O", "cells"),     # a row too long
        ("X .\n. . .\n. . .\nmover: O", "cells"),         # a row too short
        ("X . .\n. . .\n. . .\nmover: O\ncolour: red", "colour"),  # unknown key
        ("", "rows"),
    ])
    def test_position_text_errors(self, text: str, fragment: str) -> None:
        with pytest.raises(GameError) as info:
            game("tictactoe").from_text(text)
        assert fragment in str(info.value), str(info.value)


# =============================================================================================
# Connect Four
# =============================================================================================

C4_EMPTY = ". . . . . . .\n" * 6


class TestConnectFour:
    def test_declaration(self) -> None:
        g = game("connectfour")
        assert g.players == ("Red", "Yellow")
        assert len(g.sites) == 42
        assert g.sites[:7] == ("a6", "b6", "c6", "d6", "e6", "f6", "g6")
        assert g.sites[-7:] == ("a1", "b1", "c1", "d1", "e1", "f1", "g1")
        s = g.initial_state()
        assert s.mover == "Red"
        assert s.to_text() == C4_EMPTY + "mover: Red\n"

    def test_gravity_only_landing_sites(self) -> None:
        s = game("connectfour").initial_state()
        assert moves(s) == {"a1", "b1", "c1", "d1", "e1", "f1", "g1"}
        s = s.play("d1")
        assert s.mover == "Yellow"
        assert moves(s) == {"a1", "b1", "c1", "d2", "e1", "f1", "g1"}
        s = s.play("d2")
        assert moves(s) == {"a1", "b1", "c1", "d3", "e1", "f1", "g1"}

    def test_full_column_takes_no_more(self) -> None:
        s = play(game("connectfour").initial_state(), "a1", "a2", "a3", "a4", "a5", "a6")
        assert moves(s) == {"b1", "c1", "d1", "e1", "f1", "g1"}
        assert "occupied" in illegal(s, "a6")
        illegal(s, "a7")

    def test_floating_disc_is_illegal(self) -> None:
        s = game("connectfour").initial_state()
        for move in ("a2", "d6", "g3"):
            illegal(s, move)

    def test_floating_disc_message_says_why(self) -> None:
        # a2 on an empty board: the disc would fall to a1. The message should say so (mention
        # the landing site, or that a disc must land / rest on something).
        message = illegal(game("connectfour").initial_state(), "a2")
        assert "a1" in message or "land" in message.lower() or "rest" in message.lower(), \
            message

    def test_occupied_and_unknown(self) -> None:
        s = play(game("connectfour").initial_state(), "c1")
        assert "occupied" in illegal(s, "c1")
        assert "h1" in illegal(s, "h1")
        illegal(s, "c1-c2")

    def test_horizontal_win(self) -> None:
        s = play(game("connectfour").initial_state(), "a1", "a2", "b1", "b2", "c1", "c2")
        assert not s.is_over
        s = s.play("d1")
        assert s.is_over and s.winner == "Red"

    def test_vertical_win(self) -> None:
        s = play(game("connectfour").initial_state(), "a1", "b1", "a2", "b2", "a3", "b3")
        assert not s.is_over
        s = s.play("a4")
        assert s.is_over and s.winner == "Red"

    def test_vertical_win_for_yellow(self) -> None:
        s = play(game("connectfour").initial_state(), "a1", "b1", "a2", "b2", "a3", "b3",
                 "c1", "b4")
        assert s.is_over and s.winner == "Yellow"

    def test_three_is_not_enough(self) -> None:
        s = play(game("connectfour").initial_state(), "a1", "a2", "b1", "b2", "c1", "c2")
        assert not s.is_over
        s = s.play("e1")  # a1 b1 c1 . e1: a gap
        assert not s.is_over

    def test_diagonal_win(self) -> None:
        g = game("connectfour")
        s = g.from_text(pos("""
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . R Y . . .
            . R Y Y . . .
            R Y R R . . Y
            mover: Red
            """))
        assert not s.is_over
        assert "d4" in moves(s)
        s = s.play("d4")
        assert s.is_over and s.winner == "Red"

    def test_anti_diagonal_win(self) -> None:
        g = game("connectfour")
        s = g.from_text(pos("""
            . . . . . . .
            . . . . . . .
            . . . Y . . .
            . . . Y Y . .
            . . . R R Y .
            R R . R Y R .
            mover: Yellow
            """))
        assert not s.is_over
        illegal(s, "g2")
        s = s.play("g1")
        assert s.is_over and s.winner == "Yellow"

    DRAWN = pos("""
        R R Y Y R Y R
        R Y R Y R R R
        R R Y R Y Y Y
        Y Y Y R Y R Y
        R Y Y R R R Y
        Y R R Y Y Y R
        mover: Red
        """)

    def test_full_board_draw_from_text(self) -> None:
        s = game("connectfour").from_text(self.DRAWN)
        assert s.is_over and s.winner is None and s.legal_moves() == []

    def test_full_board_draw_by_play(self) -> None:
        text = self.DRAWN.replace("R R Y Y R Y R", "R R . Y R Y R").replace("Red", "Yellow")
        s = game("connectfour").from_text(text)
        assert not s.is_over
        assert moves(s) == {"c6"}
        s = s.play("c6")
        assert s.is_over and s.winner is None
        assert s.to_text() == self.DRAWN

    def test_from_text_winner(self) -> None:
        s = game("connectfour").from_text(pos("""
            . . . . . . .
            . . . . . . .
            Y . . . . . .
            Y . . . . . .
            Y . . . . . .
            Y R R R . . R
            mover: Red
            """))
        # Yellow a1-a4 is four in a row: Yellow (the player before Red) has won.
        assert s.is_over and s.winner == "Yellow" and s.mover is None

    def test_to_text_after_moves(self) -> None:
        s = play(game("connectfour").initial_state(), "d1", "d2", "e1")
        assert lines(s.to_text()) == [
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . Y . . .",
            ". . . R R . .",
            "mover: Yellow",
        ]

    @pytest.mark.parametrize("text", [
        C4_EMPTY + ". . . . . . .\nmover: Red",       # 7 rows
        ". . . . . . .\n" * 5 + "mover: Red",         # 5 rows
        C4_EMPTY.replace(".", "X", 1) + "mover: Red",  # unknown symbol
        C4_EMPTY + "mover: Blue",                     # unknown mover
    ])
    def test_position_text_errors(self, text: str) -> None:
        with pytest.raises(GameError):
            game("connectfour").from_text(text)


# =============================================================================================
# Hex
# =============================================================================================

class TestHex:
    def test_declaration(self) -> None:
        g = game("hex")
        assert g.players == ("Red", "Blue")
        assert g.options == {"size": 11, "pie": False}
        assert len(g.sites) == 121
        assert g.sites[0] == "a11" and g.sites[10] == "k11" and g.sites[-1] == "k1"

    def test_sites_in_reading_order(self) -> None:
        assert game("hex", size=3).sites == ("a3", "b3", "c3", "a2", "b2", "c2",
                                             "a1", "b1", "c1")

    def test_to_text_indents_each_row_one_more(self) -> None:
        g = game("hex", size=3)
        assert lines(g.initial_state().to_text()) == [". . .", " . . .", "  . . .", "mover: Red"]
        s = play(g.initial_state(), "a1", "c3", "b2")
        assert lines(s.to_text()) == [". . B", " . R .", "  R . .", "mover: Blue"]

    def test_to_text_size_5(self) -> None:
        s = play(game("hex", size=5).initial_state(), "e5", "a1")
        assert lines(s.to_text()) == [
            ". . . . R",
            " . . . . .",
            "  . . . . .",
            "   . . . . .",
            "    B . . . .",
            "mover: Red",
        ]

    def test_indentation_is_free_on_input(self) -> None:
        g = game("hex", size=3)
        s = g.from_text(". . B\n. R .\nR . .\nmover: Blue\n")
        assert lines(s.to_text()) == [". . B", " . R .", "  R . .", "mover: Blue"]

    # Size 3, cell (row r from the top, col c) touches (r, c±1), (r-1, c), (r-1, c+1),
    # (r+1, c-1), (r+1, c). Names: row 0 = a3 b3 c3, row 1 = a2 b2 c2, row 2 = a1 b1 c1.
    @pytest.mark.parametrize("text, winner", [
        # Red b3-b2-b1: (r+1, c) steps
        ("B R .\n . R B\n  . R .\nmover: Blue", "Red"),
        # Red c3-b2-a1: (r+1, c-1) steps, the short diagonal
        (". . R\n . R B\n  R B .\nmover: Blue", "Red"),
        # Red a3-a2-b2-b1? a3-a2 (r+1,c), a2-b2 (r,c+1), b2-a1 (r+1,c-1)
        ("R B .\n R R B\n  R . .\nmover: Blue", "Red"),
        # Blue a2-b2-c2: (r, c+1) steps
        ("R R .\n B B B\n  R . .\nmover: Red", "Blue"),
        # Blue a1-b2-c3: (r-1, c+1) steps
        ("R R B\n . B R\n  B . .\nmover: Red", "Blue"),
        # Blue a3-a2-b1-c1? a3-a2 (r+1,c), a2-b1? no: a2 = (1,0) touches (2,0)=a1 only below.
        # So Blue a3, a2, a1, b1, c1 along the left and bottom edges.
        ("B R R\n B R .\n  B B B\nmover: Red", "Blue"),
    ])
    def test_connection_wins_size_3(self, text: str, winner: str) -> None:
        s = game("hex", size=3).from_text(text)
        assert s.is_over and s.winner == winner and s.mover is None

    @pytest.mark.parametrize("text", [
        # Red a3, b2, c1: (0,0)-(1,1) and (1,1)-(2,2) do not touch
        "R B .\n . R .\n  B . R\nmover: Blue",
        # Blue a3, b2, c1 likewise
        "B R R\n R B .\n  . . B\nmover: Red",
        # Red touches the top (a3) and the bottom (c2-c1) with two separate groups
        "R B .\n . B R\n  B . R\nmover: Red",
    ])
    def test_no_connection_size_3(self, text: str) -> None:
        s = game("hex", size=3).from_text(text)
        assert not s.is_over and s.winner is None

    def test_red_wins_size_5_by_play(self) -> None:
        # Red along the short diagonal e5 d4 c3 b2 a1; Blue a5 b5 c5 d5 on the top row.
        s = play(game("hex", size=5).initial_state(),
                 "e5", "a5", "d4", "b5", "c3", "c5", "b2", "d5")
        assert not s.is_over
        s = s.play("a1")
        assert s.is_over and s.winner == "Red"

    def test_blue_wins_size_4_by_play(self) -> None:
        # Blue a1 b2 c3 d4 (up-right, (r-1, c+1) steps) joins left and right.
        s = play(game("hex", size=4).initial_state(),
                 "a4", "a1", "a3", "b2", "a2", "c3", "b4")
        assert not s.is_over
        s = s.play("d4")
        assert s.is_over and s.winner == "Blue"

    def test_other_diagonal_does_not_connect_size_4(self) -> None:
        # Red a4 b3 c2 d1: each step is (r+1, c+1), not a neighbour on this rhombus.
        s = play(game("hex", size=4).initial_state(),
                 "a4", "a1", "b3", "b1", "c2", "c1")
        s = s.play("d1")
        assert not s.is_over

    def test_zigzag_size_4(self) -> None:
        # Red d4 (0,3) - c3 (1,2) - c2 (2,2) - b1 (3,1): (r+1,c-1), (r+1,c), (r+1,c-1).
        g = game("hex", size=4)
        s = g.from_text(pos("""
            B B . R
             . . R .
              . B R .
               B R . .
            mover: Blue
            """))
        assert s.is_over and s.winner == "Red"

    def test_occupied_and_unknown(self) -> None:
        s = play(game("hex", size=3).initial_state(), "b2")
        assert "occupied" in illegal(s, "b2")
        illegal(s, "d1")
        illegal(s, "a4")
        illegal(s, "b2-c2")

    def test_no_swap_without_pie(self) -> None:
        s = play(game("hex", size=3).initial_state(), "b2")
        assert "swap" not in moves(s)
        illegal(s, "swap")

    def test_pie_swap(self) -> None:
        g = load_game(GAMES / "hex.game", size=3, pie=True)
        assert g.options == {"size": 3, "pie": True}
        s = g.initial_state()
        assert "swap" not in moves(s)
        illegal(s, "swap")
        s = s.play("b2")
        assert s.mover == "Blue"
        assert moves(s) == {"swap", "a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"}
        board_before = lines(s.to_text())[:3]
        t = s.play("swap")
        assert lines(t.to_text())[:3] == board_before  # board unchanged
        assert t.mover == "Blue"                       # Blue moves next
        assert not t.is_over
        assert moves(t) == {"a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"}
        illegal(t, "swap")
        u = t.play("a3")
        assert u.mover == "Red" and "swap" not in moves(u)
        v = u.play("c3")
        assert v.mover == "Blue" and "swap" not in moves(v)
        illegal(v, "swap")

    def test_pie_declined(self) -> None:
        g = load_game(GAMES / "hex.game", size=3, pie=True)
        s = play(g.initial_state(), "b2", "a2", "b3")
        assert "swap" not in moves(s)
        illegal(s, "swap")

    def test_pie_position_round_trip(self) -> None:
        g = load_game(GAMES / "hex.game", size=3, pie=True)
        for s in (play(g.initial_state(), "b2"), play(g.initial_state(), "b2", "swap"),
                  play(g.initial_state(), "b2", "swap", "a1")):
            t = g.from_text(s.to_text())
            assert t.to_text() == s.to_text()
            assert moves(t) == moves(s)
            assert t.mover == s.mover

    def test_pie_from_text(self) -> None:
        g = load_game(GAMES / "hex.game", size=3, pie=True)
        s = g.from_text(". . .\n . R .\n  . . .\nmover: Blue\n")
        assert "swap" in moves(s)

    @pytest.mark.parametrize("text", [
        ". . .\n . . .\nmover: Red",                 # 2 rows
        ". . .\n . . . .\n  . . .\nmover: Red",      # a row too long
        ". . .\n . W .\n  . . .\nmover: Red",        # unknown symbol
        ". . .\n . . .\n  . . .\nmover: Green",      # unknown mover
    ])
    def test_position_text_errors(self, text: str) -> None:
        with pytest.raises(GameError):
            game("hex", size=3).from_text(text)


# =============================================================================================
# Reversi
# =============================================================================================

REVERSI_START = pos("""
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . W B . . .
    . . . B W . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    mover: Black
    """)


class TestReversi:
    def test_start(self) -> None:
        g = game("reversi")
        assert g.players == ("Black", "White")
        s = g.initial_state()
        assert s.to_text() == REVERSI_START
        assert moves(s) == {"c5", "d6", "e3", "f4"}

    def test_first_move_flips(self) -> None:
        s = game("reversi").initial_state().play("c5")
        assert lines(s.to_text())[3:5] == [". . B B B . . .", ". . . B W . . ."]
        assert s.mover == "White"
        # White's replies: those flanking one of Black's discs
        assert moves(s) == {"c4", "c6", "e6"}

    def test_flips_in_several_directions_at_once(self) -> None:
        g = game("reversi")
        s = g.from_text(pos("""
            . . . . . . . W
            . . . B . . W .
            . . . W . W . .
            . . . W W . . .
            . . B . W B . .
            . . W W W . . .
            . B . . . W . .
            . . . . . . B .
            mover: Black
            """))
        assert not s.is_over
        t = s.play("d4")
        # N: d5 d6 (closed by d7); E: e4 (f4); SW: c3 (b2); SE: e3 f2 (g1).
        # Not flipped: S d3 (open end), NE e5 f6 g7 h8 (runs to the edge), W (nothing between).
        assert lines(t.to_text()) == [
            ". . . . . . . W",
            ". . . B . . W .",
            ". . . B . W . .",
            ". . . B W . . .",
            ". . B B B B . .",
            ". . B W B . . .",
            ". B . . . B . .",
            ". . . . . . B .",
            "mover: White",
        ]

    def test_flips_in_the_other_directions(self) -> None:
        g = game("reversi")
        s = g.from_text(pos("""
            . . . . . . . .
            . . B . . . B .
            . . . W W W . .
            . B W W . . . .
            . . . . W . . .
            . . . . B . . .
            . . . . . . . .
            . . . . . . . .
            mover: Black
            """))
        t = s.play("e5")
        # S: e4 (e3); W: d5 c5 (b5); NW: d6 (c7); NE: f6 (g7). N: e6 stays (e7 is empty).
        assert lines(t.to_text()) == [
            ". . . . . . . .",
            ". . B . . . B .",
            ". . . B W B . .",
            ". B B B B . . .",
            ". . . . B . . .",
            ". . . . B . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            "mover: White",
        ]

    @pytest.mark.parametrize("move", ["a1", "c4", "f6", "d3", "f5"])
    def test_no_flip_is_illegal(self, move: str) -> None:
        # On the start position these bracket nothing (c4 and f5 touch only Black discs or
        # White discs with no Black disc behind them).
        message = illegal(game("reversi").initial_state(), move)
        assert "captur" in message or "flank" in message, message

    def test_occupied(self) -> None:
        message = illegal(game("reversi").initial_state(), "d4")
        assert "occupied" in message

    def test_pass_not_allowed_with_a_move(self) -> None:
        illegal(game("reversi").initial_state(), "pass")

    def test_forced_pass(self) -> None:
        g = game("reversi")
        text = ". . . . . . . .\n" * 7 + "B W . . . . . W\nmover: White\n"
        s = g.from_text(text)
        # White has nothing to flank: its only move is pass.
        assert not s.is_over
        assert [str(m) for m in s.legal_moves()] == ["pass"]
        illegal(s, "c1")
        t = s.play("pass")
        assert not t.is_over and t.mover == "Black"
        assert moves(t) == {"c1"}
        # c1 flips b1; White's h1 is out of reach of everything: neither can move. 3 - 1.
        u = t.play("c1")
        assert u.is_over
        assert u.winner == "Black"

    def test_round_trip_after_pass(self) -> None:
        g = game("reversi")
        s = g.from_text(". . . . . . . .\n" * 7 + "B W . . . . . W\nmover: White\n")
        t = s.play("pass")
        assert g.from_text(t.to_text()).to_text() == t.to_text()
        assert moves(g.from_text(t.to_text())) == {"c1"}

    def test_end_when_neither_can_move_board_not_full(self) -> None:
        g = game("reversi")
        s = g.from_text("W . . . . . . .\n" + ". . . . . . . .\n" * 6
                        + "B W . . . . . .\nmover: Black\n")
        assert moves(s) == {"c1"}
        t = s.play("c1")
        assert t.is_over and t.winner == "Black" and t.mover is None
        assert t.legal_moves() == []

    def test_equal_discs_draw(self) -> None:
        g = game("reversi")
        s = g.from_text(". . . . . . . W\n. . . . . . . W\n. . . . . . . W\n"
                        + ". . . . . . . .\n" * 4 + "B W . . . . . .\nmover: Black\n")
        t = s.play("c1")
        assert t.is_over and t.winner is None

    def test_more_discs_wins_from_text(self) -> None:
        g = game("reversi")
        s = g.from_text(". . . . . . . B\n" + ". . . . . . . .\n" * 6
                        + "W W W . . . . .\nmover: Black\n")
        assert s.is_over and s.winner == "White"

    def test_one_colour_left_is_over(self) -> None:
        g = game("reversi")
        s = g.from_text(". . . . . . . .\n" * 3 + ". . . B B . . .\n. . . B B . . .\n"
                        + ". . . . . . . .\n" * 3 + "mover: White\n")
        assert s.is_over and s.winner == "Black"

    def test_full_board_count(self) -> None:
        g = game("reversi")
        rows = ["B B B B B B B B"] * 4 + ["W W W W W W W W"] * 4
        s = g.from_text("\n".join(rows) + "\nmover: White\n")
        assert s.is_over and s.winner is None      # 32 to 32
        rows[0] = "B B B B B B B W"
        s = g.from_text("\n".join(rows) + "\nmover: Black\n")
        assert s.is_over and s.winner == "White"   # 33 to 31
        rows[-1] = "W W W B B W W W"
        s = g.from_text("\n".join(rows) + "\nmover: White\n")
        assert s.is_over and s.winner == "Black"   # 33 to 31

    @pytest.mark.parametrize("text", [
        REVERSI_START.replace("mover: Black", "mover: Red"),
        REVERSI_START.replace(". . . W B . . .", ". . . O B . . ."),
        REVERSI_START.replace(". . . W B . . .\n", ""),
    ])
    def test_position_text_errors(self, text: str) -> None:
        with pytest.raises(GameError):
            game("reversi").from_text(text)


# =============================================================================================
# Breakthrough
# =============================================================================================

BREAKTHROUGH_START = pos("""
    B B B B B B B B
    B B B B B B B B
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    W W W W W W W W
    W W W W W W W W
    mover: Black
    """)


def bt_rows(**pieces: str) -> list[str]:
    """Rows of an 8x8 board, top first, with pieces given as site=symbol (a1="W")."""
    grid = [["."] * 8 for _ in range(8)]
    for site, symbol in pieces.items():
        col = ord(site[0]) - ord("a")
        row = 8 - int(site[1:])
        grid[row][col] = symbol
    return [" ".join(r) for r in grid]


def bt_pos(mover: str = "Black", **pieces: str) -> str:
    return "\n".join(bt_rows(**pieces)) + f"\nmover: {mover}\n"


class TestBreakthrough:
    def test_refused_steps_say_where_the_piece_can_go(self) -> None:
        s = game("breakthrough").initial_state()
        assert illegal(s, "b7-b5") == "b7-b5: the piece on b7 can move only to c6, b6, a6"
        assert illegal(s, "b8-b7") == "b8-b7: the piece on b8 cannot move now"
        assert illegal(s, "a2-a3") == "a2-a3: a2 holds no piece of Black's"

    def test_start(self) -> None:
        g = game("breakthrough")
        assert g.players == ("Black", "White")
        s = g.initial_state()
        assert s.to_text() == BREAKTHROUGH_START
        ms = moves(s)
        assert len(ms) == 22
        assert {"a7-a6", "a7-b6", "d7-c6", "d7-d6", "d7-e6", "h7-g6", "h7-h6"} <= ms
        assert all(m[1] == "7" and m[-1] == "6" for m in ms)

    def test_to_text_after_a_move(self) -> None:
        s = game("breakthrough").initial_state().play("c7-d6")
        assert lines(s.to_text())[:3] == ["B B B B B B B B", "B B . B B B B B",
                                          ". . . B . . . ."]
        assert lines(s.to_text())[-1] == "mover: White"

    def test_forward_steps(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(d5="B", a1="W", h8="B"))
        assert moves(s) == {"d5-c4", "d5-d4", "d5-e4", "h8-g7", "h8-h7"}
        for m in ("d5-d6", "d5-c5", "d5-e5", "d5-c6", "d5-d3"):
            illegal(s, m)
        t = s.play("d5-d4")
        assert t.mover == "White" and not t.is_over
        w = g.from_text(bt_pos(mover="White", d4="W", a8="B"))
        assert moves(w) == {"d4-c5", "d4-d5", "d4-e5"}

    def test_edge_file(self) -> None:
        s = game("breakthrough").from_text(bt_pos(a5="B", h2="W"))
        assert moves(s) == {"a5-a4", "a5-b4"}

    def test_no_straight_capture(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(d5="B", d4="W", a1="W"))
        assert "d5-d4" not in moves(s)
        illegal(s, "d5-d4")
        assert moves(s) == {"d5-c4", "d5-e4"}

    def test_blocked_by_own_piece(self) -> None:
        s = game("breakthrough").from_text(bt_pos(d5="B", c4="B", d4="B", e4="B", a1="W"))
        assert moves(s) == {"c4-b3", "c4-c3", "c4-d3", "d4-c3", "d4-d3", "d4-e3",
                            "e4-d3", "e4-e3", "e4-f3"}

    def test_diagonal_capture(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(d5="B", c4="W", e4="W", d4="W", a1="W"))
        assert moves(s) == {"d5-c4", "d5-e4"}
        t = s.play("d5-e4")
        assert t.to_text() == bt_pos(mover="White", c4="W", e4="B", d4="W", a1="W")
        assert not t.is_over

    def test_white_captures_diagonally(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(mover="White", e4="W", d5="B", f5="B", e5="B", h8="B"))
        assert moves(s) == {"e4-d5", "e4-f5"}
        t = s.play("e4-f5")
        assert t.to_text() == bt_pos(mover="Black", f5="W", d5="B", e5="B", h8="B")

    def test_far_row_wins(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(b2="B", h7="B", g5="W", a5="W"))
        t = s.play("b2-b1")
        assert t.is_over and t.winner == "Black" and t.mover is None
        t = s.play("b2-c1")
        assert t.is_over and t.winner == "Black"
        w = g.from_text(bt_pos(mover="White", g7="W", b2="B", c3="W"))
        t = w.play("g7-h8")
        assert t.is_over and t.winner == "White"
        t = w.play("c3-c4")
        assert not t.is_over

    def test_far_row_by_capture_wins(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(mover="White", g7="W", h8="B", a8="B", c5="B"))
        t = s.play("g7-h8")
        assert t.is_over and t.winner == "White"

    def test_capturing_the_last_piece_wins(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(d5="B", e4="W"))
        t = s.play("d5-e4")
        assert t.is_over and t.winner == "Black"
        assert t.legal_moves() == []

    def test_from_text_winner(self) -> None:
        g = game("breakthrough")
        s = g.from_text(bt_pos(mover="White", c1="B", d4="W"))
        assert s.is_over and s.winner == "Black"
        s = g.from_text(bt_pos(mover="Black", e8="W", d4="B"))
        assert s.is_over and s.winner == "White"
        s = g.from_text(bt_pos(mover="Black", d4="W"))
        assert s.is_over and s.winner == "White"

    def test_moving_an_opponents_piece(self) -> None:
        s = game("breakthrough").initial_state()
        message = illegal(s, "a2-a3")
        assert "a2" in message and ("Black" in message or "White" in message
                                    or "own" in message), message

    def test_moving_from_an_empty_site(self) -> None:
        message = illegal(game("breakthrough").initial_state(), "c4-c3")
        assert "c4" in message

    def test_wrong_notation(self) -> None:
        s = game("breakthrough").initial_state()
        message = illegal(s, "a6")
        assert "written" in message or "from" in message, message
        illegal(s, "a7-a6-a5")
        illegal(s, "a7-i6")
        illegal(s, "pass")
        illegal(s, "a7")

    def test_occupied_target(self) -> None:
        illegal(game("breakthrough").initial_state(), "a8-a7")

    @pytest.mark.parametrize("text", [
        BREAKTHROUGH_START.replace("mover: Black", "mover: Grey"),
        BREAKTHROUGH_START.replace("W W W W W W W W\nmover", "W W W W W W W Q\nmover"),
        BREAKTHROUGH_START.replace("B B B B B B B B\n", "", 1),
        BREAKTHROUGH_START.replace("B B B B B B B B\n", "B B B B B B B B B\n", 1),
    ])
    def test_position_text_errors(self, text: str) -> None:
        with pytest.raises(GameError):
            game("breakthrough").from_text(text)


# =============================================================================================
# Move objects
# =============================================================================================

class TestMoveObjects:
    def test_legal_move_objects_print_their_notation(self) -> None:
        s = game("breakthrough").initial_state()
        for m in s.legal_moves():
            assert s.play(m).to_text() == s.play(str(m)).to_text()

    @pytest.mark.parametrize("source, target, notation", [
        # Connect Four's a1 in Tic-Tac-Toe: a1 exists there too
        (("connectfour", ()), ("tictactoe", ()), "a1"),
        # Hex 5x5's a5 on a 3x3 board, where there is no a5
        (("hex", (("size", 5),)), ("hex", (("size", 3),)), "a5"),
        # Hex 5x5's c1 on a 3x3 board, where c1 names another cell
        (("hex", (("size", 5),)), ("hex", (("size", 3),)), "c1"),
    ], ids=["connectfour-a1-in-tictactoe", "hex5-a5-on-hex3", "hex5-c1-on-hex3"])
    def test_a_move_object_from_another_game(self, source, target, notation) -> None:
        """A Move made for another game stands for its notation: it is played as that
        notation, or refused with IllegalMoveError; never another site, never a traceback."""
        (move,) = [m for m in game(source[0], **dict(source[1])).initial_state().legal_moves()
                   if str(m) == notation]
        state = game(target[0], **dict(target[1])).initial_state()
        try:
            expected = state.play(notation).to_text()
        except IllegalMoveError:
            expected = None
        if expected is None:
            with pytest.raises(IllegalMoveError):
                state.play(move)
        else:
            try:
                actual = state.play(move).to_text()
            except IllegalMoveError:
                return
            assert actual == expected
