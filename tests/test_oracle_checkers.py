"""Checkers (English draughts) against OpenSpiel, an independent engine, decision by decision.

games/checkers.game with `openspiel=True` is played through ludeme and OpenSpiel's `checkers` in
lockstep (`tests/oracle.py`): at every decision the legal moves (OpenSpiel's actions named by
geometry as `from-to`, a jump from its start to its landing site), the player to move, whether
the game is over and, at the end, the winner must agree; along the same games the boards and
the count of decisions without a capture must agree too. Without the option, the games must
agree until OpenSpiel's draw rule would end them. About 3 s in all.

What OpenSpiel plays, read from open_spiel/games/checkers/checkers.{h,cc} and checked below:

- parameters `rows` and `columns` (default 8 and 8; at most 99 and 26) and `egocentric` (only
  the observation tensor). Each side fills the dark cells, (r + c) odd with row r from the top,
  of three rows: player 1 the top three, player 0 the bottom three (on fewer than 6 rows the top
  three win). On an even number of rows the bottom-left cell is dark, as a1 is here.
- player 0 is "White", printed `o` (a king `8`), starts at the bottom and moves first
  (`current_player_ = 0`); player 1 is "Black", `+` (a king `*`), at the top. So OpenSpiel's
  player 0 is ludeme's Black (the side on rows 1-3 that moves first) and player 1 ludeme's
  White: only the colour names are swapped, the geometry is the same.
- action ((r * columns + c) * 4 + d) * 2 + t (UnrankActionMixedBase over rows, columns, 4, 2):
  the piece on row r from the top, column c, in direction d (0 up-left, 1 up-right, 2
  down-right, 3 down-left, "up" towards row 0), t = 0 a step to the next cell, t = 1 a jump
  over it to the cell beyond. `action_to_string` writes from and landing cells like chess
  (`c3d4`, `a3c5`), which is ludeme's `c3-d4`. 512 distinct actions at 8x8.
- men go "forward" only (player 0 up, player 1 down), for steps and jumps alike; kings all four
  ways. A jump takes any enemy piece, man or king. If any jump exists only jumps are legal (any
  of them: not the longest or the one taking most).
- after a jump, unless the jumping piece was just crowned, if it can jump again the same player
  moves again and only that piece's jumps are legal: a multi-jump is one action per jump.
  A man reaching the far row (row 0 for player 0, the last row for player 1) is crowned, by a
  step or a jump, and a crowning jump ends the turn even if the new king could jump on.
- draw rule: `moves_without_capture_` counts every action (each decision of either player,
  steps and the jumps of a multi-jump alike) and a jump resets it to 0; once it reaches
  kMaxMovesWithoutCapture = 40, LegalActions is empty, so the state is terminal, and Returns is
  [0, 0]. That draw is checked before the winner: if the 40th quiet decision also leaves the
  opponent without a move, it is still a draw.
- otherwise, after every action, a player to move with no legal action (no piece, or every
  piece blocked) has lost: returns [1, -1] or [-1, 1]. There is no other end: MaxGameLength
  (1000) is only a declared bound; the 40-decision rule is what keeps random games short.
- Python cannot set up a position (SetCustomBoard is C++ only; NewInitialState(string) parses
  JSON, which checkers does not implement), so every comparison starts from the start position.
- on boards with more columns than rows the multi-jump piece is encoded r * rows + c and decoded
  with rows, which names the wrong cell; only square boards are compared.

`test_other_sizes` compares 10x10 too (6x6 with three rows of men a side is full at the
start: OpenSpiel calls that a draw, ludeme a loss for the first player, who cannot move).

When the 40th decision without a capture also leaves the opponent without a move, OpenSpiel
draws: games/checkers.game judges its draw rule first for that (a disagreement this file
found). A real game reaching it is `BLOCKED_LINE`; random play rarely gets there (none in
100 000 games from the start). Each rule changed on its own in the game file is caught by the
random games (`test_a_wrong_rule_is_caught`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from oracle import (
    KING,
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

pyspiel = require_openspiel("checkers")

GAMES = Path(__file__).resolve().parent.parent / "games"
ROLES = ("Black", "White")  # ludeme's roles, in the order of OpenSpiel's players 0 and 1
SYMBOLS = {".": ".", "o": "b", "8": "B", "+": "w", "*": "W"}  # OpenSpiel's cell -> ludeme's
DIAGONALS = ((-1, -1), (-1, 1), (1, 1), (1, -1))
"""OpenSpiel's directions 0 to 3 as (row, column) offsets, row 0 at the top: up-left, up-right,
down-right, down-left (checkers.cc, kDirRowOffsets and kDirColumnOffsets)."""
QUIET_LIMIT = 40  # checkers.h, kMaxMovesWithoutCapture


def checkers(**options: Any) -> Any:
    path = GAMES / "checkers.game"
    return load_game(path, **options)


def spiel_checkers(size: int = 8) -> Any:
    return pyspiel.load_game("checkers", {"rows": size, "columns": size})


# The board and the actions, by geometry -------------------------------------------------------


def checkers_board(size: int) -> Board:
    """OpenSpiel's cells, cell r * size + c on row r from the top and column c, named like chess
    (column letter, row size - r from the bottom), with their diagonal neighbours."""
    names = {r * size + c: site(c, size - r) for r in range(size) for c in range(size)}
    neighbours = {r * size + c: frozenset((r + dr) * size + c + dc for dr, dc in DIAGONALS
                                          if 0 <= r + dr < size and 0 <= c + dc < size)
                  for r in range(size) for c in range(size)}
    return Board(names, neighbours)


def action(size: int, row: int, column: int, direction: int, jump: bool) -> int:
    """RankActionMixedBase({rows, columns, 4, 2}, {row, column, direction, jump})."""
    return ((row * size + column) * len(DIAGONALS) + direction) * 2 + int(jump)


def checkers_action_map(size: int) -> ActionMap:
    """Every OpenSpiel action that lands on the board, as `from-to`: a step one cell in its
    direction, a jump two cells."""
    moves: dict[int, str] = {}
    for r in range(size):
        for c in range(size):
            for d, (dr, dc) in enumerate(DIAGONALS):
                for jump in (False, True):
                    reach = 2 if jump else 1
                    er, ec = r + dr * reach, c + dc * reach
                    if 0 <= er < size and 0 <= ec < size:
                        moves[action(size, r, c, d, jump)] = (f"{site(c, size - r)}-"
                                                              f"{site(ec, size - er)}")
    return ActionMap(moves)


def is_jump(notation: str) -> bool:
    start, end = notation.split("-")
    return abs(int(start[1:]) - int(end[1:])) == 2


def spiel_board(spiel_state: Any, size: int) -> list[str]:
    """OpenSpiel's ToString rows (a right-aligned row label, then a character per cell), top
    row first, in ludeme's symbols."""
    lines = str(spiel_state).splitlines()[:size]
    return [" ".join(SYMBOLS[ch] for ch in line[-size:]) for line in lines]


def ludeme_board(state: Any, size: int) -> list[str]:
    return state.to_text().splitlines()[:size]


def quiet_count(text: str) -> int:
    """The `without capture:` key of a ludeme position text (left out when 0)."""
    for line in text.splitlines():
        if line.startswith("without capture:"):
            return int(line.split(":")[1])
    return 0


def spiel_quiet_count(spiel_state: Any) -> int:
    """OpenSpiel's moves_without_capture_, from the history: the actions since the last jump."""
    count = 0
    for a in reversed(spiel_state.history()):
        if a % 2:
            break
        count += 1
    return count


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12])
def test_actions_read_as_openspiel_writes_them(size: int) -> None:
    """Each action the geometry names is OpenSpiel's own `action_to_string` with a hyphen; the
    names are distinct; the ones left out leave the board."""
    spiel_game = spiel_checkers(size)
    state = spiel_game.new_initial_state()
    names = checkers_action_map(size).sites
    assert spiel_game.num_distinct_actions() == size * size * 4 * 2
    for a, name in names.items():
        assert state.action_to_string(0, a) == name.replace("-", "")
    assert len(set(names.values())) == len(names)
    # the moves of a cell: one step and one jump per diagonal that stays on the board
    diagonal_edges = 2 * (size - 1) ** 2
    jumps = 2 * (size - 2) ** 2
    assert len(names) == 2 * diagonal_edges + 2 * jumps


def test_a_few_actions() -> None:
    names = checkers_action_map(8).sites
    assert names[action(8, 5, 0, 1, False)] == "a3-b4"  # row 5 from the top is row 3
    assert names[action(8, 5, 2, 1, True)] == "c3-e5"
    assert names[action(8, 0, 1, 2, False)] == "b8-c7"
    assert names[action(8, 7, 0, 1, True)] == "a1-c3"
    assert action(8, 7, 0, 0, False) not in names  # a1 up-left: off the board


def test_board_geometry() -> None:
    """OpenSpiel's cells are ludeme's sites; its four directions are the ludeme grid's diagonal
    edges; the whole ludeme graph is the eight-neighbour grid."""
    game = checkers()
    board = checkers_board(8)
    assert sorted(board.sites.values()) == sorted(game.sites)
    assert board.edges() == {frozenset((u, v)) for u, v, diagonal
                             in game.graph.edges(data="diagonal") if diagonal}
    grid = {frozenset((site(c, 8 - r), site(c + dc, 8 - r - dr)))
            for r in range(8) for c in range(8) for dr, dc in KING
            if 0 <= r + dr < 8 and 0 <= c + dc < 8}
    assert ludeme_edges(game) == grid


def test_options_and_start_position_agree() -> None:
    """The same pieces on the same cells (OpenSpiel's `o` is our `b`), the side on rows 1-3
    moves first in both, and the first moves are the same seven."""
    assert checkers().options == {"size": 8, "openspiel": False}
    for openspiel in (False, True):
        game = checkers(openspiel=openspiel)
        spiel_state = spiel_checkers().new_initial_state()
        state = game.initial_state()
        assert ludeme_board(state, 8) == spiel_board(spiel_state, 8)
        assert state.to_text().splitlines()[8] == "mover: Black"
        assert spiel_state.current_player() == 0
        end = follow(game, spiel_checkers(), checkers_action_map(8), [])
        assert {str(m) for m in end.state.legal_moves()} == {
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}


# Random games from the start ------------------------------------------------------------------


def test_random_games_agree_with_openspiel() -> None:
    """600 random games of `openspiel=True`: the legal moves, the mover, the end
    and the winner at every decision (tests/oracle.py)."""
    games = 600
    summary = compare(checkers(openspiel=True), spiel_checkers(), checkers_action_map(8),
                      games=games, seed=11, label="checkers 8x8 openspiel:true")
    assert summary.games == games
    assert all(summary.wins.get(role, 0) > games // 5 for role in ROLES), summary
    assert summary.draws > games // 20, summary  # the 40-decision rule ends some games


def test_the_kernels_random_games_agree_with_openspiel() -> None:
    """The game's kernel (interpreter/kernel), played through its step API, agrees with
    OpenSpiel in 300 random games, as the interpreter does."""
    from interpreter.kernel import available, kernel_for

    if not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    game = checkers(openspiel=True)
    kernel = kernel_for(game)
    assert kernel is not None
    summary = compare(game, spiel_checkers(), checkers_action_map(8), games=300, seed=12,
                      label="checkers 8x8 openspiel:true kernel", kernel=kernel)
    assert summary.games == 300 and summary.draws > 0 and len(summary.wins) == 2, summary


@dataclass
class Seen:
    """What the random games did, to show that they exercised each rule."""

    decisions: int = 0
    continued: int = 0  # jumps after which the same player jumps again (a multi-jump)
    crowned: int = 0
    crowned_and_stopped: int = 0  # crowning jumps after which the new king could jump on
    quiet_draws: int = 0
    no_pieces: int = 0  # lost with no piece left
    blocked: int = 0  # lost with pieces, none of which can move


def could_jump_from(rows: list[str], where: str, mover: str) -> bool:
    """Whether a king of `mover` on `where` would have a jump in the board rows (ludeme text,
    top row first)."""
    cells = [row.split() for row in rows]
    size = len(cells)
    c, r = ord(where[0]) - ord("a"), size - int(where[1:])
    enemy = "wW" if mover == "Black" else "bB"
    for dr, dc in DIAGONALS:
        r1, c1, r2, c2 = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if 0 <= r2 < size and 0 <= c2 < size and cells[r1][c1] in enemy and cells[r2][c2] == ".":
            return True
    return False


def piece_on(rows: list[str], where: str) -> str:
    """The symbol on site `where` in board rows (ludeme text, top row first)."""
    return rows[len(rows) - int(where[1:])].split()[ord(where[0]) - ord("a")]


def play_along(game: Any, moves: list[str], seen: Seen, where: str) -> None:
    """Replay a compared game through both engines, checking the boards and the count of
    decisions without a capture after every decision, and note what happened."""
    spiel_game = spiel_checkers()
    names = {name: a for a, name in checkers_action_map(8).sites.items()}
    state, spiel_state = game.initial_state(), spiel_game.new_initial_state()
    rows = ludeme_board(state, 8)
    for number, move in enumerate(moves):
        mover = state.mover
        start, end = move.split("-")
        was_man = piece_on(rows, start) in "bw"
        state = state.play(move)
        spiel_state.apply_action(names[move])
        rows, text = ludeme_board(state, 8), state.to_text()
        if rows != spiel_board(spiel_state, 8) or quiet_count(text) != spiel_quiet_count(
                spiel_state):
            raise OracleMismatch(
                f"checkers: the positions differ in {where} after {number + 1} moves\n"
                f"  moves: {' '.join(moves[:number + 1])}\n"
                f"ludeme position:\n{text}\n"
                f"OpenSpiel position (decisions without capture "
                f"{spiel_quiet_count(spiel_state)}):\n{spiel_state}")
        seen.decisions += 1
        if is_jump(move) and state.mover == mover:
            seen.continued += 1
        if was_man and piece_on(rows, end) in "BW":
            seen.crowned += 1
            if is_jump(move) and could_jump_from(rows, end, mover):
                seen.crowned_and_stopped += 1
    if state.winner is None:
        seen.quiet_draws += 1
    else:
        loser = "wW" if state.winner == "Black" else "bB"
        if any(ch in loser for row in rows for ch in row):
            seen.blocked += 1
        else:
            seen.no_pieces += 1


def test_boards_and_quiet_counts_agree_along_random_games() -> None:
    """Along 60 random games, the boards and the decisions without a capture agree after every
    decision; the games include multi-jumps, crownings (some by a jump after which the new king
    could have jumped on: the turn ends), draws by the 40-decision rule and both kinds of loss."""
    game = checkers(openspiel=True)
    spiel_game = spiel_checkers()
    action_map = checkers_action_map(8)
    seen = Seen()
    for number in range(60):
        end = lockstep(game, spiel_game, action_map, random_chooser(game_rng(12, number)),
                       label="checkers 8x8 openspiel:true", where=f"game {number} (seed 12)",
                       max_plies=spiel_game.max_game_length())
        play_along(game, end.moves, seen, f"game {number} (seed 12)")
    assert seen.continued and seen.crowned and seen.quiet_draws, seen
    assert seen.no_pieces and seen.blocked, seen


def test_crowning_jump_ends_the_turn_in_both() -> None:
    """Random games until a man's jump crowns it next to an enemy it could take as a king: in
    both engines the turn passes to the other player."""
    game = checkers(openspiel=True)
    spiel_game = spiel_checkers()
    action_map = checkers_action_map(8)
    seen = Seen()
    for number in range(400):
        end = lockstep(game, spiel_game, action_map, random_chooser(game_rng(13, number)),
                       label="checkers 8x8 openspiel:true", where=f"game {number} (seed 13)",
                       max_plies=spiel_game.max_game_length())
        play_along(game, end.moves, seen, f"game {number} (seed 13)")
        if seen.crowned_and_stopped:
            break
    assert seen.crowned_and_stopped, seen


def stop_at_the_40th_quiet(rng: random.Random) -> Chooser:
    """Random moves, stopping (None) instead of making the 40th decision in a row without a
    capture."""
    quiet = 0

    def choose(actions: list[int], names: list[str]) -> int | None:
        nonlocal quiet
        index = rng.randrange(len(actions))
        quiet = 0 if is_jump(names[index]) else quiet + 1
        return None if quiet == QUIET_LIMIT else index

    return choose


def test_without_the_option_the_games_agree_until_openspiel_draws() -> None:
    """`openspiel=False` has no draw rule: 300 random games agree decision by decision up to
    OpenSpiel's 40th decision in a row without a capture; there OpenSpiel ends the game, a
    draw, and ludeme plays on."""
    game = checkers()
    spiel_game = spiel_checkers()
    action_map = checkers_action_map(8)
    stopped = 0
    for number in range(300):
        end = lockstep(game, spiel_game, action_map, stop_at_the_40th_quiet(game_rng(14, number)),
                       label="checkers 8x8",
                       where=f"game {number} (seed 14)", max_plies=spiel_game.max_game_length())
        if end.spiel_state.is_terminal():
            continue
        stopped += 1
        move = next(m for m in end.state.legal_moves() if not is_jump(str(m)))
        spiel_names = {name: a for a, name in action_map.sites.items()}
        end.spiel_state.apply_action(spiel_names[str(move)])
        after = end.state.play(move)
        assert end.spiel_state.is_terminal() and end.spiel_state.returns() == [0.0, 0.0]
        assert quiet_count(after.to_text()) == QUIET_LIMIT
        if after.mover is not None and after.legal_moves():
            assert not after.is_over
    assert stopped > 10


# The 40th quiet decision that also blocks the opponent -----------------------------------------


# A game (found by searching random games that end with a blocking move, then repeating a king
# shuffle until that move is the 40th decision without a capture): Black's a3-c1 is the last
# capture; then White h4-g3, Black c1-d2, nine rounds of the kings shuffling (g1-f2 d2-c1 f2-g1
# c1-d2), White g3-f2 (the 39th quiet decision) and Black d2-e1 (the 40th), which leaves White's
# men on f2 and h2 and king on g1 without a move.
BLOCKED_LINE = (
    "e3-f4 d6-e5 f4-d6 e7-c5 c3-d4 c5-e3 d2-f4 c7-d6 e1-d2 b6-a5 d2-c3 b8-c7 f2-e3 f8-e7 "
    "g1-f2 a5-b4 a3-c5 d6-b4 b4-d2 b2-c3 f6-g5 c3-b4 g5-h4 a1-b2 g7-f6 f4-e5 f6-d4 e3-c5 "
    "c7-d6 c1-e3 d8-c7 b4-a5 d6-b4 e3-f4 b4-c3 b2-d4 e7-f6 d4-e5 f6-d4 f4-e5 h8-g7 a5-b6 "
    "c7-a5 e5-f6 g7-e5 f2-e3 h4-f2 e3-c5 e5-f4 c5-d6 f2-g1 d6-c7 a5-b4 c7-b8 b4-c3 b8-c7 "
    "c3-d2 c7-b8 h6-g5 b8-c7 d2-c1 h2-g3 f4-h2 c7-d8 a7-b6 d8-c7 g1-f2 c7-a5 g5-h4 a5-b4 "
    "f2-g1 b4-a3 c1-b2 a3-c1 h4-g3 c1-d2"
    ).split() + ["g1-f2", "d2-c1", "f2-g1", "c1-d2"] * 9 + ["g3-f2", "d2-e1"]
FIX = ("games/checkers.game judges (stuck Next) before the 40-decision draw; OpenSpiel's draw "
       "comes first (at 40 LegalActions is empty, and Returns checks moves_without_capture_ "
       "before the outcome). Fix: make (if (and #openspiel (>= (moves-without-capture) 40)) "
       "(draw)) the first clause of (end).")


def test_the_blocking_line_agrees_until_its_last_move() -> None:
    game = checkers(openspiel=True)
    end = follow(game, spiel_checkers(), checkers_action_map(8), BLOCKED_LINE[:-1])
    assert quiet_count(end.state.to_text()) == QUIET_LIMIT - 1
    assert spiel_quiet_count(end.spiel_state) == QUIET_LIMIT - 1
    assert end.state.mover == "Black" and "d2-e1" in {str(m) for m in end.state.legal_moves()}


def test_the_40th_quiet_decision_draws_even_when_it_blocks_the_opponent() -> None:
    """OpenSpiel: Black's d2-e1, the 40th decision in a row without a capture, ends the game in
    a draw although White cannot move; ludeme (today) says Black has won."""
    end = follow(checkers(openspiel=True), spiel_checkers(), checkers_action_map(8),
                 BLOCKED_LINE)
    assert end.spiel_state.returns() == [0.0, 0.0]
    assert end.state.is_over and end.state.winner is None


BLOCKED_ON_THE_40TH = "\n".join([
    ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
    ". . . . . . . .", ". . b . . . . .", ". w . B . . . .", "B . . . . . . .",
    "mover: Black", "without capture: {quiet}", ""])


def test_the_same_rule_from_a_position_text() -> None:
    """The smallest case: White's man on b2 has a1 and c1 in front; Black's king d2-c1 fills
    the last of them (c1 cannot be jumped: d0 is off the board). As the 39th quiet decision
    it wins; as the 40th, OpenSpiel's draw has ended the game first."""
    game = checkers(openspiel=True)
    earlier = game.from_text(BLOCKED_ON_THE_40TH.format(quiet=38)).play("d2-c1")
    assert earlier.is_over and earlier.winner == "Black"
    blocked = game.from_text(BLOCKED_ON_THE_40TH.format(quiet=39)).play("d2-c1")
    assert blocked.is_over and blocked.winner is None


# Other board sizes ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [10])
def test_other_sizes(size: int) -> None:
    """OpenSpiel's `rows` = `columns` = size: three rows a side, a1 dark on even sizes."""
    if "size" not in checkers().options:
        pytest.skip("games/checkers.game has no size option: only 8x8 is compared "
                    "(OpenSpiel's checkers takes rows and columns)")
    game = checkers(openspiel=True, size=size)
    assert ludeme_board(game.initial_state(), size) == spiel_board(
        spiel_checkers(size).new_initial_state(), size)
    summary = compare(game, spiel_checkers(size), checkers_action_map(size), games=200,
                      seed=15 + size, label=f"checkers {size}x{size} openspiel:true")
    assert summary.games == 200


# The harness itself ---------------------------------------------------------------------------


def test_harness_reports_a_disagreement() -> None:
    """A mapping that counts OpenSpiel's rows from the bottom is caught at once."""
    game = checkers(openspiel=True)

    def upside_down(name: str) -> str:
        return "-".join(f"{s[0]}{9 - int(s[1:])}" for s in name.split("-"))

    wrong = ActionMap({a: upside_down(name) for a, name in checkers_action_map(8).sites.items()})
    with pytest.raises(OracleMismatch) as caught:
        follow(game, spiel_checkers(), wrong, [])
    assert "after 0 moves: the legal moves differ" in str(caught.value)


MUTANTS = {
    "a crowning jump goes on": ("(and (captured) (not (promoted)))", "(captured)"),
    "capturing is optional": ("(first-of", "(any-of",
                              '\n      why:"capturing is compulsory: a jump is available")', ")"),
    "men jump backwards": ('(hop ForwardDiagonal of:"Man"', '(hop Diagonal of:"Man"'),
    "the draw comes at 41": ("40)) (draw)", "41)) (draw)"),
}


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_a_wrong_rule_is_caught(mutant: str) -> None:
    """The comparison notices a game file with one rule changed, within the random games of
    `test_random_games_agree_with_openspiel`."""
    source = (GAMES / "checkers.game").read_text()
    changes = MUTANTS[mutant]
    for old, new in zip(changes[::2], changes[1::2], strict=True):
        if old not in source:
            pytest.skip(f"games/checkers.game no longer contains {old!r}")
        source = source.replace(old, new)
    wrong = parse_game(source, source=mutant, openspiel=True)
    with pytest.raises(OracleMismatch):
        compare(wrong, spiel_checkers(), checkers_action_map(8), games=600, seed=11)
