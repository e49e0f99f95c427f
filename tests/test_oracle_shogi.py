"""Shogi against OpenSpiel, an independent engine, move by move, and against published perft
counts.

games/shogi.game (with openspiel:true, OpenSpiel's end rules) is played through ludeme and
OpenSpiel's `shogi` in lockstep (`tests/oracle.py`): at every position the legal moves, the
player to move and whether the game is over must agree, and at the end the winner.

Translating OpenSpiel's actions (shogi.cc, MoveToAction) is derived from its coordinates:
a square {x, y} has x = 0 on file 9 (the left, as Black sees the board) and y = 0 on rank i
(Black's back row, the bottom); its index is y * 9 + x. Ludeme names that square as a chess
board does: column letter x (a for x = 0) and row y + 1, so OpenSpiel's 7g (x 2, y 2) is c3.
A board move is the action (from * 81 + to) * 2 + promote, written `from-to`, with `=` and
the promoted piece's letter when it promotes; a drop is 81 * 81 * 2 + kind * 81 + to, the
kinds in the order P L N S G B R (Pocket::PieceTypes), written `P*e5`. The promoted piece is
told from the piece on the from-square, read from OpenSpiel's SFEN (ToString).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from tests.oracle import (
    KernelState,
    OracleMismatch,
    follow,
    game_rng,
    lockstep,
    random_chooser,
    require_openspiel,
)
from tests.test_perft import perft

pyspiel = require_openspiel("shogi")

GAMES = Path(__file__).resolve().parent.parent / "games"
SEED = 2023
GAMES_COMPARED = 12
SQUARES = 81
BOARD_MOVES = SQUARES * SQUARES * 2
POCKET = "PLNSGBR"  # OpenSpiel's Pocket::PieceTypes order
# The letter of each SFEN piece once promoted (games/shogi.game's symbols).
PROMOTED = {"P": "T", "L": "Y", "N": "E", "S": "I", "B": "H", "R": "D"}
# ludeme's letter for each SFEN piece ("+P" a tokin...), upper case for Black.
LETTERS = {"K": "K", "R": "R", "B": "B", "G": "G", "S": "S", "N": "N", "L": "L", "P": "P",
           **{f"+{k}": v for k, v in PROMOTED.items()}}


@cache
def shogi_game(**options: Any) -> Any:
    return load_game(GAMES / "shogi.game", openspiel=True, **options)


@cache
def spiel_shogi() -> Any:
    return pyspiel.load_game("shogi")


def square(index: int) -> str:
    """The ludeme name of OpenSpiel's square index y * 9 + x."""
    y, x = divmod(index, 9)
    return f"{'abcdefghi'[x]}{y + 1}"


def sfen_cells(sfen: str) -> list[list[str]]:
    """The board of an SFEN as rows of cells, top row (rank a, ludeme's row 9) first: each an
    SFEN piece ("P", "+p", ...) or "." for an empty square."""
    rows = []
    for rank in sfen.split()[0].split("/"):
        cells: list[str] = []
        i = 0
        while i < len(rank):
            ch = rank[i]
            if ch.isdigit():
                cells += ["."] * int(ch)
            elif ch == "+":
                cells.append(rank[i:i + 2])
                i += 1
            else:
                cells.append(ch)
            i += 1
        assert len(cells) == 9, sfen
        rows.append(cells)
    return rows


def letter(cell: str) -> str:
    """ludeme's symbol for an SFEN piece: its case tells the side."""
    found = LETTERS[cell.upper()]
    return found if cell[-1].isupper() else found.lower()


def sfen_to_text(sfen: str) -> str:
    """ludeme's position text of an SFEN (board, side to move, hands)."""
    rows = [" ".join(letter(c) if c != "." else "." for c in row) for row in sfen_cells(sfen)]
    _, side, hand, _ = sfen.split()
    rows.append(f"mover: {'Black' if side == 'b' else 'White'}")
    held: dict[str, list[str]] = {"Black": [], "White": []}
    count = ""
    for ch in "" if hand == "-" else hand:
        if ch.isdigit():
            count += ch
            continue
        held["Black" if ch.isupper() else "White"].append(f"{ch.upper()}{count or 1}")
        count = ""
    rows += [f"in hand {role}: {' '.join(kinds)}" for role, kinds in held.items() if kinds]
    return "\n".join(rows)


class ShogiActions:
    """OpenSpiel's shogi actions in ludeme notation (see the module docstring)."""

    def notation(self, cells: list[list[str]], action: int) -> str:
        if action >= BOARD_MOVES:
            kind, to = divmod(action - BOARD_MOVES, SQUARES)
            return f"{POCKET[kind]}*{square(to)}"
        pair, promote = divmod(action, 2)
        frm, to = divmod(pair, SQUARES)
        written = f"{square(frm)}-{square(to)}"
        if promote:
            y, x = divmod(frm, 9)
            written += "=" + PROMOTED[cells[8 - y][x].upper()]
        return written

    def __init__(self) -> None:
        self.cells: list[list[str]] = []  # the board last translated for

    def notations(self, spiel_state: Any, actions: Iterable[int], swapped: bool) -> list[str]:
        cells = self.cells = sfen_cells(str(spiel_state))
        return [self.notation(cells, a) for a in actions]

    def takes(self, move: str) -> bool:
        """Does the move (translated last) take a piece?"""
        if "*" in move:
            return False
        to = move.split("-")[1][:2]
        return self.cells[9 - int(to[1])][ord(to[0]) - ord("a")] != "."


ACTIONS = ShogiActions()


def start(sfen: str, game: Any | None = None) -> tuple[Any, Any]:
    """The position of an SFEN in both engines, for `lockstep(start=...)`."""
    game = game or shogi_game()
    return game.from_text(sfen_to_text(sfen)), spiel_shogi().new_initial_state(sfen)


def play(game: Any, games: int, seed: int, sfen: str | None = None,
         label: str = "shogi", kernel: Any = None) -> list[Any]:
    """`games` random games through both engines in lockstep, from the start or `sfen`;
    with `kernel` (the game's), ludeme's side is played in it (oracle.KernelState)."""
    ends = []
    for number in range(games):
        where = f"game {number} (seed {seed}" + (f", from {sfen})" if sfen else ")")
        at = None if sfen is None and kernel is None else \
            start(sfen or str(spiel_shogi().new_initial_state()), game)
        if at is not None and kernel is not None:
            at = (KernelState(game, kernel, kernel.encode(at[0])), at[1])
        end = lockstep(game, spiel_shogi(), ACTIONS, random_chooser(game_rng(seed, number)),
                       label=label, where=where, max_plies=3000, start=at)
        ends.append(end)
    return ends


def shogi_kernel() -> Any:
    """The kernel of shogi with OpenSpiel's end rules (skips without numba)."""
    from interpreter.kernel import available, kernel_for

    if not available():
        pytest.skip("numba (the kernels extra) is not installed: pip install -e '.[kernels]'")
    kernel = kernel_for(shogi_game())
    assert kernel is not None
    return kernel


# The actions ---------------------------------------------------------------------------------


def test_actions_read_as_openspiel_writes_them() -> None:
    """The start position's 30 actions are ludeme's 30 moves, and OpenSpiel's own move text
    (7g7f: file, rank) names the same squares."""
    state, spiel_state = shogi_game().initial_state(), spiel_shogi().new_initial_state()
    actions = spiel_state.legal_actions()
    names = ACTIONS.notations(spiel_state, actions, False)
    assert set(names) == {str(m) for m in state.legal_moves()} and len(names) == 30
    for a, name in zip(actions, names, strict=True):
        text = spiel_state.action_to_string(0, a)  # e.g. 7g7f
        frm, to = name.split("-")
        assert frm == f"{'abcdefghi'[9 - int(text[0])]}{ord('i') - ord(text[1]) + 1}", text
        assert to == f"{'abcdefghi'[9 - int(text[2])]}{ord('i') - ord(text[3]) + 1}", text


def test_sfen_and_position_text_agree() -> None:
    """The start position read from OpenSpiel's SFEN is ludeme's start position."""
    sfen = str(spiel_shogi().new_initial_state())
    assert shogi_game().from_text(sfen_to_text(sfen)).to_text() == \
        shogi_game().initial_state().to_text()


# Perft -------------------------------------------------------------------------------------------

# The published counts from the start position (e.g. the Chess Programming Wiki's shogi
# perft table: 30, 900, 25470, 719731), with the file's default rules.
@pytest.mark.parametrize("depth, expected", [(1, 30), (2, 900), (3, 25470)])
def test_perft_from_the_start(depth: int, expected: int) -> None:
    game = load_game(GAMES / "shogi.game")
    assert perft(game.initial_state(), depth) == expected


def test_perft_4_from_the_start() -> None:
    game = load_game(GAMES / "shogi.game")
    assert perft(game.initial_state(), 4) == 719731


# Chosen positions ----------------------------------------------------------------------------

# Black pawn, lance and knight about to reach the last rows (forced promotion), a silver that
# may promote when it leaves the zone, a rook that may promote when it enters it.
PROMOTIONS = "4k4/P1L3S2/4N4/9/9/9/9/7R1/4K4 b - 1"


def test_promotions_agree() -> None:
    state, spiel_state = start(PROMOTIONS)
    names = set(ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False))
    assert names == {str(m) for m in state.legal_moves()}
    assert "a8-a9=T" in names and "a8-a9" not in names  # forced: a pawn on the last row
    assert {"e7-d9=E", "e7-f9=E", "c8-c9=Y"} <= names and "e7-d9" not in names
    assert {"g8-g9", "g8-g9=I", "g8-h7", "g8-h7=I"} <= names  # optional, also leaving
    assert {"h2-h7", "h2-h7=D", "h2-h6"} <= names and "h2-h6=D" not in names


def test_checkmate_agrees() -> None:
    """A gold moved in front of the king, a silver guarding it: mate, Black wins."""
    end = follow(shogi_game(), spiel_shogi(), ACTIONS, ["e7-e8"],
                 start=start("4k4/9/3SG4/9/9/9/9/9/4K4 b - 1"))
    assert end.state.winner == "Black" and end.spiel_state.returns() == [1.0, -1.0]


# Black to move with a pawn in hand: P*a8 would check the king on a9, which could neither take
# it (the gold on b7 guards it) nor step away (b8: the gold, b9: the silver on c8): a pawn that
# mates may not be dropped; a gold may. Without the silver the king escapes to b9.
MATE_BY_PAWN = "k8/2S6/1G7/9/9/9/9/9/8K b GP 1"
CHECK_BY_PAWN = "k8/9/1G7/9/9/9/9/9/8K b P 1"
# Black holds a pawn, a lance and a knight, and has a pawn on e5 and a tokin on d5.
DROPS = "4k4/9/9/9/3TP4/9/9/9/4K4 b PLN 1".replace("T", "+P")


def legal_in_both(sfen: str) -> set[str]:
    """The legal moves in an SFEN position, the same in both engines."""
    state, spiel_state = start(sfen)
    names = set(ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False))
    assert names == {str(m) for m in state.legal_moves()}, sfen
    return names


def test_a_pawn_drop_may_not_mate() -> None:
    mate = legal_in_both(MATE_BY_PAWN)
    assert "P*a8" not in mate and "P*b8" in mate and "G*a8" in mate
    assert "P*a8" in legal_in_both(CHECK_BY_PAWN)
    state = shogi_game().from_text(sfen_to_text(MATE_BY_PAWN)).play("G*a8")
    assert state.winner == "Black" and state.outcome.reason == "checkmate"


def test_drops_keep_off_the_squares_the_rules_forbid() -> None:
    """No pawn on the e file (a pawn there), one on the d file (a tokin is no pawn); no pawn
    or lance on the last row, no knight on the last two."""
    names = legal_in_both(DROPS)
    drops = {n for n in names if "*" in n}
    assert not {n for n in drops if n.startswith("P*e")}
    assert {"P*d4", "P*d8"} <= drops and "P*d9" not in drops and "P*a9" not in drops
    assert "L*a8" in drops and "L*a9" not in drops
    assert "N*a7" in drops and not {n for n in drops if n.startswith("N*") and n[-1] in "89"}


def test_hands_agree_along_a_game() -> None:
    """Along random games, the whole position after every move (board, hands, player to move)
    agrees with OpenSpiel's SFEN."""
    for end in play(shogi_game(), 2, SEED + 1):
        state, spiel_state = shogi_game().initial_state(), spiel_shogi().new_initial_state()
        for move in end.moves:
            names = ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False)
            spiel_state.apply_action(spiel_state.legal_actions()[names.index(move)])
            state = state.play(move)
            assert state.to_text() == shogi_game().from_text(
                sfen_to_text(str(spiel_state))).to_text(), move


# Random games ------------------------------------------------------------------------------


def test_random_games_agree_with_openspiel() -> None:
    """Random games from the start, to their end: moves (drops and promotions), player to
    move, end and winner agree at every position. Between them they end by checkmate and by
    both of OpenSpiel's entering-king rules."""
    ends = play(shogi_game(), GAMES_COMPARED, SEED)
    reasons = {end.state.outcome.reason for end in ends}
    assert {"checkmate", "the entering king", "both kings entered"} <= reasons, reasons


def test_the_kernels_random_games_agree_with_openspiel() -> None:
    """The game's kernel (interpreter/kernel: hands by kind, drops, promotions and the pawn
    drop that may not mate, whose search asks for the opponent's moves), played through its
    step API, agrees with OpenSpiel as the interpreter does."""
    ends = play(shogi_game(), GAMES_COMPARED, SEED + 5, label="shogi (kernel)",
                kernel=shogi_kernel())
    assert sum(len(end.moves) for end in ends) > 2_000


@pytest.mark.parametrize("sfen", [MATE_BY_PAWN, CHECK_BY_PAWN, DROPS])
def test_the_kernel_drops_as_openspiel_does(sfen: str) -> None:
    """The chosen drop positions, ludeme's side in the kernel: the same legal moves."""
    kernel = shogi_kernel()
    state, spiel_state = start(sfen)
    names = set(ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False))
    assert names == {shogi_game().actions.notation(a)
                     for a in kernel.legal_actions(kernel.encode(state))}


def until_a_capture(rng: Any) -> Any:
    """Random moves, stopping after the first that takes a piece."""
    took = [False]

    def choose(actions: list[int], names: list[str]) -> int | None:
        if took[0]:
            return None
        i = rng.randrange(len(actions))
        took[0] = ACTIONS.takes(names[i])
        return i
    return choose


def test_random_games_agree_until_a_capture() -> None:
    """Random games from the start, compared at every position up to the first capture (the
    first piece in hand)."""
    game = shogi_game()
    for number in range(20):
        end = lockstep(game, spiel_shogi(), ACTIONS, until_a_capture(game_rng(SEED, number)),
                       label="shogi", where=f"game {number}", max_plies=500)
        assert end.moves


MUTANTS = {
    "a knight that also leaps back": ('(leap-ahead 1 2 of:"Knight")', '(leap 1 2 of:"Knight")'),
    "two pawns on a file": ('(difference ("Free" "Pawn") ("Files"))', '("Free" "Pawn")'),
    "a lance dropped on the last row": ('("Free" "Lance")', "(sites Empty)"),
    "no promotion of a silver": ('("Promotes" (any-of ("Step" Forward "Silver") '
                                 '("Step" Diagonal "Silver")) "PromotedSilver")',
                                 '(any-of ("Step" Forward "Silver") ("Step" Diagonal "Silver"))'),
    "the entering king without points": ('(>= ("Points") 28)', '(>= ("Points") 0)'),
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_wrong_rule_is_caught(name: str) -> None:
    """The comparison notices a game file with one rule changed, within the random games of
    test_random_games_agree_with_openspiel."""
    from interpreter import parse_game

    source = (GAMES / "shogi.game").read_text()
    old, new = MUTANTS[name]
    assert old in source
    wrong = parse_game(source.replace(old, new), source=name, openspiel=True)
    with pytest.raises(OracleMismatch):
        play(wrong, GAMES_COMPARED, SEED, label=name)
