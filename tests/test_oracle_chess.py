"""Chess against OpenSpiel, an independent engine, move by move.

games/chess.game is played through ludeme and OpenSpiel's `chess` in lockstep
(`tests/oracle.py`): at every position the legal moves, the player to move and whether the game
is over must agree, and at the end the winner (OpenSpiel's returns) and the kind of end. Along
some of the games the whole position must agree too: board, side to move, castling rights, en
passant square and both counters (OpenSpiel's FEN against ludeme's position text). The games
start from the start position and from the positions of the perft suite (Kiwipete, positions
3 to 6), which OpenSpiel reads from FEN. About 30 s in all.

What OpenSpiel plays, read from open_spiel/games/chess/chess.{h,cc} and chess_board.cc:

- one parameter, `chess960` (false here). Player 0 is Black and player 1 White
  (`ColorToPlayer`), White moving first; ludeme lists White first, so the comparison sees the
  game through `black_first`, which lists the roles in OpenSpiel's order.
- actions are not a fixed table: `MoveToAction` numbers a move from the mover's side of the
  board (Black's ranks reflected), 73 per from-square (56 queen-like, 8 knight, 9
  under-promotions; a queen promotion is the plain pawn move), castling two actions of its own
  (4672 long, 4673 short): 4674 in all. So each legal action is named in its position:
  `pyspiel.chess.action_to_move(action, board).to_lan()` is UCI (`e2e4`, `e7e8q`, standard
  castling as the king's move `e1g1`), which reads `e2-e4`, `e7-e8=Q`, `e1-g1` here.
- the rules are FIDE's. Castling rights are lost when the king moves, when a rook moves from
  its castling square or is taken there. En passant is possible right after a double step.
- the end, `MaybeFinalReturns`, judged after every move in this order:
  1. insufficient material (`HasSufficientMaterial`): any pawn, rook or queen is enough; so
     are two knights of one side, or a knight with any other minor piece of either side;
     otherwise (kings and bishops) only bishops on both colours are: K v K, K+B v K, K+N v K
     and bishops all on one colour (any number, either side) are draws.
  2. threefold repetition: a table counts each position's Zobrist hash, the start position
     included; the hash covers the pieces, the side to move, the castling rights and the en
     passant square, which is set only when an enemy pawn stands beside the pawn that moved
     two squares (legal or not: a pinned pawn counts), also when read from FEN. A draw when
     the count reaches 3.
  3. no legal move: checkmate (a win, returns 1 and -1) if in check, else stalemate (a draw).
  4. the fifty-move rule: the irreversible move counter (reset by pawn moves and captures,
     castling counting as reversible) at 100 or more is a draw at once, not claimed. It comes
     after 3, so a checkmate on the hundredth halfmove wins.
  There is no other end: `MaxGameLength` (17695) is only a declared bound.

games/chess.game judges its end conditions in the same order and names them; the kind of end
is compared with OpenSpiel's, worked out from its state by the same four steps (`spiel_end`).

One disagreement was found and fixed: a position text (or FEN) whose en passant square no
pawn can use kept it in ludeme, so that position never counted as repeated, where OpenSpiel
(and FIDE) drop it (`test_an_en_passant_square_no_pawn_can_use_is_dropped`). Each rule changed
on its own in the game file is caught by the random games (`test_a_wrong_rule_is_caught`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from chess_fen import fen_to_text
from oracle import (
    ActionMap,
    Lockstep,
    OracleMismatch,
    follow,
    game_rng,
    lockstep,
    random_chooser,
    require_openspiel,
)

from interpreter import load_game, parse_game

pyspiel = require_openspiel("chess")
if not hasattr(pyspiel, "chess"):  # the bindings that name an action's move (games_chess.cc)
    pytest.skip("this OpenSpiel has no pyspiel.chess module", allow_module_level=True)

GAMES = Path(__file__).resolve().parent.parent / "games"
SEED = 21
GAMES_FROM_THE_START = 100

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PERFT_POSITIONS = {
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "position 6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
}


@cache
def chess_game() -> Any:
    return load_game(GAMES / "chess.game")


@cache
def spiel_chess() -> Any:
    return pyspiel.load_game("chess")


class BlackFirst:
    """A ludeme game seen with its roles in OpenSpiel's order, Black (player 0) first: the
    oracle pairs `game.players` with OpenSpiel's players 0 and 1. Everything else is the
    game's own."""

    def __init__(self, game: Any) -> None:
        assert tuple(game.players) == ("White", "Black")
        self.game = game
        self.players = ("Black", "White")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def lan_to_ludeme(lan: str) -> str:
    """UCI / OpenSpiel's LAN (`e2e4`, `e7e8q`) in ludeme's notation (`e2-e4`, `e7-e8=Q`)."""
    return f"{lan[:2]}-{lan[2:4]}" + (f"={lan[4].upper()}" if len(lan) > 4 else "")


@dataclass(frozen=True)
class ChessActions(ActionMap):
    """OpenSpiel's chess actions, named in their position: each action is turned into its
    move on the board (`pyspiel.chess.action_to_move`) and that into LAN (`to_lan`)."""

    sites: Mapping[int, str] = field(default_factory=dict)

    def notations(self, spiel_state: Any, actions: Iterable[int], swapped: bool) -> list[str]:
        board = spiel_state.board()
        to_move = pyspiel.chess.action_to_move
        return [lan_to_ludeme(to_move(a, board).to_lan()) for a in actions]


ACTIONS = ChessActions()



def text_to_fen(text: str) -> str:
    """The FEN of a ludeme position text (keys left out have their defaults: the start's
    castling rights, no en passant square, halfmove 0, fullmove 1)."""
    lines = text.splitlines()
    ranks = []
    for line in lines[:8]:
        rank, empty = "", 0
        for cell in line.split():
            if cell == ".":
                empty += 1
                continue
            rank += (str(empty) if empty else "") + cell
            empty = 0
        ranks.append(rank + (str(empty) if empty else ""))
    keys = dict(line.split(": ", 1) for line in lines[8:])
    side = "w" if keys["mover"] == "White" else "b"
    return " ".join(["/".join(ranks), side, keys.get("castling", "KQkq"),
                     keys.get("en passant", "-"), keys.get("halfmove", "0"),
                     keys.get("fullmove", "1")])


def start(fen: str, game: Any | None = None) -> tuple[Any, Any]:
    """The position of a FEN in both engines, for `lockstep(start=...)`."""
    game = game or chess_game()
    return game.from_text(fen_to_text(fen)), spiel_chess().new_initial_state(fen)


# The kind of end, in OpenSpiel's terms ------------------------------------------------------


def has_sufficient_material(fen: str) -> bool:
    """chess_board.cc, ChessBoard::HasSufficientMaterial, on a FEN's board."""
    knights = {"w": 0, "b": 0}
    bishops = {"w": [0, 0], "b": [0, 0]}  # per colour of square: dark, light
    for r, rank in enumerate(fen.split()[0].split("/")):
        x = 0
        for ch in rank:
            if ch.isdigit():
                x += int(ch)
                continue
            y = 7 - r
            side = "w" if ch.isupper() else "b"
            if ch.upper() in "RPQ":
                return True
            if ch.upper() == "N":
                knights[side] += 1
            if ch.upper() == "B":
                bishops[side][0 if (x + y) % 2 == 0 else 1] += 1
            x += 1
    if knights["w"] > 1 or knights["b"] > 1:
        return True
    for side, other in (("w", "b"), ("b", "w")):
        if knights[side] == 1:
            return sum(bishops[side]) > 0 or knights[other] > 0 or sum(bishops[other]) > 0
    dark = bishops["w"][0] + bishops["b"][0]
    light = bishops["w"][1] + bishops["b"][1]
    return dark > 0 and light > 0


def spiel_end(spiel_state: Any) -> str:
    """Why OpenSpiel's game is over, in games/chess.game's names, following MaybeFinalReturns."""
    board = spiel_state.board()
    fen = board.to_fen()
    if not has_sufficient_material(fen):
        return "insufficient material"
    if spiel_state.is_repetition_draw():
        return "threefold repetition"
    if not board.has_legal_moves():
        return "checkmate" if spiel_state.returns() != [0.0, 0.0] else "stalemate"
    if int(fen.split()[4]) >= 100:
        return "the fifty-move rule"
    raise AssertionError(f"OpenSpiel's game is over for no reason it names: {fen}")


def play_games(game: Any, games: int, seed: int, fen: str | None = None,
               label: str = "chess") -> list[Lockstep]:
    """`games` random games (numbered 0, 1, ... and seeded as `oracle.compare` seeds them)
    through both engines in lockstep, from the start or from `fen`; after each, the kind of
    end must agree too."""
    ends = []
    for number in range(games):
        where = f"game {number} (seed {seed}" + (f", from {fen})" if fen else ")")
        end = lockstep(BlackFirst(game), spiel_chess(), ACTIONS,
                       random_chooser(game_rng(seed, number)), label=label, where=where,
                       max_plies=spiel_chess().max_game_length() + 10,
                       start=None if fen is None else start(fen, game))
        theirs = spiel_end(end.spiel_state)
        if end.state.outcome.reason != theirs:
            raise OracleMismatch(f"{label}: {where} ended by {end.state.outcome.reason!r} in "
                                 f"ludeme, by {theirs!r} in OpenSpiel; moves: "
                                 f"{' '.join(end.moves)}")
        ends.append(end)
    return ends


# The actions ---------------------------------------------------------------------------------


def test_actions_read_as_openspiel_writes_them() -> None:
    """In the start position and in position 4 (promotions, castling, en passant nearby) the
    named actions are ludeme's legal moves, and OpenSpiel's SAN says the same move."""
    for fen in (START, PERFT_POSITIONS["position 4"], PERFT_POSITIONS["kiwipete"]):
        state, spiel_state = start(fen)
        actions = spiel_state.legal_actions()
        names = ACTIONS.notations(spiel_state, actions, False)
        assert set(names) == {str(m) for m in state.legal_moves()}
        player = spiel_state.current_player()
        for a, name in zip(actions, names, strict=True):
            san = spiel_state.action_to_string(player, a)
            if san.startswith("O-O"):
                assert name in ({"e1-c1", "e8-c8"} if san.startswith("O-O-O")
                                else {"e1-g1", "e8-g8"})
            else:
                assert name[3:5] in san, (san, name)
                if "=" in san:
                    assert san.split("=")[1][0] == name[-1], (san, name)


def test_castling_and_promotion_actions() -> None:
    """OpenSpiel's two castling actions read as the king's moves, for both sides; an
    under-promotion and a queen promotion read with their piece."""
    for side, row in (("w", "1"), ("b", "8")):
        state, spiel_state = start(f"r3k2r/8/8/8/8/8/8/R3K2R {side} KQkq - 0 1")
        names = dict(zip(spiel_state.legal_actions(),
                         ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False),
                         strict=True))
        assert names[4672] == f"e{row}-c{row}" and names[4673] == f"e{row}-g{row}"
    _, spiel_state = start("7k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert {n for n in ACTIONS.notations(spiel_state, spiel_state.legal_actions(), False)
            if n.startswith("a7")} == {"a7-a8=Q", "a7-a8=R", "a7-a8=B", "a7-a8=N"}


def test_fen_and_position_text_agree() -> None:
    """The two translations of positions used below are each other's inverse on the perft
    positions, and OpenSpiel writes back the FEN it read."""
    for fen in (START, *PERFT_POSITIONS.values()):
        assert text_to_fen(chess_game().from_text(fen_to_text(fen)).to_text()) == fen
        assert spiel_chess().new_initial_state(fen).board().to_fen() == fen


def test_insufficient_material_as_openspiel_reads_it() -> None:
    """`has_sufficient_material` (a transcription of OpenSpiel's) on the cases it lists."""
    cases = {"4k3/8/8/8/8/8/8/4K3": False, "4k3/8/8/8/8/8/8/4KB2": False,
             "4k3/8/8/8/8/8/8/4KN2": False, "2b1k3/8/8/8/8/8/8/4KB2": False,
             "1b2k3/8/8/8/8/8/8/4KB2": True, "4kn2/8/8/8/8/8/8/4KN2": True,
             "4k3/8/8/8/8/8/8/4KNN1": True, "4kb2/8/8/8/8/8/8/4KN2": True,
             "4k3/8/8/8/8/8/P7/4K3": True}
    for placement, sufficient in cases.items():
        assert has_sufficient_material(f"{placement} w - - 0 1") is sufficient, placement


# Random games --------------------------------------------------------------------------------


def test_random_games_agree_with_openspiel() -> None:
    """100 random games from the start: moves, mover, end, winner and kind of end agree at
    every position. Between them they end in every way chess ends."""
    ends = play_games(chess_game(), GAMES_FROM_THE_START, SEED)
    reasons = Counter(end.state.outcome.reason for end in ends)
    assert set(reasons) == set(chess_game().end_reasons()), reasons
    assert {end.state.winner for end in ends} == {"White", "Black", None}


@pytest.mark.parametrize("name", list(PERFT_POSITIONS))
def test_random_games_from_perft_positions_agree(name: str) -> None:
    """Ten random games from each perft position (OpenSpiel reads the FEN): castling,
    promotions and en passant early and often."""
    ends = play_games(chess_game(), 10, SEED + 1, fen=PERFT_POSITIONS[name], label=name)
    assert len(ends) == 10


def replay_positions(moves: list[str], fen: str = START) -> None:
    """Play `moves` through both engines, comparing the whole position after each move:
    ludeme's position text read as a FEN against OpenSpiel's FEN."""
    state, spiel_state = start(fen)
    for number, move in enumerate(moves, 1):
        state = state.play(move)
        spiel_state.apply_action(spiel_state.parse_move_to_action(move.replace("-", "")
                                                                   .replace("=", "").lower()))
        assert text_to_fen(state.to_text()) == spiel_state.board().to_fen(), \
            f"after {number} moves: {' '.join(moves[:number])}"


def test_whole_positions_agree_along_random_games() -> None:
    """Along 15 random games (10 from the start, 5 from Kiwipete), after every move: the
    board, the side to move, the castling rights, the en passant square (both write one only
    when a pawn could take), the halfmove clock and the move number."""
    for end in play_games(chess_game(), 10, SEED + 2):
        replay_positions(end.moves)
    kiwipete = PERFT_POSITIONS["kiwipete"]
    for end in play_games(chess_game(), 5, SEED + 3, fen=kiwipete, label="kiwipete"):
        replay_positions(end.moves, kiwipete)


# Chosen lines ----------------------------------------------------------------------------------

MATE_AT_99 = "7k/6pp/8/8/8/8/8/R5K1 w - - 99 80"


def test_checkmate_on_the_hundredth_halfmove_wins_in_both() -> None:
    mate = follow(BlackFirst(chess_game()), spiel_chess(), ACTIONS, ["a1-a8"],
                  start=start(MATE_AT_99))
    assert mate.state.winner == "White" and spiel_end(mate.spiel_state) == "checkmate"
    quiet = follow(BlackFirst(chess_game()), spiel_chess(), ACTIONS, ["g1-f1"],
                   start=start(MATE_AT_99))
    assert quiet.state.is_over and spiel_end(quiet.spiel_state) == "the fifty-move rule"


KNIGHTS = ["g1-f3", "g8-f6", "f3-g1", "f6-g8"]


def test_repetitions_agree() -> None:
    """Knight shuffles from the start (a draw at the eighth move), the same with castling
    rights lost between (the board's third appearance is not a repetition), and after a
    double step a pawn could take en passant (likewise)."""
    game = BlackFirst(chess_game())
    end = follow(game, spiel_chess(), ACTIONS, KNIGHTS * 2)
    assert spiel_end(end.spiel_state) == "threefold repetition"
    rights = KNIGHTS + ["g1-f3", "g8-f6", "h1-g1", "h8-g8", "g1-h1", "g8-h8", "f3-g1", "f6-g8"]
    end = follow(game, spiel_chess(), ACTIONS, rights + KNIGHTS + ["g1-f3", "g8-f6"])
    assert spiel_end(end.spiel_state) == "threefold repetition"
    en_passant = "4k1n1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
    end = follow(game, spiel_chess(), ACTIONS, ["d7-d5"] + KNIGHTS * 2 + ["g1-f3"],
                 start=start(en_passant))
    assert spiel_end(end.spiel_state) == "threefold repetition"


@pytest.mark.parametrize("placement", [
    "4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4KB2", "4k3/8/8/8/8/8/8/4KN2",
    "2b1k3/8/8/8/8/8/8/4KB2", "1b2k3/8/8/8/8/8/8/4KB2", "4k3/8/8/8/8/8/B7/4KB2",
    "4kn2/8/8/8/8/8/8/4KN2", "4kb2/8/8/8/8/8/8/4KN2", "4k3/8/8/8/8/8/8/4KNN1",
])
def test_material_agrees(placement: str) -> None:
    """Whether the material suffices, from FEN: both engines end the game at once or both
    play on (two king moves)."""
    fen = f"{placement} w - - 0 1"
    drawn = not has_sufficient_material(fen)
    end = follow(BlackFirst(chess_game()), spiel_chess(), ACTIONS,
                 [] if drawn else ["e1-d1", "e8-d8"], start=start(fen))
    assert end.state.is_over is drawn
    if drawn:
        assert end.state.outcome.reason == spiel_end(end.spiel_state) == "insufficient material"


def test_an_en_passant_square_no_pawn_can_use_is_dropped() -> None:
    """After 1.d4 e5 (FEN with `e6`, no white pawn beside e5), knights out and back twice:
    the position stands a third time. OpenSpiel draws after the eighth move."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 2"
    follow(BlackFirst(chess_game()), spiel_chess(), ACTIONS, KNIGHTS * 2, start=start(fen))


# Wrong rules are caught ----------------------------------------------------------------------

MUTANTS = {
    "castling through check by a slider": (
        '(castle "King" "Rook" attacks:("Attacks"))',
        '(castle "King" "Rook" attacks:(leap 1 2 of:"Knight" to:Enemy))'),
    "no en passant": ('(en-passant "Pawn")', ""),
    "promotion only to a queen": ('to:{"Queen" "Rook" "Bishop" "Knight"}', 'to:{"Queen"}'),
    "the fifty-move rule at 101": ("100)) (draw)", "101)) (draw)"),
    "stalemate wins": ('(named "stalemate" (stuck Next)) (draw)',
                       '(named "stalemate" (stuck Next)) (win Mover)'),
    "repetition of the board alone": ("(repeated situational:true times:3)",
                                      "(repeated times:3)"),
    "bishops on both colours are too little": (
        '(= (count (intersection (sites Occupied of:{"Bishop"}) (sites Phase 1))) 0)',
        "(= 0 0)"),
}


def mutant(name: str) -> Any:
    source = (GAMES / "chess.game").read_text()
    changes = MUTANTS[name]
    for old, new in zip(changes[::2], changes[1::2], strict=True):
        if old not in source:
            pytest.skip(f"games/chess.game no longer contains {old!r}")
        source = source.replace(old, new)
    return parse_game(source, source=name)


@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_wrong_rule_is_caught(name: str) -> None:
    """The comparison notices a game file with one rule changed, within the random games of
    `test_random_games_agree_with_openspiel`."""
    with pytest.raises(OracleMismatch):
        play_games(mutant(name), GAMES_FROM_THE_START, SEED, label=name)


def test_the_order_of_the_ends_is_caught() -> None:
    """The fifty-move rule judged before checkmate: the mate at halfmove 99 becomes a draw."""
    source = (GAMES / "chess.game").read_text()
    fifty = '    (if (named "the fifty-move rule" (>= (halfmove-clock "Pawn") 100)) (draw))'
    checkmate = '    (if (named "checkmate" (and (stuck Next) ("Check" Next Mover))) (win Mover))'
    if fifty not in source or checkmate not in source:
        pytest.skip("games/chess.game no longer has these end clauses")
    source = source.replace(fifty, "").replace(checkmate, fifty + "\n" + checkmate)
    wrong = parse_game(source, source="fifty-move rule first")
    with pytest.raises(OracleMismatch):
        follow(BlackFirst(wrong), spiel_chess(), ACTIONS, ["a1-a8"],
               start=start(MATE_AT_99, wrong))
