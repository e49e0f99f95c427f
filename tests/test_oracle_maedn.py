"""Mensch ärgere dich nicht against OpenSpiel's `maedn`, an independent engine.

Random games are played through ludeme (games/maedn.game) and OpenSpiel in lockstep: at every
position both must agree on whether the game is over, on who moves or that chance does, on the
chance outcomes with their probabilities, on the legal moves and on the position itself; at
the end, on the returns.

What OpenSpiel plays, read from open_spiel/games/maedn/maedn.{h,cc}:

- 40 common fields, numbered from player 0's start field, then four goal fields per player
  (40-43 for position 0, 44-47 for position 1, ...). Player p sits at position p, except that
  with two players and twoPlayersOpposite (the default) player 1 sits at position 2. A
  position's start field is 10 x position; its pieces go 40 fields round, then into its goal.
- ToString draws the board on an 11 x 11 grid (kFieldToBoardString gives each field's column
  x / 2 and row y from the top): the same grid as our points, which name the field at (x, y)
  by column letter x / 2 and row 11 - y. Pieces off the board are drawn on their position's
  four corner fields, in a fixed order, as many as there are.
- Actions: 0 passes, 1 brings a piece in, 2 + f moves the piece on the field f fields past
  the mover's start (counted along the mover's way, goal fields 40-43). Chance outcomes 0-5
  are the rolls 1-6, each 1/6.
- The first roll is player 0's; after a move (or pass) on a 6 the same player rolls again.
- Legal moves, in this order: while pieces wait off the board, a piece on the start field
  must move if it can (its target does not hold an own piece); else a 6 must bring a piece in
  if the start field holds no own piece; else any piece moves whose target (not past the
  goal's end) holds no own piece; else pass. A piece landed on goes back off the board.
- The game ends when some player's four goal fields are filled; returns are players - 1 for
  that player and -1 for the others.

So a bring-in is our move from the mover's yard to its start field, and a field action our
move from that field's site; the position is compared site by site on the circuit and the
home columns, and by count in the yards.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from oracle import require_openspiel

from interpreter import load_game

pyspiel = require_openspiel("maedn")

GAME = Path(__file__).resolve().parent.parent / "games" / "maedn.game"

# kFieldToBoardString: fields 0-39 (the circuit), 40-55 (goals by position), 56-71 (off the
# board, by position), as (x, y) on ToString's grid.
FIELDS = [(0, 4), (2, 4), (4, 4), (6, 4), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0), (10, 0),
          (12, 0), (12, 1), (12, 2), (12, 3), (12, 4), (14, 4), (16, 4), (18, 4), (20, 4),
          (20, 5), (20, 6), (18, 6), (16, 6), (14, 6), (12, 6), (12, 7), (12, 8), (12, 9),
          (12, 10), (10, 10), (8, 10), (8, 9), (8, 8), (8, 7), (8, 6), (6, 6), (4, 6), (2, 6),
          (0, 6), (0, 5),
          (2, 5), (4, 5), (6, 5), (8, 5), (10, 1), (10, 2), (10, 3), (10, 4), (18, 5), (16, 5),
          (14, 5), (12, 5), (10, 9), (10, 8), (10, 7), (10, 6),
          (0, 0), (2, 0), (2, 1), (0, 1), (18, 0), (20, 0), (20, 1), (18, 1), (18, 10),
          (20, 10), (20, 9), (18, 9), (0, 10), (2, 10), (2, 9), (0, 9)]


def name(field: int) -> str:
    """Our site of OpenSpiel's field: column x / 2 as a letter, row 11 - y."""
    x, y = FIELDS[field]
    return "abcdefghijk"[x // 2] + str(11 - y)


def position(player: int, players: int, opposite: bool) -> int:
    """PlayerToPosition: where the player sits round the board."""
    return 3 - player if players == 2 and opposite and player in (1, 2) else player


def field_of(relative: int, pos: int) -> int:
    """RelPosToAbsPos: the field `relative` fields along the way of the player at `pos`."""
    if relative < 40:
        return (relative + 10 * pos) % 40
    return 4 * pos + relative


def decode(action: int, player: int, players: int, opposite: bool) -> str:
    """An OpenSpiel action of `player` as the key our moves are compared by."""
    if action == 0:
        return "pass"
    if action == 1:
        return "bring in"
    return "from " + name(field_of(action - 2, position(player, players, opposite)))


def key(move: Any, yard: frozenset[str]) -> str:
    """Our move as the same key: a move out of the yard is a bring-in."""
    text = str(move)
    if text == "pass":
        return text
    source = text.split("-")[0]
    return "bring in" if source in yard else "from " + source


def spiel_position(state: Any, players: int, opposite: bool) -> tuple[dict[str, int], list[int]]:
    """OpenSpiel's position read from ToString: the owner of each circuit and goal site, and
    how many pieces each player has off the board."""
    rows = str(state).split("\n")
    owners = {}
    for f in range(56):
        x, y = FIELDS[f]
        ch = rows[y][x]
        if ch.isdigit():
            owners[name(f)] = int(ch) - 1
    out = []
    for p in range(players):
        pos = position(p, players, opposite)
        out.append(sum(rows[FIELDS[56 + 4 * pos + i][1]][FIELDS[56 + 4 * pos + i][0]].isdigit()
                       for i in range(4)))
    return owners, out


def our_position(game: Any, state: Any) -> tuple[dict[str, int], list[int]]:
    """The same of our position: owners on the circuit and homes, pieces in each yard."""
    env = game.env
    yards = env.regions["Yard"]
    in_yard = {s for sites in yards.values() for s in sites}
    owners = {}
    out = [0] * len(game.players)
    for s, value in enumerate(state.board):
        if value:
            who = env.owner[value]
            if s in in_yard:
                out[who] += 1
            else:
                owners[game.sites[s]] = who
    return owners, out


def lockstep(games: int, seed: int, *, opposite: bool = True) -> int:
    """Play `games` random games through both engines; return the decisions compared."""
    game = load_game(GAME, opposite=opposite)
    spiel = pyspiel.load_game("maedn", {"players": 2, "twoPlayersOpposite": opposite})
    yards = {r: frozenset(game.sites[s] for s in sites)
             for r, sites in game.env.regions["Yard"].items()}
    compared = 0
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        ours = game.initial_state()
        theirs = spiel.new_initial_state()
        history: list[str] = []
        while True:
            where = f"game {g} (seed {seed}) after {' '.join(history[-12:])}"
            assert ours.is_over == theirs.is_terminal(), where
            assert our_position(game, ours) == spiel_position(theirs, 2, opposite), where
            if ours.is_over:
                returns = theirs.returns()
                winner = game.players.index(ours.winner)
                assert returns == [1.0 if p == winner else -1.0 for p in range(2)], where
                break
            compared += 1
            if theirs.is_chance_node():
                assert ours.is_chance, where
                outcomes = {str(m): p for m, p in ours.chance_outcomes()}
                assert outcomes == {f"roll:{a + 1}": Fraction(p).limit_denominator(1000)
                                    for a, p in theirs.chance_outcomes()}, where
                action = rng.randrange(6)
                move_text = f"roll:{action + 1}"
            else:
                player = theirs.current_player()
                assert ours.mover == game.players[player], where
                decoded = {decode(a, player, 2, opposite): a for a in theirs.legal_actions()}
                mine = {key(m, yards[player]): str(m) for m in ours.legal_moves()}
                assert set(mine) == set(decoded), where
                chosen = rng.choice(sorted(decoded))
                action, move_text = decoded[chosen], mine[chosen]
            theirs.apply_action(action)
            ours = ours.play(move_text)
            history.append(move_text)
    return compared


def test_the_board_is_openspiels() -> None:
    game = load_game(GAME)
    track = game.env.tracks["Track"]
    for p in range(2):
        order, loop = track[p]
        pos = position(p, 2, True)
        assert not loop
        assert [game.sites[s] for s in order] == [name(field_of(i, pos)) for i in range(44)]


@pytest.mark.parametrize("opposite", [True, False])
def test_random_games_agree_move_by_move(opposite: bool) -> None:
    assert lockstep(12, seed=1 if opposite else 2, opposite=opposite) > 3000


@pytest.mark.slow
def test_many_random_games_agree_move_by_move() -> None:
    assert lockstep(200, seed=3) > 50_000
