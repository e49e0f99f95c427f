"""Chinese checkers against OpenSpiel's `chinese_checkers`, decision by decision.

games/chinese-checkers.game is played through ludeme and OpenSpiel in lockstep
(`tests/oracle.py`): at every decision the legal moves, the player to move, whether the game is
over and, at the end, the winner must agree. What OpenSpiel plays, read from
open_spiel/games/chinese_checkers/chinese_checkers.{h,cc}:

- the 121-point star in 17 rows; a position is numbered in reading order (row 0 at the top,
  left to right), and ToString prints each at its "doubled column" (neighbours two columns
  apart in a row, one apart in the rows above and below). Here the positions' places are read
  off OpenSpiel's own ToString and named as ludeme names hex sites (letter within the row, row
  from the bottom); the adjacency OpenSpiel's six offsets give is compared with the board's.
- players 2, 3, 4 or 6 on the triangles N (player 0, moving first), NE, SE, S, SW, NW:
  2 players N, S; 3 N, SE, SW; 4 N, NE, S, SW; 6 all — the game file's order and homes.
- an action is a position and a direction: a step if the neighbour there is empty, else a hop
  over it. A hop chain is one action per hop: after a hop, only hops of that piece to points
  not yet visited in the chain (its start included) and Pass; the chain ends by itself where
  no such hop is left. So one OpenSpiel action is one ludeme decision, read here from
  `action_to_string` ("3->14" a step, "3=>14" a hop, "Pass").
- Pass is also the only action of a player with no move at all.
- the mover wins once its target triangle holds only its own pieces (checked after its turn);
  returns are n - 1 for the winner and -1 for the others.
- `max_moves` (default 1000) turns end the game in a draw; the file's `limit` option.

Where it differs from the published rules: only in that limit (the published game has none;
the file's default). Random games never finish a race, so the wins are compared in games of
greedy players, and random games in 3, 4 and 6-player games end at shorter limits.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from oracle import ActionMap, compare, game_rng, lockstep, ludeme_edges, require_openspiel, site

from interpreter import load_game

spiel = require_openspiel("chinese_checkers")

GAME = Path(__file__).resolve().parent.parent / "games" / "chinese-checkers.game"
ROWS = 17
OFFSETS = ((-1, -1), (-1, 1), (0, -2), (0, 2), (1, -1), (1, 1))  # kDirRow/ColOffset


def cells(spiel_game: Any) -> list[tuple[int, int]]:
    """OpenSpiel's positions in order, as (row, doubled column) read off its ToString."""
    out = []
    for r, line in enumerate(str(spiel_game.new_initial_state()).splitlines()[:ROWS]):
        out.extend((r, c) for c, ch in enumerate(line) if ch != " ")
    return out


def site_names(spiel_game: Any) -> dict[int, str]:
    """Each OpenSpiel position's ludeme name: its place in its row, its row from the bottom."""
    places = cells(spiel_game)
    rows: dict[int, list[int]] = {}
    for r, c in places:
        rows.setdefault(r, []).append(c)
    return {p: site(sorted(rows[r]).index(c), ROWS - r) for p, (r, c) in enumerate(places)}


class Notation(ActionMap):
    """OpenSpiel's actions in ludeme notation: `from-to` for a step or a hop, `pass`."""

    def notations(self, spiel_state: Any, actions: Any, swapped: bool) -> list[str]:
        out = []
        for a in actions:
            text = spiel_state.action_to_string(spiel_state.current_player(), a)
            found = re.fullmatch(r"(\d+)(?:->|=>)(\d+)", text)
            if text == "Pass":
                out.append("pass")
            elif found is None:
                raise AssertionError(f"unexpected OpenSpiel action {text!r}")
            else:
                out.append(f"{self.sites[int(found[1])]}-{self.sites[int(found[2])]}")
        return out


@cache
def both(players: int, limit: int) -> tuple[Any, Any, Notation]:
    spiel_game = spiel.load_game("chinese_checkers", {"players": players, "max_moves": limit})
    game = load_game(GAME, players=players, limit=limit)
    return game, spiel_game, Notation(site_names(spiel_game))


def test_the_boards_are_the_same() -> None:
    game, spiel_game, notation = both(2, 1000)
    places = cells(spiel_game)
    at = {rc: p for p, rc in enumerate(places)}
    theirs = {frozenset((notation.sites[p], notation.sites[at[(r + dr, c + dc)]]))
              for p, (r, c) in enumerate(places) for dr, dc in OFFSETS
              if (r + dr, c + dc) in at}
    assert len(places) == 121
    assert theirs == ludeme_edges(game)
    assert sorted(notation.sites.values()) == sorted(game.sites)


@pytest.mark.parametrize("players,limit,games", [(2, 1000, 3), (3, 200, 3), (4, 200, 3),
                                                  (6, 200, 3)])
def test_random_games_agree(players: int, limit: int, games: int) -> None:
    game, spiel_game, notation = both(players, limit)
    summary = compare(game, spiel_game, notation, games=games, seed=players)
    assert summary.draws == games  # random play never finishes the race


def greedy(game: Any, rng: random.Random, explore: float = 0.2) -> Any:
    """A player of two who moves its pieces as far towards the opposite point as it can (the
    first player's goes down, the second's up), now and then any move; it keeps its own copy
    of the game to know who moves."""
    state = [game.initial_state()]

    def choose(actions: list[int], names: list[str]) -> int:
        sign = 1 if state[0].mover == game.players[0] else -1
        gains = [0 if name == "pass" else
                 sign * (int(name.split("-")[0][1:]) - int(name.split("-")[1][1:]))
                 for name in names]
        best = max(gains)
        picks = [i for i, gain in enumerate(gains) if gain == best]
        if best <= 0 and rng.random() < explore:
            picks = list(range(len(names)))
        index = rng.choice(picks)
        state[0] = state[0].play(names[index])
        return index
    return choose


def test_races_to_the_end_agree() -> None:
    game, spiel_game, notation = both(2, 1000)
    winners = set()
    for number in range(4):
        end = lockstep(game, spiel_game, notation, greedy(game, game_rng(7, number)),
                       label="Chinese checkers", where=f"greedy game {number}", max_plies=5000)
        assert end.state.is_over
        winners.add(end.state.winner)
    assert winners == {"Red", "Blue"}


def test_a_wrong_rule_is_caught() -> None:
    """A chain allowed to land where it has been is caught by the same comparison."""
    from oracle import OracleMismatch

    from interpreter import parse_game

    text = GAME.read_text(encoding="utf-8").replace(
        "unless:(in To (sites Visited))", "")
    wrong = parse_game(text, source="wrong.game", limit=1000)
    _, spiel_game, notation = both(2, 1000)
    with pytest.raises(OracleMismatch):
        compare(wrong, spiel_game, notation, games=5, seed=2)
