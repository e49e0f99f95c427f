"""Nine Men's Morris against OpenSpiel, an independent engine, decision by decision.

games/ninemensmorris.game with `openspiel=True` is played through ludeme and OpenSpiel's
`nine_mens_morris` in lockstep (`tests/oracle.py`): at every decision the legal moves
(OpenSpiel's actions named by geometry: a point as its site, a move as `from-to`), the player to
move, whether the game is over and, at the end, the winner must agree; along the same games the
boards, the men in hand, the men left and the count of turns must agree too. Without the option,
the games must agree until OpenSpiel's 200-turn draw would end them.

What OpenSpiel plays, read from open_spiel/games/nine_mens_morris/nine_mens_morris.{h,cc} and
checked below:

- no parameters. 24 points, numbered 0 to 23 in reading order (top row first, left to right),
  each drawn at kPointStrCoords (row, column) of a 13 x 15 character picture; the seven distinct
  rows and seven distinct columns are the 7 x 7 grid that ludeme's `(morris 3)` names like a
  chessboard, a1 bottom-left: point 0 is a7, 1 d7, 2 g7, 3 b6, ..., 21 a1, 22 d1, 23 g1.
  kPointNeighbors gives each point's neighbour to the N, E, S and W along a line (or -1); these
  are the board's 32 edges, and each line of three (a possible mill) is three points in a row
  along one direction: 16 lines.
- player 0 is White (`W`, `current_player_ = 0`: moves first), player 1 Black (`B`), as the
  roles are declared in the game file.
- action a < 24 is point a: a placement on it while the mover has men to deploy (9 each), or,
  right after a mill was formed, the enemy man on it to remove. Action a >= 24 is a move
  24 + from * 24 + to (`FromMoveAction`); ActionToString writes "Point 7" and "Move 3 -> 4".
  600 distinct actions; the 24 with from = to are never legal.
- placing first: while a player has men to deploy, the legal actions are the empty points,
  whatever the board. Then a player with more than three men (`num_men_`, on the board and
  still to deploy) moves a man to an empty neighbouring point; with exactly three, to any empty
  point (flying).
- a mill: after a placement or a move, `CheckInMill(to)`: the man is on a line of three men of
  its colour. Then the same player decides again (`capture_`, the turn is not over) and the
  legal actions are the enemy men not in a mill, or every enemy man if all of them are in one
  (`CheckAllMills`). The man taken is gone: `num_men_` drops, `men_to_deploy_` does not change.
  A mill is judged afresh by every placement or move, so moving a man out of a mill and back
  forms it again.
- `num_turns_` counts completed turns (a turn with a mill ends with its capture). The game is
  over once a player has no legal action, or either has two men or fewer (on the board and to
  deploy), or after kMaxNumTurns = 200 turns. Returns look first at the player to move having
  no legal action (a loss for them), then at two men (a loss for that player): the 200-turn draw
  [0, 0] comes only when neither applies. MaxGameLength is 200 + 2 * 9 - 4 = 214 actions.
- a capture decision always has a man to take: during the placements every player has at least
  two men on the board when the other forms a mill, and after them at least three.
- Python cannot set up a position, so every comparison starts from the start position.
  ToString draws the board (points as `W`, `B` or `.` on the picture) and then "Turn number",
  "Men to deploy" and "Num men"; the observation tensor has planes White, Black, empty, `-`
  and `|` over a 7 x 7 template of the same grid.

`test_a_wrong_rule_is_caught`: each rule changed on its own in the game file is caught by the
random games of `test_random_games_agree_with_openspiel`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    ActionMap,
    Board,
    Chooser,
    OracleMismatch,
    compare,
    follow,
    game_rng,
    lockstep,
    ludeme_edges,
    random_chooser,
    require_openspiel,
    site,
)

from interpreter import load_game, parse_game

pyspiel = require_openspiel("nine_mens_morris")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("White", "Black")  # ludeme's roles, in the order of OpenSpiel's players 0 and 1
SYMBOLS = ("W", "B")  # the roles' symbols, in ludeme's position text and OpenSpiel's ToString
MEN = 9  # nine_mens_morris.h, kNumMen
MAX_TURNS = 200  # kMaxNumTurns
POINTS = 24  # kNumPoints

# nine_mens_morris.cc, kPointStrCoords: each point's (row, column) in ToString's picture.
POINT_STR_COORDS = (
    (0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7),
    (4, 10), (6, 0), (6, 2), (6, 4), (6, 10), (6, 12), (6, 14), (8, 4),
    (8, 7), (8, 10), (10, 2), (10, 7), (10, 12), (12, 0), (12, 7), (12, 14))

# nine_mens_morris.cc, kPointNeighbors: each point's neighbour to the N, E, S, W (-1: none).
POINT_NEIGHBORS = (
    (-1, 1, 9, -1), (-1, 2, 4, 0), (-1, -1, 14, 1), (-1, 4, 10, -1),
    (1, 5, 7, 3), (-1, -1, 13, 4), (-1, 7, 11, -1), (4, 8, -1, 6),
    (-1, -1, 12, 7), (0, 10, 21, -1), (3, 11, 18, 9), (6, -1, 15, 10),
    (8, 13, 17, -1), (5, 14, 20, 12), (2, -1, 23, 13), (11, 16, -1, -1),
    (-1, 17, 19, 15), (12, -1, -1, 16), (10, 19, -1, -1), (16, 20, 22, 18),
    (13, -1, -1, 19), (9, 22, -1, -1), (19, 23, -1, 21), (14, -1, -1, 22))
NORTH, EAST, SOUTH, WEST = range(4)


def morris(**options: Any) -> Any:
    return load_game(GAMES / "ninemensmorris.game", **options)


def spiel_morris() -> Any:
    return pyspiel.load_game("nine_mens_morris")


# The board and the actions, by geometry -------------------------------------------------------


def grid_position(point: int) -> tuple[int, int]:
    """The point's (row from the top, column from the left) on the 7 x 7 grid: the rank of its
    kPointStrCoords row and column among the seven distinct ones."""
    rows = sorted({r for r, _ in POINT_STR_COORDS})
    columns = sorted({c for _, c in POINT_STR_COORDS})
    r, c = POINT_STR_COORDS[point]
    return rows.index(r), columns.index(c)


def morris_board() -> Board:
    """OpenSpiel's points named like ludeme's sites (column letter, row number from the bottom
    of the 7 x 7 grid), with kPointNeighbors as the adjacency."""
    names = {p: site(c, 7 - r) for p in range(POINTS) for r, c in [grid_position(p)]}
    neighbours = {p: frozenset(n for n in POINT_NEIGHBORS[p] if n >= 0) for p in range(POINTS)}
    return Board(names, neighbours)


def move_action(source: int, destination: int) -> int:
    """nine_mens_morris.cc, ToMoveAction."""
    return POINTS + source * POINTS + destination


def morris_action_map() -> ActionMap:
    """Every OpenSpiel action that can be legal: a point as its site (a placement or the man to
    take), a move as `from-to`."""
    names = morris_board().sites
    actions: dict[int, str] = dict(names)
    for s in range(POINTS):
        for t in range(POINTS):
            if s != t:
                actions[move_action(s, t)] = f"{names[s]}-{names[t]}"
    return ActionMap(actions)


def lines() -> list[tuple[int, int, int]]:
    """The 16 lines of three points (the possible mills), from kPointNeighbors: from each point
    with no neighbour to the W (N), two steps E (S)."""
    found = []
    for p in range(POINTS):
        for back, ahead in ((WEST, EAST), (NORTH, SOUTH)):
            if POINT_NEIGHBORS[p][back] < 0:
                q = POINT_NEIGHBORS[p][ahead]
                found.append((p, q, POINT_NEIGHBORS[q][ahead]))
    return found


LINES = lines()


def in_mill(board: dict[int, str], point: int) -> bool:
    """Whether the man on `point` (board: point -> `W`, `B` or `.`) stands on a line of three
    men of its colour."""
    return board[point] != "." and any(
        point in line and all(board[q] == board[point] for q in line) for line in LINES)


# Positions, as each engine shows them ----------------------------------------------------------


def spiel_points(spiel_state: Any) -> dict[int, str]:
    """OpenSpiel's board from its observation tensor (planes 0 White and 1 Black over the
    7 x 7 template): point -> `W`, `B` or `.`."""
    tensor = spiel_state.observation_tensor(0)
    cells = 7 * 7
    board = {}
    for p in range(POINTS):
        r, c = grid_position(p)
        white, black = tensor[r * 7 + c], tensor[cells + r * 7 + c]
        board[p] = "W" if white else "B" if black else "."
    return board


def spiel_counts(spiel_state: Any) -> dict[str, Any]:
    """From OpenSpiel's ToString: the turns completed, the men to deploy and the men left
    (on the board and to deploy) of each player."""
    counts: dict[str, Any] = {}
    for line in str(spiel_state).splitlines():
        key, _, value = line.partition(": ")
        if key == "Turn number":
            counts["turns"] = int(value)
        elif key in ("Men to deploy", "Num men"):
            counts["hand" if key == "Men to deploy" else "men"] = tuple(map(int, value.split()))
    return counts


def ludeme_points(game: Any, state: Any) -> dict[int, str]:
    """The ludeme board as OpenSpiel's points: the symbols of the position text's board rows
    in reading order are the sites of `game.sites`, which is point order."""
    text = state.to_text().splitlines()
    symbols = [ch for line in text[:7] for ch in line.split()]
    by_site = dict(zip(game.sites, symbols, strict=True))
    names = morris_board().sites
    return {p: by_site[names[p]] for p in range(POINTS)}


def key_value(text: str, key: str) -> str | None:
    """The value of a `key:` line of a position text (None if left out)."""
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip()
    return None


def ludeme_counts(game: Any, state: Any) -> dict[str, Any]:
    """The same counts as `spiel_counts` from the ludeme position text (`turns:`, left out
    when 0; `in hand ROLE:`, left out when each hand is the supply minus the men on the
    board)."""
    text = state.to_text()
    board = ludeme_points(game, state)
    on_board = tuple(sum(1 for v in board.values() if v == sym) for sym in SYMBOLS)
    hand = tuple(int(key_value(text, f"in hand {role}") or MEN - n)
                 for role, n in zip(ROLES, on_board, strict=True))
    return {"turns": int(key_value(text, "turns") or 0), "hand": hand,
            "men": tuple(h + n for h, n in zip(hand, on_board, strict=True))}


def test_actions_read_as_openspiel_writes_them() -> None:
    """Each action the map names is OpenSpiel's own ActionToString: `Point p` is point p's
    site, `Move s -> t` is `site(s)-site(t)`; the names are distinct."""
    spiel_game = spiel_morris()
    state = spiel_game.new_initial_state()
    names = morris_action_map().sites
    points = morris_board().sites
    assert spiel_game.num_distinct_actions() == POINTS + POINTS * POINTS
    assert len(names) == POINTS + POINTS * (POINTS - 1)
    assert len(set(names.values())) == len(names)
    for a, name in names.items():
        written = state.action_to_string(0, a)
        if a < POINTS:
            assert written == f"Point {a}" and name == points[a]
        else:
            s, t = (int(x) for x in written.removeprefix("Move ").split(" -> "))
            assert name == f"{points[s]}-{points[t]}"


def test_board_geometry() -> None:
    """OpenSpiel's points are ludeme's sites, in the same (reading) order; kPointNeighbors are
    the ludeme graph's edges, N, E, S, W in the compass directions; 16 lines of three."""
    game = morris()
    board = morris_board()
    assert [board.sites[p] for p in range(POINTS)] == list(game.sites)
    assert [board.sites[p] for p in (0, 1, 2, 3, 9, 14, 21, 22, 23)] == [
        "a7", "d7", "g7", "b6", "a4", "g4", "a1", "d1", "g1"]
    assert board.edges() == ludeme_edges(game)
    assert len(board.edges()) == 32
    for p, around in enumerate(POINT_NEIGHBORS):
        r, c = grid_position(p)
        for direction, q in enumerate(around):
            if q < 0:
                continue
            assert p in POINT_NEIGHBORS[q]  # symmetric
            qr, qc = grid_position(q)
            dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[direction]
            assert (qr - r) * dc == (qc - c) * dr and (qr - r) * dr + (qc - c) * dc > 0
    assert len(LINES) == 16 and all(len(set(line)) == 3 for line in LINES)


def test_options_and_start_position_agree() -> None:
    """Both start empty with White (OpenSpiel's player 0, `W`) to move, nine men in hand each,
    and the same 24 placements."""
    assert morris().options == {"openspiel": False}
    assert morris().players == ROLES
    spiel_state = spiel_morris().new_initial_state()
    assert spiel_state.current_player() == 0
    assert "Current player: W" in str(spiel_state)
    assert spiel_counts(spiel_state) == {"turns": 0, "hand": (MEN, MEN), "men": (MEN, MEN)}
    # the template's points are where the tensor marks a point (White, Black or empty)
    tensor = spiel_state.observation_tensor(0)
    marked = {divmod(i, 7) for i in range(49) if any(tensor[k * 49 + i] for k in range(3))}
    assert marked == {grid_position(p) for p in range(POINTS)}
    for openspiel in (False, True):
        game = morris(openspiel=openspiel)
        state = game.initial_state()
        assert state.mover == "White"
        assert ludeme_points(game, state) == spiel_points(spiel_state)
        assert ludeme_counts(game, state) == spiel_counts(spiel_state)
        end = follow(game, spiel_morris(), morris_action_map(), [])
        assert {str(m) for m in end.state.legal_moves()} == set(game.sites)
        # player 0's first man is White's: plane 0 of the tensor, `W` in ludeme's text
        end = follow(game, spiel_morris(), morris_action_map(), ["d6"])
        assert spiel_points(end.spiel_state)[4] == "W" == ludeme_points(game, end.state)[4]
        assert end.spiel_state.current_player() == 1 and end.state.mover == "Black"


# Random games from the start ------------------------------------------------------------------


def test_random_games_agree_with_openspiel() -> None:
    """300 random games of `openspiel=True`: the legal moves, the mover, the end
    and the winner at every decision (tests/oracle.py)."""
    games = 300
    summary = compare(morris(openspiel=True), spiel_morris(), morris_action_map(),
                      games=games, seed=21, label="nine men's morris openspiel:true")
    assert summary.games == games
    assert all(summary.wins.get(role, 0) > games // 5 for role in ROLES), summary
    assert summary.draws > games // 10, summary  # the 200-turn rule ends some games


@dataclass
class Seen:
    """What the random games did, to show that they exercised each rule."""

    decisions: int = 0
    placed_mills: int = 0  # mills formed by a placement
    moved_mills: int = 0  # mills formed by a move along a line
    flown_mills: int = 0  # mills formed by flying
    protected: int = 0  # captures where some enemy men were protected by their mill
    all_in_mills: int = 0  # captures where every enemy man stood in a mill
    flights: int = 0  # moves to a point that is not a neighbour
    two_men: int = 0  # lost with two men left
    blocked: int = 0  # lost with more men, unable to move
    draws: int = 0  # drawn after 200 turns


def play_along(game: Any, moves: list[str], seen: Seen, where: str,
               action_map: ActionMap | None = None) -> None:
    """Replay a compared game through both engines (the moves read as `action_map` reads
    OpenSpiel's actions, by default `morris_action_map()`), checking after every decision the
    boards, the men in hand and left, the turns and whether a capture is pending, and note
    what happened."""
    spiel_state = spiel_morris().new_initial_state()
    actions = {name: a for a, name in (action_map or morris_action_map()).sites.items()}
    neighbours = morris_board().neighbours
    state = game.initial_state()
    for number, move in enumerate(moves):
        mover = state.mover
        taking = key_value(state.to_text(), "decision") is not None
        if taking:
            board = spiel_points(spiel_state)
            enemy = [p for p, v in board.items() if v == SYMBOLS[1 - ROLES.index(mover)]]
            milled = [p for p in enemy if in_mill(board, p)]
            seen.all_in_mills += len(milled) == len(enemy)
            seen.protected += 0 < len(milled) < len(enemy)
        state = state.play(move)
        spiel_state.apply_action(actions[move])
        ours, theirs = ludeme_points(game, state), spiel_points(spiel_state)
        counts, spiel_count = ludeme_counts(game, state), spiel_counts(spiel_state)
        pending = key_value(state.to_text(), "decision") is not None
        spiel_pending = "Capture time!" in str(spiel_state) and not spiel_state.is_terminal()
        if ours != theirs or counts != spiel_count or pending != spiel_pending:
            raise OracleMismatch(
                f"nine men's morris: the positions differ in {where} after {number + 1} moves\n"
                f"  moves: {' '.join(moves[:number + 1])}\n"
                f"  ludeme {counts}, capture pending {pending}\n"
                f"  OpenSpiel {spiel_count}, capture pending {spiel_pending}\n"
                f"ludeme position:\n{state.to_text()}\nOpenSpiel position:\n{spiel_state}")
        seen.decisions += 1
        if "-" in move:
            s, t = (actions[name] for name in move.split("-"))
            seen.flights += t not in neighbours[s]
        if pending:
            if "-" not in move:
                seen.placed_mills += 1
            elif t in neighbours[s]:
                seen.moved_mills += 1
            else:
                seen.flown_mills += 1
        assert state.mover == mover or not pending
    if state.winner is None:
        seen.draws += 1
    else:
        loser = ROLES.index(state.winner) ^ 1
        if spiel_counts(spiel_state)["men"][loser] <= 2:
            seen.two_men += 1
        else:
            seen.blocked += 1


def test_boards_agree_along_random_games() -> None:
    """Along 60 random games, the boards, the men in hand and left, the turns and whether a
    capture is pending agree after every decision; the games include mills formed by placing,
    by moving and by flying, captures with some enemy men protected by a mill and with every
    enemy man in a mill, flights, both kinds of loss and 200-turn draws."""
    game = morris(openspiel=True)
    spiel_game = spiel_morris()
    action_map = morris_action_map()
    seen = Seen()
    for number in range(60):
        end = lockstep(game, spiel_game, action_map, random_chooser(game_rng(25, number)),
                       label="nine men's morris openspiel:true",
                       where=f"game {number} (seed 25)", max_plies=spiel_game.max_game_length())
        play_along(game, end.moves, seen, f"game {number} (seed 25)")
    assert seen.placed_mills and seen.moved_mills and seen.flown_mills, seen
    assert seen.protected and seen.flights and seen.two_men and seen.draws, seen
    # rare in random play (about one game in 60 each): game 34 takes a man when every enemy
    # man stands in a mill, in game 10 White is left unable to move with more than two men
    assert seen.all_in_mills and seen.blocked, seen


def stop_before_the_200th_turn(game: Any, rng: random.Random, held: list[str]) -> Chooser:
    """Random moves, stopping (None) instead of making the decision that would complete the
    200th turn, unless that decision also ends the game otherwise; the decision held back is
    appended to `held`. Follows the game on its own ludeme state (of `game`) to count the
    turns."""
    state = game.initial_state()

    def choose(actions: list[int], names: list[str]) -> int | None:
        nonlocal state
        index = rng.randrange(len(actions))
        after = state.play(names[index])
        if int(key_value(after.to_text(), "turns") or 0) == MAX_TURNS and not after.is_over:
            held.append(names[index])
            return None
        state = after
        return index

    return choose


def test_without_the_option_the_games_agree_until_openspiel_draws() -> None:
    """`openspiel=False` has no draw rule: 120 random games agree decision by decision up to
    the last decision of OpenSpiel's 200th turn; that decision ends OpenSpiel's game in a draw,
    and ludeme plays on."""
    game = morris()
    spiel_game = spiel_morris()
    action_map = morris_action_map()
    actions = {name: a for a, name in action_map.sites.items()}
    stopped = 0
    for number in range(120):
        held: list[str] = []
        end = lockstep(game, spiel_game, action_map,
                       stop_before_the_200th_turn(game, game_rng(23, number), held),
                       label="nine men's morris", where=f"game {number} (seed 23)",
                       max_plies=spiel_game.max_game_length())
        if end.spiel_state.is_terminal():
            assert not held
            continue
        stopped += 1
        (move,) = held
        assert spiel_counts(end.spiel_state)["turns"] == MAX_TURNS - 1
        end.spiel_state.apply_action(actions[move])
        after = end.state.play(move)
        assert end.spiel_state.is_terminal() and end.spiel_state.returns() == [0.0, 0.0]
        assert spiel_counts(end.spiel_state)["turns"] == MAX_TURNS
        assert key_value(after.to_text(), "turns") == str(MAX_TURNS)
        assert not after.is_over and after.legal_moves()
    assert stopped > 20, stopped


# The harness itself ---------------------------------------------------------------------------


def test_harness_reports_a_disagreement() -> None:
    """A mapping that reads a move's action as 24 + to * 24 + from is caught at the first
    move after the placements."""
    game = morris(openspiel=True)
    right = morris_action_map().sites
    wrong = ActionMap({a: "-".join(reversed(name.split("-"))) for a, name in right.items()})
    with pytest.raises(OracleMismatch) as caught:
        compare(game, spiel_morris(), wrong, games=1, seed=21)
    assert "the legal moves differ" in str(caught.value)


def test_a_symmetry_of_the_board_is_caught_only_by_the_boards() -> None:
    """A mapping that turns the board upside down (a7 read as a1) is a symmetry of the board:
    the legal moves, the mover and the end agree all through a random game, but the boards
    differ as soon as a man stands off the middle row."""
    game = morris(openspiel=True)

    def upside_down(name: str) -> str:
        return "-".join(f"{s[0]}{8 - int(s[1:])}" for s in name.split("-"))

    wrong = ActionMap({a: upside_down(name) for a, name in morris_action_map().sites.items()})
    end = lockstep(game, spiel_morris(), wrong, random_chooser(game_rng(21, 0)),
                   label="upside down", where="game 0 (seed 21)", max_plies=300)
    with pytest.raises(OracleMismatch) as caught:
        play_along(game, end.moves, Seen(), "game 0 (seed 21)", wrong)
    assert end.spiel_state.is_terminal()
    assert "the positions differ in game 0 (seed 21) after 2 moves" in str(caught.value)


MUTANTS = {
    "no flying": ("otherwise:(fly)", "otherwise:(step All to:Empty)"),
    "a man in a mill may be taken": (
        "(difference (sites Occupied Next) (sites Line 3 role:Next))", "(sites Occupied Next)"),
    "taken men return to the hand": ("reuse:false", "reuse:true"),
    "any mill on the board lets the mover take": ("(line 3 through:To)", "(line 3)"),
    "the two-men rule counts the board only": ('(< ("Men" Next) 3)',
                                               '(< (count (sites Occupied Next)) 3)'),
    "a player loses at one man": ('(< ("Men" Next) 3)', '(< ("Men" Next) 2)'),
    "a man needs five to step": ("(> (count (sites Occupied Mover)) 3)",
                                 "(> (count (sites Occupied Mover)) 4)"),
    "the draw comes at 201": ("(>= (turns) 200)", "(>= (turns) 201)"),
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_a_wrong_rule_is_caught(mutant: str) -> None:
    """The comparison notices a game file with one rule changed, within the random games of
    `test_random_games_agree_with_openspiel`."""
    source = (GAMES / "ninemensmorris.game").read_text()
    old, new = MUTANTS[mutant]
    if old not in source:
        pytest.skip(f"games/ninemensmorris.game no longer contains {old!r}")
    wrong = parse_game(source.replace(old, new), source=mutant, openspiel=True)
    with pytest.raises(OracleMismatch):
        compare(wrong, spiel_morris(), morris_action_map(), games=300, seed=21)
