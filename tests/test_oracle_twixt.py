"""TwixT against OpenSpiel's `twixt`, move by move (issue 24, edges as state).

What OpenSpiel plays, read from its sources (open_spiel/games/twixt/twixtboard.cc):

- board_size 8 by default (5 to 24); the four corners are off the board. Action x * size + y
  is the hole in column x (a letter, from the left) and y rows from the top: OpenSpiel writes
  it `x` or `o`, the column's letter and size - y, the same name as ours without the prefix.
- Red (player 0, `x`) joins y = 0 and y = size - 1 (our N and S rows), Blue the columns
  x = 0 and x = size - 1; each player's border rows are closed to the other.
- Placing a peg links it to each friendly peg a knight's move away unless a link already on
  the board crosses the way (a fixed table of blocking links per direction: the crossing
  segments, which ours works out from the holes' coordinates). Links are never removed.
- A chain joining the player's two border rows wins; when the next player has no legal move
  the game is a draw.
- Swap: Blue's first move may be Red's first hole, if Red's peg is not on Red's own border
  rows (the hole is not among Blue's legal actions then); the red peg is taken off and a blue
  peg put on the hole turned a quarter, (x, y) -> (y, size - 1 - x), and Red moves. Ours, the
  pie rule, exchanges the players and keeps the board: the same game up to that turn, which
  the harness follows. The one difference: we offer the swap after any first peg
  (`test_the_swap_after_a_peg_on_reds_border`); the random games here do not open there.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from oracle import ActionMap, follow, game_rng, lockstep, require_openspiel

from interpreter import load_game

pyspiel = require_openspiel("twixt")

GAME = Path(__file__).resolve().parent.parent / "games" / "twixt.game"


def action_map(size: int) -> ActionMap:
    """OpenSpiel's actions as our site names, with its swap (Blue's move on Red's first
    hole) and the quarter turn of the board after it."""
    sites = {x * size + y: f"{'abcdefghijklmnopqrstuvwxyz'[x]}{size - y}"
             for x in range(size) for y in range(size)}

    def swap_action(spiel_state: Any) -> int | None:
        history = spiel_state.history()
        return history[0] if len(history) == 1 else None

    def after_swap(action: int) -> int:
        # OpenSpiel's hole (x', y') after the swap is ours turned back: (size-1-y', x').
        x, y = divmod(action, size)
        return (size - 1 - y) * size + x

    return ActionMap(sites, swap_action=swap_action, after_swap=after_swap)


def spiel(size: int) -> Any:
    return pyspiel.load_game("twixt", {"board_size": size, "ansi_color_output": False})


@pytest.mark.parametrize("size,games,seed", [(8, 120, 1), (5, 120, 2), (11, 30, 3)])
def test_random_games_agree_with_openspiel(size: int, games: int, seed: int) -> None:
    random_games(size, games, seed)


@pytest.mark.parametrize("size,games,seed", [(8, 120, 4), (5, 120, 5)])
def test_the_kernels_random_games_agree_with_openspiel(size: int, games: int, seed: int
                                                       ) -> None:
    """The game's kernel (interpreter/kernel: links as edges in its state), played through
    its step API, agrees with OpenSpiel as the interpreter does."""
    random_games(size, games, seed, kernel=True)


def random_games(size: int, games: int, seed: int, kernel: bool = False) -> None:
    """Random games in lockstep with OpenSpiel (Red's first peg off its border rows, the
    swap taken half the time), played by the interpreter or by the game's kernel; both wins
    and draws must happen."""
    from oracle import KernelState

    from interpreter.kernel import available, kernel_for

    game = load_game(GAME, size=size)
    if kernel and not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    compiled = kernel_for(game) if kernel else None
    assert compiled is not None or not kernel
    spiel_game = spiel(size)
    amap = action_map(size)
    wins: dict[str | None, int] = {}
    for number in range(games):
        rng = game_rng(seed, number)
        first = [True]

        def choose(actions: list[int], names: list[str], rng: random.Random = rng,
                   first: list[bool] = first) -> int:
            if first[0]:  # Red's first peg: off Red's border rows
                first[0] = False
                inner = [i for i, n in enumerate(names) if n[1:] not in ("1", str(size))]
                return rng.choice(inner)
            if "swap" in names and rng.random() < 0.5:
                return names.index("swap")
            return rng.randrange(len(names))

        start = None if compiled is None else (KernelState(game, compiled),
                                               spiel_game.new_initial_state())
        end = lockstep(game, spiel_game, amap, choose, label=f"TwixT {size}",
                       where=f"game {number} (seed {seed})",
                       max_plies=spiel_game.max_game_length() + 10, start=start)
        wins[end.state.winner] = wins.get(end.state.winner, 0) + 1
    assert set(wins) - {None} and None in wins, wins  # wins and draws both happen


def test_a_scripted_game_with_blocked_links() -> None:
    """Red's d4-e6 link blocks Blue's c5-e... links that would cross it; both agree."""
    follow(load_game(GAME, size=8), spiel(8), action_map(8),
           ["d4", "d6", "e6", "c5", "e5", "f5", "c3"])


def test_the_swap_after_a_peg_on_reds_border() -> None:
    """The documented difference: after Red's first peg on its own border row, we offer
    the swap (the pie rule has no exception) and OpenSpiel does not."""
    game = load_game(GAME, size=8)
    state = game.initial_state().play("c8")
    assert "swap" in {str(m) for m in state.legal_moves()}
    spiel_state = spiel(8).new_initial_state()
    spiel_state.apply_action(2 * 8 + 0)  # c8
    assert 2 * 8 + 0 not in spiel_state.legal_actions()


def test_the_swap_from_a_chosen_opening() -> None:
    """Red opens in the middle, Blue swaps: OpenSpiel turns the peg a quarter, we exchange
    the players; the games go on alike (the harness maps the holes)."""
    game = load_game(GAME, size=6)
    spiel_game = spiel(6)
    spiel_state = spiel_game.new_initial_state()
    spiel_state.apply_action(2 * 6 + 3)  # c3
    end = follow(game, spiel_game, action_map(6), ["swap", "d4", "b2", "e2"],
                 start=(game.initial_state().play("c3"), spiel_state))
    assert end.swapped and end.state.mover == "Red"
