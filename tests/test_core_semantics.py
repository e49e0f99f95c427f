"""Semantics of the turn that the engine core now gets right, each from a position text:
captures seen by end conditions and by (forbid ...), declining a continuation, and (first-of
...) under (forbid ...). Each failed before the core applied steps as actions."""

from __future__ import annotations

import random
import textwrap

import pytest

from interpreter import IllegalMoveError, parse_game


def game(body: str, name: str = "T"):  # type: ignore[no-untyped-def]
    return parse_game(textwrap.dedent(body), source=f"{name}.game")


# Pieces hop over an enemy piece to take it; or step one square.
HOPS = """
(game "Hops"
  (players {(player "White" symbol:"W") (player "Black" symbol:"B")})
  (board (square 4))
  (play %s)
  (end %s))
"""


def hops(play: str, end: str = "(if (stuck Next) (win Mover))",  # type: ignore[no-untyped-def]
         start: str = ""):
    text = HOPS % (play, end)
    if start:
        text = text.replace("  (play ", f"  (start {start})\n  (play ")
    return game(text, "hops")


def test_captured_in_an_end_condition_is_true_after_a_capturing_turn() -> None:
    g = hops("(any-of (hop Orthogonal) (step Orthogonal))",
             '(if (named "first blood" (captured)) (win Mover))')
    state = g.from_text(". . . .\n. . . .\n. . . .\nW B . .\nmover: White")
    quiet = state.play("a1-a2")
    assert not quiet.is_over
    taken = state.play("a1-c1")
    assert taken.is_over and taken.winner == "White"
    assert taken.outcome is not None and taken.outcome.reason == "first blood"


def test_captured_counts_removals_made_by_remove_steps() -> None:
    g = game("""
        (game "Go-like"
          (players {(player "Black" symbol:"B") (player "White" symbol:"W")})
          (board (square 3))
          (play (place (sites Empty)) (remove (sites Surrounded Next)))
          (end (if (named "took" (captured)) (win Mover))))
    """, "golike")
    assert not g.from_text(". . .\n. . .\nW B .\nmover: Black").play("c3").is_over
    state = g.from_text(". . .\n. . .\nW B .\nmover: Black")
    taken = state.play("a2")  # the white stone on a1 has no liberty left
    assert taken.to_text().splitlines()[2] == ". B ."
    assert taken.winner == "Black" and taken.outcome.reason == "took"  # type: ignore[union-attr]


def test_forbid_captured_forbids_capturing_moves() -> None:
    g = hops('(any-of (hop Orthogonal) (step Orthogonal)) '
             '(forbid (named "no taking" (captured)))')
    state = g.from_text(". . . .\n. . . .\n. . . .\nW B . .\nmover: White")
    moves = {str(m) for m in state.legal_moves()}
    assert "a1-c1" not in moves and "a1-a2" in moves
    with pytest.raises(IllegalMoveError, match="a1-c1: no taking"):
        state.play("a1-c1")


def test_declining_a_continuation_ends_the_turn() -> None:
    g = hops("(any-of (hop Orthogonal) (step Orthogonal)) "
             "(continue (optional (hop Orthogonal from:LastTo)) if:(captured))")
    state = g.from_text(". . . .\n. . . .\nB . . .\nW B . .\nmover: White")
    mid = state.play("a1-c1")  # took b1; may jump on... there is nothing more: the turn ends
    assert mid.mover == "Black"
    state = g.from_text(". . . .\n. . . .\n. . B .\nW B . .\nmover: White")
    mid = state.play("a1-c1")
    assert mid.mover == "White" and {str(m) for m in mid.legal_moves()} == {"c1-c3", "pass"}
    after = mid.play("pass")
    assert after.mover == "Black"  # before, the same choice came back for ever


def test_random_games_with_an_optional_continuation_end() -> None:
    g = hops("(any-of (hop Orthogonal) (step Orthogonal)) "
             "(continue (optional (hop Orthogonal from:LastTo)) if:(captured))",
             "(if (>= (turns) 30) (draw))",
             start='(put "White" (sites Row 1)) (put "Black" (sites Row 2))')
    for seed in range(5):
        state, plies = g.playout(random.Random(seed))
        assert state.is_over and plies < 200


def test_first_of_offers_the_next_alternative_when_every_move_is_forbidden() -> None:
    g = hops('(first-of (hop Orthogonal) (step Orthogonal)) '
             '(forbid (named "no taking" (captured)))')
    state = g.from_text(". . . .\n. . . .\n. . . .\nW B . .\nmover: White")
    moves = {str(m) for m in state.legal_moves()}
    assert moves == {"a1-a2"}  # before: no legal move at all


def test_an_end_rule_keeps_its_name_whichever_part_decided() -> None:
    g = game("""
        (game "Either"
          (players {(player "X" symbol:"X") (player "O" symbol:"O")})
          (board (square 3))
          (play (place (sites Empty)))
          (end (if (or (line 3) (full)) (win Mover))))
    """, "either")
    names = g.end_reasons()
    won = g.from_text("X X .\nO O .\n. . .\nmover: X").play("c3")
    assert won.is_over and won.outcome.reason == names[0]  # type: ignore[union-attr]
    full = g.from_text("X O X\nX O O\nO X .\nmover: X").play("c1")
    assert full.is_over and full.outcome.reason == names[0]  # type: ignore[union-attr]
    assert g.end_reasons() == names


@pytest.mark.parametrize("path, keys", [
    ("games/chess.game", ["halfmove", "fullmove", "castling", "en passant"]),
    ("games/dotsandboxes.game", ["score First", "score Second"]),
    ("games/tictactoe.game", []),
])
def test_position_text_keys_come_from_the_state_the_game_declares(path: str,
                                                                   keys: list[str]) -> None:
    from pathlib import Path

    from interpreter import load_game

    g = load_game(str(Path(__file__).resolve().parent.parent / path))
    text = g.initial_state().to_text() + "colour: red\n"
    with pytest.raises(Exception, match="unknown key 'colour'") as info:
        g.from_text(text)
    listed = str(info.value).split("(keys: ")[1].rstrip(")").split(", ")
    for key in keys:
        assert key in listed
    for absent in {"halfmove", "score First", "turns", "last to"} - set(keys):
        assert absent not in listed
