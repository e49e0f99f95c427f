"""Position text: the board drawn row by row, then `key: value` lines (see the contract)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl.errors import MAX_QUOTED, bounded_reason, snippet
from interpreter.errors import PositionError
from stdlib.history import read_cells, write_cells
from stdlib.runtime import EMPTY

if TYPE_CHECKING:
    from interpreter.game import Game, State

YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0")


def symbol_table(game: Game) -> list[str]:
    return [".", *(p.symbol for p in game.env.pieces)]


def site_columns(game: Game) -> list[int]:
    """The text column of each site: two characters per unit of x, so that square rows are
    single-spaced, hex rows show their half-cell offsets, and the gaps between the points of a
    board of points show as spaces (every row keeps its place on the grid)."""
    xs = [x for x, _ in game.env.topology.xy]
    low = min(xs)
    return [round(2 * (x - low)) for x in xs]


def render_board(game: Game, board: list[int]) -> list[str]:
    """The board's rows, top first: each site's symbol in its column (see site_columns), at
    least one space after the one before it."""
    symbols = symbol_table(game)
    special = game.env.special_symbol
    topo = game.env.topology
    columns = site_columns(game)

    def cell(s: int) -> str:
        v = board[s]
        return special[s] if v == EMPTY and s in special else symbols[v]

    lines = []
    for row in topo.rows:
        line = ""
        for s in row:
            line += " " * max(columns[s] - len(line), 1 if line else 0) + cell(s)
        lines.append(line)
    return lines


def render_position(game: Game, state: State) -> str:
    lines = render_board(game, state.board)
    lines.append(f"mover: {game.players[state.to_move]}")
    if state.phase != len(game.phases) - 1:
        lines.append(f"phase: {game.phases[state.phase].name}")
    if state.step:
        lines.append(f"decision: {decision_number(game, state)}")
    if state.passes:
        lines.append(f"passes: {state.passes}")
    if state.before and game.env.shared.get("recent history"):
        lines.append("before: " + write_cells(state.before, game.sites, symbol_table(game)))
    fields = game.env.fields  # what the ludemes declared, each writing itself
    for field in fields:
        if not field.late:
            lines.extend(field.render(state))
    if game.pie and state.pie_open != default_pie(game, state.board, state.to_move,
                                                  state.swapped):
        lines.append(f"pie: {'yes' if state.pie_open else 'no'}")
    if state.swapped:
        lines.append("swapped: yes")
    if state.hands and state.hands != game.default_hands(state.board):
        for role, n in zip(game.players, state.hands, strict=True):
            if n >= 0:
                lines.append(f"{game.hand_word} {role}: {n}")
    for mem, value in zip(game.env.memories, state.memory, strict=True):
        text = mem.render(value) if value is not None else None
        if text is not None:
            lines.append(f"{mem.key}: {text}")
    for field in fields:
        if field.late:
            lines.extend(field.render(state))
    return "\n".join(lines) + "\n"


def decision_number(game: Game, state: State) -> int:
    """Which decision of the turn the mover is at, counting from 1 (automatic steps aside)."""
    return sum(1 for is_decision, _ in game.turns[state.phase][:state.step + 1] if is_decision)


def default_pie(game: Game, board: list[int], to_move: int, swapped: bool) -> bool:
    """Without a `pie:` key: the swap is open when the game has the pie rule, no swap has been
    made, the second role is to move, it has added no piece to the start position, and the
    first role has."""
    if not game.pie or swapped or to_move != 1 or len(game.players) < 2:
        return False
    def added(role: int) -> int:
        return sum(board.count(v) - game.start.count(v)
                   for v, who in enumerate(game.owner) if who == role)

    return added(1) == 0 and added(0) > 0


def parse_position(game: Game, text: str) -> State:
    from interpreter.game import State

    topo = game.env.topology
    rows: list[tuple[int, list[str]]] = []
    keys: dict[str, tuple[int, str]] = {}
    spelled: dict[str, str] = {}  # each key as the text wrote it, for messages
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key, written = key.strip().lower(), key.strip()
            if key in keys:
                raise PositionError(f"line {number}: key {snippet(written)} given twice")
            keys[key] = (number, value.strip())
            spelled[key] = written
        else:
            if keys:
                raise PositionError(f"line {number}: board rows must come before the key lines")
            rows.append((number, line.split()))
    if len(rows) != len(topo.rows):
        raise PositionError(f"the board has {len(topo.rows)} rows, the text has {len(rows)}")
    board = [EMPTY] * topo.size
    for (number, cells), sites in zip(rows, topo.rows, strict=True):
        if len(cells) != len(sites):
            raise PositionError(f"line {number}: this row has {len(sites)} cells, the text has "
                                f"{len(cells)}")
        for cell, site in zip(cells, sites, strict=True):
            special = game.env.special_symbol.get(site)
            if special is not None:
                if cell != special:
                    raise PositionError(f"line {number}: {topo.names[site]} is a special site, "
                                        f"written {special!r}, not {snippet(cell)}")
                continue
            if len(cell) > MAX_QUOTED:
                raise PositionError(f"line {number}: {snippet(cell)} at {topo.names[site]}: "
                                    "no symbol of this game is that long")
            try:
                board[site] = game.env.read_cell(cell, topo.names[site])
            except ValueError as exc:
                raise PositionError(f"line {number}: {bounded_reason(exc)}") from None
    to_move = game.first
    if "mover" in keys:
        number, value = keys.pop("mover")
        if value not in game.players:
            raise PositionError(f"line {number}: mover must be one of {', '.join(game.players)}"
                                f", not {snippet(value)}")
        to_move = game.players.index(value)
    phase = len(game.phases) - 1
    if "phase" in keys:
        number, value = keys.pop("phase")
        names = [p.name for p in game.phases]
        if value not in names:
            raise PositionError(f"line {number}: phase must be one of {', '.join(names)}, not "
                                f"{snippet(value)}")
        phase = names.index(value)
    decisions = [i for i, (is_decision, _) in enumerate(game.turns[phase]) if is_decision]
    step = decisions[_int_key(keys, "decision", 1, 1, len(decisions)) - 1]
    passes = _int_key(keys, "passes", 0, 0, len(game.players))
    swapped = _bool_key(keys, "swapped", False)
    pie_open = _bool_key(keys, "pie", default_pie(game, board, to_move, swapped))
    if pie_open and not game.pie:
        raise PositionError("pie: this game has no pie rule")
    hands = list(game.default_hands(board))
    for r, supply in enumerate(game.env.supply):
        if supply and hands[r] < 0:
            raise PositionError(f"{game.players[r]} has {supply - hands[r]} pieces on the board,"
                                f" more than its supply of {supply}")
    claimed = {k.lower() for field in game.env.fields for k in field.keys(game.players)}
    for r, role in enumerate(game.players):
        key = f"{game.hand_word} {role}".lower()
        if key in keys and key not in claimed:  # (hands by kind read themselves)
            if not hands or hands[r] < 0:
                raise PositionError(f"line {keys[key][0]}: {role}'s pieces are not counted in "
                                    "this game")
            hands[r] = _int_key(keys, key, 0, 0, 10**6)
    before: tuple[tuple[int, int], ...] = ()
    if "before" in keys and game.env.uses_history:
        number, value = keys.pop("before")
        try:
            before = read_cells(value, game.env.topology.index, symbol_table(game))
        except ValueError as exc:
            raise PositionError(f"line {number}: before: {bounded_reason(exc)}") from None
    memory = []
    for mem in game.env.memories:
        if mem.key in keys:
            number, value = keys.pop(mem.key)
            try:
                memory.append(mem.parse(value))
            except ValueError as exc:
                raise PositionError(f"line {number}: {mem.key}: {bounded_reason(exc)}") \
                    from None
        else:
            memory.append(None)
    memory = [value if value is None or mem.settle is None else mem.settle(board, to_move, value)
              for mem, value in zip(game.env.memories, memory, strict=True)]
    state = State(game, board, to_move, step=step, passes=passes, pie_open=pie_open,
                  swapped=swapped, last=None, turn_all_pass=True, hands=tuple(hands),
                  memory=tuple(memory), phase=phase,
                  scores=(0,) * len(game.players) if game.env.uses_scores else ())
    reader = _Keys(keys)
    for field in game.env.fields:  # what the ludemes declared reads itself
        field.parse(state, reader)
    if keys:
        key, (number, _) = next(iter(keys.items()))
        if key.startswith("score ") and not game.env.uses_scores:
            raise PositionError(f"line {number}: this game keeps no scores")
        keywords = ["mover", "phase", "decision", "passes", "pie", "swapped"]
        keywords += ["before"] if game.env.uses_history else []
        keywords += [k for field in game.env.fields for k in field.keys(game.players)]
        keywords += [f"{game.hand_word} {role}" for role in game.players] if hands else []
        keywords += [mem.key for mem in game.env.memories]
        raise PositionError(f"line {number}: unknown key {snippet(spelled[key])} "
                            f"(keys: {', '.join(keywords)})")
    if not step:  # in the middle of a turn, the end conditions are judged when it ends
        game.settle(state, game.previous(to_move))
    game.begin_history(state, before)
    return state


class _Keys:
    """The key lines left to read, as declared fields read them (statefields.Keys)."""

    def __init__(self, keys: dict[str, tuple[int, str]]) -> None:
        self.keys = keys

    def take(self, key: str) -> tuple[int, str] | None:
        return self.keys.pop(key.lower(), None)

    def number(self, key: str, default: int, low: int, high: int) -> int:
        return _int_key(self.keys, key.lower(), default, low, high)

    def error(self, line: int, message: str) -> Exception:
        return PositionError(f"line {line}: {message}")


def _int_key(keys: dict[str, tuple[int, str]], name: str, default: int, low: int,
             high: int) -> int:
    if name not in keys:
        return default
    number, value = keys.pop(name)
    try:
        n = int(value)
    except ValueError:
        raise PositionError(f"line {number}: {name} must be a number, not {snippet(value)}") \
            from None
    if not low <= n <= high:
        raise PositionError(f"line {number}: {name} must be between {low} and {high}")
    return n


def _bool_key(keys: dict[str, tuple[int, str]], name: str, default: bool) -> bool:
    if name not in keys:
        return default
    number, value = keys.pop(name)
    if value.lower() in YES:
        return True
    if value.lower() in NO:
        return False
    raise PositionError(f"line {number}: {name} must be yes or no, not {snippet(value)}")
