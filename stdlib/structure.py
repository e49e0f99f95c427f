"""The sections of a game: players, board, start position, turn and end. These ludemes return
plain descriptions that the interpreter assembles into a `Game`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

from dsl import types as t
from dsl.ast import Const, Float, Form, Int, ListNode, Node, Str
from stdlib.boards import Board
from stdlib.lowering import Lower, keywords, lowers, padded
from stdlib.parts import parts_of
from stdlib.registry import ludeme
from stdlib.runtime import MAX_PILE, NEUTRAL, Ctx, Env
from stdlib.types import Annotated, Cond, Direction, Region, ResultExpr, RoleExpr, Side

Section = Annotated[object, t.SECTION]
PlayerT = Annotated["PlayerDecl", t.PLAYER]
PieceT = Annotated["PieceDecl", t.PIECE]
SetupT = Annotated["Setup", t.SETUP]
TurnStep = Annotated[object, t.TURN_STEP]
EndRuleT = Annotated["EndRule", t.END_RULE]


@dataclass(frozen=True)
class GameDecl:
    name: str
    sections: tuple[object, ...]


@dataclass(frozen=True)
class PlayerDecl:
    name: str
    symbol: str
    forward: str | None
    sides: tuple[str, ...]
    supply: int
    on: str
    kinds: tuple[PieceDecl, ...] = ()
    piece: str = ""  # the name of the role's own piece (default: the role's name)
    reuse: bool = True  # does a piece taken off the board go back to the hand?
    pile: bool = False  # may a site hold several of the role's own pieces (a stack)?

    @property
    def many(self) -> bool:
        """May a site hold several of the role's own pieces (a count, see stdlib/counts.py)?"""
        return self.pile


@dataclass(frozen=True)
class PlayersSection:
    players: tuple[PlayerDecl, ...]
    pie: bool
    first: str
    hand: str
    captures: str = ""  # "hand": captured pieces go to the captor's hand (stdlib/hands.py)


@dataclass(frozen=True)
class BoardSection:
    graph: nx.DiGraph


@dataclass(frozen=True)
class PieceDecl:
    name: str
    symbol: str
    pile: bool = False  # a site may hold any number of these (seeds in a pit)
    demotes: str = ""  # captured into a hand, it becomes this kind (a promoted pawn: "Pawn")

    @property
    def many(self) -> bool:
        """May a site hold several of this kind (a count, see stdlib/counts.py)?"""
        return self.pile


@dataclass(frozen=True)
class PiecesSection:
    pieces: tuple[PieceDecl, ...]


@dataclass(frozen=True)
class Setup:
    value: int  # the board value put on each site
    sites: frozenset[int]
    cells: tuple[tuple[int, int], ...] = ()  # further (site, board value) pairs


@dataclass(frozen=True)
class StartSection:
    setups: tuple[Setup, ...]


@dataclass(frozen=True)
class Phase:
    """A stage of the game with its own turn: steps (each a Moves — a decision — or an Effect
    — automatic), a condition that ends it, and who moves first after it."""

    name: str
    steps: tuple[object, ...]
    until: object | None = None  # Cond, judged after each turn; None for the last phase
    next: object | None = None  # RoleExpr: who moves after the phase (default: Next)


@dataclass(frozen=True)
class PlaySection:
    phases: tuple[Phase, ...]


@dataclass(frozen=True)
class EndRule:
    condition: object  # Cond
    result: object  # ResultExpr


@dataclass(frozen=True)
class EndSection:
    rules: tuple[EndRule, ...]


Game = Annotated[GameDecl, t.GAME]


@ludeme("game")
def game(name: str, *sections: Section) -> Game:
    """A whole game: its name, then its sections — (players ...), (board ...), optionally
    (pieces ...) and (start ...), then (play ...) and (end ...).

    (game "Tic-Tac-Toe" (players {(player "X") (player "O")}) (board (square 3))
      (play (place (sites Empty))) (end (if (line 3) (win Mover))))"""
    return GameDecl(name, sections)


@ludeme("players")
def players(roles: list[PlayerT], *, pie: bool = False, first: str = "",
            hand: str = "in hand", captures: str = "") -> Section:
    """The roles, in turn order: the first listed moves first, unless first: names another
    role. With pie:true the second player's first move may be `swap`: the two people exchange
    roles, the board is unchanged, and the second role then moves (so the person who made the
    first move moves again). `hand` is the word position text uses for pieces in hand
    (`in hand Red: 2`, or `reserve Red: 2` with hand:"reserve"). With captures:"hand", a
    piece taken off the board goes to the hand of the player who took it, as its own piece of
    the kind it demotes to (see (piece ... demotes:)), to come back as a drop
    (`(drop-from-hand ...)`);
    hands then count pieces by kind (`in hand Black: P2 N1`).

    (players {(player "Red" symbol:"R" sides:{N S}) (player "Blue" symbol:"B" sides:{W E})})"""
    return PlayersSection(tuple(roles), pie, first, hand, captures)


@ludeme("player")
def player(name: str, *, symbol: str = "", forward: Direction | None = None,
           sides: list[Side] | None = None, supply: int = 0, on: str = "",
           kinds: list[PieceT] | None = None, piece: str = "", reuse: bool = True,
           pile: bool = False) -> PlayerT:
    """A role. `symbol` is its pieces' one-character symbol in position text (default: the
    name's first letter); `forward` the direction its pieces advance (for Forward, ...);
    `sides` the board sides it must connect (for (connected ...)); `supply` the number of
    its pieces (0: unlimited). With a supply, the pieces not on the board are in the role's
    hand: a placement takes one from it, a piece leaving the board (replaced, captured or
    removed) returns to it — unless reuse:false, when a piece taken off the board is out of
    the game (Nine Men's Morris) — and a move needing more pieces than the hand holds is not
    legal.
    `on` names a neutral piece its pieces always stand on (a terrain, such as a tile): the
    symbol then means "this piece on that terrain", and a piece leaving a site leaves the
    terrain behind. `kinds` are further kinds of piece the role owns, each with its own name
    and symbol (a king besides the men): `piece:` places one, `of:` moves only those, and
    `(promote ...)` turns a piece into one. The role's own piece is named after the role, or
    by `piece:` (e.g. "Man", so that of:"Man" means every role's men).
    With pile:true a site may hold a stack of any number of the role's own pieces (checkers
    on a backgammon point; a kind of `kinds:` may say pile:true too): position text writes a
    stack as the symbol and its count (`W5`; one piece is `W`), `(pieces-on Site)` reads it.

    (player "White" symbol:"w" forward:N kinds:{(piece "King" symbol:"W")})"""
    return PlayerDecl(name, symbol or name[:1], forward, tuple(sides or ()), supply, on,
                      tuple(kinds or ()), piece, reuse, pile)


@ludeme("pieces")
def pieces(kinds: list[PieceT]) -> Section:
    """Pieces that belong to no player (e.g. tiles or blockers), in addition to each player's
    own piece.

    (pieces {(piece "Tile" symbol:"o")})"""
    return PiecesSection(tuple(kinds))


@ludeme("piece")
def piece(name: str, *, symbol: str, pile: bool = False, demotes: str = "") -> PieceT:
    """A neutral piece kind and its one-character symbol. With pile:true a site may hold any
    number of them, all alike (seeds in a pit, up to 255 on a site): position text writes
    such a site as its count (`4`, `12`), `(pieces-on Site)` reads it, and sowing moves them.
    In a player's kinds:, with demotes:"Pawn" the piece goes to a hand as a pawn when captured
    (a promoted piece, in a game with captures:"hand").

    (piece "Seed" symbol:"o" pile:true)"""
    return PieceDecl(name, symbol, pile, demotes)


@ludeme("board")
def board(shape: Board) -> Section:
    """The board the game is played on.

    (board (square 8))"""
    return BoardSection(shape)


@dataclass(frozen=True)
class SpecialSection:
    name: str
    sites: object  # Region
    symbol: str


@dataclass(frozen=True)
class RegionSection:
    name: str
    sites: object  # Region
    owner: Callable[[Ctx], int] | None  # a RoleExpr


@dataclass(frozen=True)
class TrackSection:
    name: str
    sites: tuple[str, ...]
    owner: Callable[[Ctx], int] | None  # a RoleExpr
    loop: bool


@ludeme("region")
def region_section(name: str, sites: Region, *, owner: RoleExpr | None = None) -> Section:
    """A named region of the board, read with (sites Named "name"); with owner:, the region
    belongs to that role, and several (region ...) of one name give each role its own (a
    player's row of pits, a promotion zone). A game may have several (region ...) sections.

    (region "Pits" (sites Row 1) owner:"South")"""
    return RegionSection(name, sites, owner)


@ludeme("track")
def track_section(name: str, sites: list[str], *, owner: RoleExpr | None = None,
                  loop: bool = True) -> Section:
    """A named track: the sites pieces go along, in order (a loop, back from the last to the
    first, unless loop:false), for sowing and for (sites Behind ...). With owner:, the track
    is that role's, and several (track ...) of one name give each role its own way round. A
    board may define tracks too (a mancala board's "Loop").

    (track "Circuit" {"a1" "b1" "c1" "c2" "b2" "a2"} owner:"South")"""
    return TrackSection(name, tuple(sites), owner, loop)


@ludeme("special")
def special(name: str, sites: Region, *, symbol: str) -> Section:
    """Named special sites that never hold a piece, shown in position text by `symbol`. They
    count as empty when looking along a line, but no piece is ever placed or moved there;
    (sites Special "name") is the region. A game may have several (special ...) sections.

    (special "mine" (sites Centre) symbol:"*")"""
    return SpecialSection(name, sites, symbol)


@ludeme("start")
def start(*setups: SetupT) -> Section:
    """The starting position: pieces put on sites before the first move (the board is empty
    otherwise).

    (start (put "White" (sites {"d5" "e4"})) (put "Black" (sites {"d4" "e5"})))"""
    return StartSection(tuple(setups))


@ludeme("put")
def put(env: Env, role: RoleExpr, sites: Region, *, count: int = 1, piece: str = ""
        ) -> SetupT:
    """In the start position, one of role's pieces on each of the sites (Neutral: the first
    neutral piece declared in (pieces ...)); piece: names one of the role's kinds (a king);
    with count:N, a pile of N on each (a piece declared pile:true).

    (put Neutral (sites Row 1 2) count:4)"""
    who = env.fixed_role(role)
    fixed = parts_of(sites).static
    if fixed is None:
        env.error("the start position needs sites that do not depend on the position")
        fixed = frozenset()
    if who == NEUTRAL:
        neutral = [p.value for p in env.pieces if p.owner == NEUTRAL]
        if not neutral:
            env.error("(put Neutral ...) needs a neutral piece declared in (pieces ...)")
            return Setup(0, frozenset())
        value = neutral[0]
    else:
        value = env.piece_of(who)
    if piece:
        from stdlib.moves import kind_value

        kind = kind_value(env, who, piece) if who != NEUTRAL else None
        if kind is None:
            env.error(f'the role has no piece named "{piece}"')
            return Setup(0, frozenset())
        value = kind
    if count != 1:
        piled = env.pile_value(value, count)
        if piled is None:
            name = env.pieces[value - 1].name if value else "this piece"
            env.error(f'"{name}" is not a pile: declare it (piece ... pile:true) to put '
                      "several on a site" if value not in env.piles else
                      f"count: goes from 0 to {MAX_PILE}")
            return Setup(0, frozenset())
        value = piled
    return Setup(value, fixed)


@ludeme("put-each")
def put_each(env: Env, sites: Region) -> SetupT:
    """In the start position, one of each role's pieces on each of the sites, the region read
    for that role as Mover (so a region relative to the player, such as the side behind it,
    gives each its own sites): every player starts from its own home, however many play.

    (start (put-each (sites Side Backward)))"""
    cells: list[tuple[int, int]] = []
    for r in range(len(env.roles)):
        value = env.piece_of(r)
        cells.extend((s, value) for s in sites(Ctx([0] * env.topology.size, r, None, env,
                                                    env.owner)))
    return Setup(0, frozenset(), tuple(cells))


@ludeme("put-row")
def put_row(env: Env, sites: Region, text: str, *, role: RoleExpr | None = None) -> SetupT:
    """In the start position, the pieces written in the text, one symbol per site of the
    region in reading order (`.` for none), as a row of a position text: a chess back rank
    from an option. With role:, the letters name that role's kinds whatever their case
    (Black's "RNBQKBNR" is its rook, knight, ...).

    (put-row (sites Row 8) #back role:"Black")"""
    fixed = parts_of(sites).static
    if fixed is None:
        env.error("the start position needs sites that do not depend on the position")
        return Setup(0, frozenset())
    order = sorted(fixed)
    letters = [ch for ch in text if not ch.isspace()]
    if len(letters) != len(order):
        env.error(f"{len(letters)} symbols for {len(order)} sites: write one per site")
        return Setup(0, frozenset())
    who = None
    if role is not None:
        who = env.fixed_role(role)
    cells = []
    for site, letter in zip(order, letters, strict=True):
        if letter == ".":
            continue
        found = [p.value for p in env.pieces if p.count == 1 and (
            p.symbol == letter if who is None else
            p.owner == who and p.symbol.lower() == letter.lower())]
        if not found:
            env.error(f"no piece has the symbol {letter!r}"
                      + (f" among {env.roles[who]}'s" if who is not None else ""))
            return Setup(0, frozenset())
        cells.append((site, found[0]))
    return Setup(0, frozenset(), tuple(cells))


@ludeme("play")
def play(*steps: TurnStep) -> Section:
    """A turn. Each step is either a decision (moves: the mover chooses one) or an automatic
    effect; the steps happen in order, then the next player's turn begins. Most games have
    one decision.

    (play (place (sites Empty)))"""
    return PlaySection((Phase("play", tuple(steps)),))


PhaseT = Annotated[Phase, t.PHASE]


@ludeme("phases")
def phases(*stages: PhaseT) -> Section:
    """Instead of (play ...): the game's stages, in order, each with its own turn. A stage
    ends after the turn in which its until: condition holds; the last stage lasts until the
    game ends. Position text names the stage with `phase:` (default: the last).

    (phases (phase "setup" (place (sites Empty)) until:(= (in-hand Next) 0) next:Mover)
            (phase "play" (place (sites Empty) piece:"Tile")))"""
    return PlaySection(tuple(stages))


@ludeme("phase")
def phase(name: str, *steps: TurnStep, until: Cond | None = None,
          next: RoleExpr | None = None) -> PhaseT:
    """One stage of (phases ...): its name and the steps of a turn, like (play ...). until:
    ends the stage after a turn in which it holds (Mover: the player who just moved); next:
    says who moves first in the following stage — Next (the default) or Mover (the player
    who moved last moves again).

    (phase "setup" (place (sites Empty)) until:(= (in-hand Next) 0) next:Mover)"""
    return Phase(name, tuple(steps), until, next)


@ludeme("end")
def end(*rules: EndRuleT) -> Section:
    """End conditions, tested in order after every turn; the first that holds ends the game.
    In them, Next is the player to move and Mover the player before it in turn order (the
    player who just moved, unless a phase handed the turn back).

    (end (if (line 3) (win Mover)) (if (full) (draw)))"""
    return EndSection(tuple(rules))


@ludeme("if")
def if_(condition: Cond, result: ResultExpr) -> EndRuleT:
    """An end condition: when `condition` holds, the game ends with `result`.

    (if (connected Mover) (win Mover))"""
    return EndRule(condition, result)


DRAW = -1


@ludeme("win")
def win(role: RoleExpr) -> ResultExpr:
    """Result: `role` wins.

    (win Mover)"""
    return role


@ludeme("lose")
def lose(role: RoleExpr) -> ResultExpr:
    """Result: `role` loses (in a two-player game, the other role wins).

    (lose Next)"""
    def result(ctx: Ctx) -> int:
        return (role(ctx) + 1) % len(ctx.env.roles)
    return result


@ludeme("draw")
def draw() -> ResultExpr:
    """Result: a draw.

    (draw)"""
    return lambda ctx: DRAW


@ludeme("most-area")
def most_area(env: Env, *, extra: list[float] | None = None,
              by: Direction = "Adjacent") -> ResultExpr:
    """Result by area scoring: a role's area is its pieces plus the empty sites enclosed by
    them alone (each connected stretch of empty sites, by the `by:` relation, whose bordering
    pieces all belong to that role), plus its `extra:` points (komi: `extra:{0 7.5}` gives the
    second role 7.5). The largest area wins; a tie is a draw.

    (if (all-passed) (most-area extra:{0 7.5}))"""
    n = len(env.roles)
    bonus = list(extra or [])
    if len(bonus) > n:
        env.error(f"extra: lists {len(bonus)} numbers for {n} roles")
    bonus += [0.0] * (n - len(bonus))
    adjacency = env.topology.neighbours(env.absolute_dirs(by))
    no_piece = env.no_piece

    def result(ctx: Ctx) -> int:
        board, owner = ctx.board, ctx.owner
        score = list(bonus)
        seen: set[int] = set()
        for s, v in enumerate(board):
            o = owner[v]
            if o >= 0:
                score[o] += 1
            elif v == 0 and s not in seen and s not in no_piece:
                region = [s]
                seen.add(s)
                bordering: set[int] = set()
                i = 0
                while i < len(region):
                    for t in adjacency[region[i]]:
                        u = board[t]
                        if u == 0 and t not in seen and t not in no_piece:
                            seen.add(t)
                            region.append(t)
                        elif owner[u] >= 0:
                            bordering.add(owner[u])
                    i += 1
                if len(bordering) == 1:
                    score[bordering.pop()] += len(region)
        best = max(score)
        winners = [r for r, c in enumerate(score) if c == best]
        return winners[0] if len(winners) == 1 else DRAW
    return result


@ludeme("most-pieces")
def most_pieces() -> ResultExpr:
    """Result: the role with the most pieces on the board wins; a tie for most is a draw.

    (if (stuck All) (most-pieces))"""
    def result(ctx: Ctx) -> int:
        env = ctx.env
        owner = ctx.owner
        counts = [0] * len(env.roles)
        for v in ctx.board:
            o = owner[v]
            if o >= 0:
                counts[o] += 1
        best = max(counts)
        winners = [r for r, c in enumerate(counts) if c == best]
        return winners[0] if len(winners) == 1 else DRAW
    return result


# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("win")
def lower_win(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    return f"({k.lower(args[0], 'Role')})"


@lowers("lose")
def lower_lose(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    return f"(({k.lower(args[0], 'Role')} + 1) % R)"


@lowers("draw")
def lower_draw(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    return "DRAW"



@lowers("most-pieces")
def lower_most_pieces(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(most-pieces): the role with the most pieces on the board; DRAW on a tie for most."""
    return k.function("most_pieces", f"""
def {{name}}(st, T, mover, to, frm):
    counts = np.zeros(R, np.int64)
    for s in range(N):
        o = OWNER[st[s]]
        if o >= 0:
            counts[o] += 1
    return {best_of(k)}(counts)
""") + "(st, T, mover, to, frm)"


def best_of(k: Lower) -> str:
    """A function (counts) -> the role with the most, or DRAW on a tie for most."""
    return k.function("best", """
def {name}(counts):
    best = counts[0]
    who = 0
    tie = False
    for r in range(1, R):
        if counts[r] > best:
            best = counts[r]
            who = r
            tie = False
        elif counts[r] == best:
            tie = True
    return DRAW if tie else who
""")


@lowers("most-area")
def lower_most_area(k: Lower, node: Form, args: tuple[Node, ...]) -> str:
    """(most-area [extra:] [by:]): area scoring as `most_area` judges it — each role's pieces,
    plus each stretch of empty sites (flooded over a neighbour table) that borders pieces of
    that role alone, plus its extra points; the largest wins, a tie draws."""
    given = keywords(node, {"extra", "by"}, k)
    env = k.env
    n = len(env.roles)
    bonus = [0.0] * n
    extra = given.get("extra")
    if extra is not None:
        if not isinstance(extra, ListNode) or len(extra.items) > n \
                or not all(isinstance(i, Int | Float) for i in extra.items):
            k.refuse(node, "no kernel lowering of (most-area) with computed extra: points")
        for r, item in enumerate(extra.items):
            bonus[r] = float(item.value)  # type: ignore[attr-defined]
    by = given.get("by")
    name = "Adjacent" if by is None else by.value if isinstance(by, Str) \
        else by.name if isinstance(by, Const) else None
    if name is None:
        k.refuse(node, "no kernel lowering of (most-area) with this by:")
    adjacency = env.topology.neighbours(env.absolute_dirs(name))
    nbr = k.table("neighbours", padded(adjacency))
    holds = k.table("may hold a piece",
                    [0 if s in env.no_piece else 1 for s in range(env.topology.size)])
    return k.function("most_area", f"""
def {{name}}(st, T, mover, to, frm):
    nb = {nbr}
    holds = {holds}
    score = np.array({bonus!r}, np.float64)
    seen = np.zeros(N, np.bool_)
    stack = np.empty(N, np.int32)
    for s in range(N):
        v = st[s]
        o = OWNER[v]
        if o >= 0:
            score[o] += 1
        elif v == 0 and not seen[s] and holds[s] == 1:
            seen[s] = True
            stack[0] = s
            size = 1
            i = 0
            border = -1  # the one role bordering the stretch so far (-1: none, -2: several)
            while i < size:
                c = stack[i]
                for j in range(nb.shape[1]):
                    t = nb[c, j]
                    if t < 0:
                        break
                    u = st[t]
                    if u == 0 and not seen[t] and holds[t] == 1:
                        seen[t] = True
                        stack[size] = t
                        size += 1
                    elif OWNER[u] >= 0:
                        if border == -1:
                            border = OWNER[u]
                        elif border != OWNER[u]:
                            border = -2
                i += 1
            if border >= 0:
                score[border] += size
    return {best_of(k)}(score)
""") + "(st, T, mover, to, frm)"
