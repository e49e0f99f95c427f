"""The ludemes of optional and forced promotion (stdlib/promotion.py) and of forward leaps and
lines through a region (stdlib/oriented.py), on a small game that is not shogi: a 5 x 5 board
where a pawn steps forward, a knight leaps two rows forward and one across, either may promote
(to a queen, a rider) in the last two rows, and pieces in hand drop only where they could move
and not on a column holding one of the player's pawns."""

from __future__ import annotations

from interpreter import parse_game

GAME = """
(define "Moves" (any-of
  (may-promote (step Forward of:"Pawn" to:EmptyOrEnemy) to:"Queen" in:(sites Named "Zone"))
  (may-promote (leap-ahead 1 2 of:"Knight") to:"Queen" in:(sites Named "Zone"))
  (slide All of:"Queen" to:EmptyOrEnemy)))
(game "Forward"
  (players captures:"hand"
    {(player "North" symbol:"P" piece:"Pawn" forward:N
             kinds:{(piece "Knight" symbol:"N") (piece "Queen" symbol:"Q" demotes:"Pawn")})
     (player "South" symbol:"p" piece:"Pawn" forward:S
             kinds:{(piece "Knight" symbol:"n") (piece "Queen" symbol:"q" demotes:"Pawn")})})
  (board (square 5))
  (region "Zone" (sites Row 4 5) owner:"North")
  (region "Zone" (sites Row 1 2) owner:"South")
  (play (any-of ("Moves")
    (drop-from-hand (difference (sites Empty)
                                (union (sites Stranded "Pawn" by:("Moves"))
                                       (sites Along (sites Occupied Mover of:{"Pawn"}) {N S})))
                    of:{"Pawn"})
    (drop-from-hand (difference (sites Empty) (sites Stranded "Knight" by:("Moves")))
                    of:{"Knight"})))
  (end (if (= (in-hand Mover of:{"Knight"}) 2) (win Mover))))
"""


def moves(text: str) -> set[str]:
    game = parse_game(GAME, source="forward.game")
    return {str(m) for m in game.from_text(text).legal_moves()}


def test_promotion_is_optional_in_the_zone_and_forced_where_no_move_is_left() -> None:
    found = moves(". . . . .\n. . . P .\nP . . . .\n. N . . .\n. . . . .\nmover: North")
    assert {"a3-a4", "a3-a4=Q"} <= found  # entering the zone: either
    assert "d4-d5=Q" in found and "d4-d5" not in found  # the last row: a pawn must promote
    assert {"b2-a4=Q", "b2-c4=Q"} <= found and "b2-a4" not in found  # no leap from row 4
    assert not {m for m in found if m.startswith("b2-") and m[-1] in "123"}  # never back


def test_a_knight_leaps_only_forward_for_each_player() -> None:
    found = moves(". . . . .\n. . n . .\n. . . . .\n. . . . .\n. . . . .\nmover: South")
    assert found == {"c4-b2=Q", "c4-d2=Q"}  # two rows down, where it could not leap again


def test_drops_keep_off_stranded_squares_and_pawn_columns() -> None:
    found = moves(". . . . .\n. . . . .\n. . P . .\n. . . . .\n. . . . .\nmover: North\n"
                  "in hand North: P1 N1")
    pawn = {m[2:] for m in found if m.startswith("P*")}
    knight = {m[2:] for m in found if m.startswith("N*")}
    assert not {s for s in pawn if s[0] == "c" or s[1] == "5"}  # its column, the last row
    assert "a4" in pawn and "a4" not in knight and "a3" in knight  # a knight needs 2 rows


def test_in_hand_counts_by_kind() -> None:
    game = parse_game(GAME, source="forward.game")
    text = ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\nmover: South\n"
    assert game.from_text(text + "in hand North: P1 N2").winner == "North"
    assert game.from_text(text + "in hand North: P2 N1").winner is None
