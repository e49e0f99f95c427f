"""Small games the adapter tests share: one that never ends, and one that ends with the player
to move stuck although no end condition holds."""

ENDLESS = """(game "Endless" (players {(player "A") (player "B")}) (board (square 2))
  (play (pass)) (end (if (full) (draw))))"""
STUCK = """(game "Stuck" (players {(player "A") (player "B")}) (board (square 2))
  (play (place (sites Empty))) (end (if (line 3) (win Mover))))"""
