"""Chess960 through games/chess.game's `back` option: the start position and castling by the
Chess960 rules (king to c or g, rook to d or f, written as the king moving onto its rook),
checked on position texts, and move by move against python-chess where it is installed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game

CHESS = Path(__file__).resolve().parent.parent / "games" / "chess.game"


def position(rows: list[str], mover: str = "White", castling: str = "") -> str:
    keys = [f"mover: {mover}"] + ([f"castling: {castling}"] if castling else [])
    return "\n".join([" ".join(r) for r in rows] + keys) + "\n"


def test_the_back_rank_option_sets_both_sides() -> None:
    state = load_game(CHESS, back="BBQNNRKR").initial_state()
    rows = state.to_text().splitlines()
    assert rows[0] == "b b q n n r k r" and rows[7] == "B B Q N N R K R"
    assert state.play("e1-d3").mover == "Black"  # a knight's move


def test_a_back_rank_that_is_not_eight_pieces_is_refused() -> None:
    from interpreter import RuleError

    # The option's letters-of: refuses them before (put-row ...) is reached (its own
    # refusals: tests/test_option_values.py).
    with pytest.raises(RuleError, match='back="RNBQKBN" is not the letters of "RNBQKBNR"'):
        load_game(CHESS, back="RNBQKBN")
    with pytest.raises(RuleError, match='back="RNBQKBNX" is not the letters of "RNBQKBNR"'):
        load_game(CHESS, back="RNBQKBNX")


def test_castling_where_the_king_does_not_move() -> None:
    """King on g1, rook on h1: castling on the h side leaves the king on g1 and puts the rook
    on f1, written g1-h1."""
    game = load_game(CHESS, back="RNBQNBKR")
    state = game.from_text(position(["r . . . k . . r", "p p p p p p p p", "........",
                                     "........", "........", "........",
                                     "P P P P P P P P", "R . . . . . K R"], castling="KQkq"
                                    ).replace("........", ". . . . . . . ."))
    moves = {str(m) for m in state.legal_moves()}
    assert "g1-h1" in moves and "g1-a1" in moves  # both sides: nothing between
    after = state.play("g1-h1")
    assert after.to_text().splitlines()[7] == "R . . . . R K ."
    queen_side = state.play("g1-a1")
    assert queen_side.to_text().splitlines()[7] == ". . K R . . . R"
    assert "castling: kq" in after.to_text()


def test_castling_needs_every_crossed_square_empty_and_safe() -> None:
    """King b1, rook a1: castling long puts the king on c1 and the rook on d1, so c1 and d1
    must be empty, and b1 and c1 not attacked."""
    game = load_game(CHESS, back="RKNBBQNR")
    base = [". k . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
            ". . . . . . . .", ". . . . . . . .", ". . . . . . . ."]
    free = game.from_text(position(base + ["R K . . . . . R"], castling="KQ"))
    assert "b1-a1" in {str(m) for m in free.legal_moves()}
    blocked = game.from_text(position(base + ["R K . N . . . R"], castling="KQ"))
    assert "b1-a1" not in {str(m) for m in blocked.legal_moves()}
    attacked = game.from_text(position([". k r . . . . ."] + base[1:] + ["R K . . . . . R"],
                                       castling="KQ"))
    assert "b1-a1" not in {str(m) for m in attacked.legal_moves()}


def test_random_chess960_games_agree_with_python_chess() -> None:
    """Ten seeded random Chess960 games, the legal moves equal at every position (python-chess
    writes Chess960 castling as the king taking its rook, as ludeme does)."""
    chess = pytest.importorskip("chess", reason="python-chess is the oracle of this test "
                                "(pip install -e '.[bench]')")

    def notation(move: object) -> str:
        uci = move.uci()  # type: ignore[attr-defined]
        return f"{uci[:2]}-{uci[2:4]}" + (f"={uci[4].upper()}" if len(uci) > 4 else "")

    rng = random.Random(960)
    for _ in range(10):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        back = board.fen().split("/")[-1].split()[0]
        state = load_game(CHESS, back=back).initial_state()
        for _ in range(200):
            if state.is_over:
                break
            ours = sorted(str(m) for m in state.legal_moves())
            assert ours == sorted(notation(m) for m in board.legal_moves), (back, board.fen())
            move = rng.choice(list(board.legal_moves))
            state = state.play(notation(move))
            board.push(move)
