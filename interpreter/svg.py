"""Pictures of positions: an SVG drawing of any state on a square, hex or points board.

Cells are squares or hexagons centred on the topology's `xy` coordinates (hex neighbours are
one unit apart); on a board of points (Morris, Alquerque) the lines joining the points are
drawn and each point is a small circle, one grid unit being a cell; pieces are circles in
their role's colour (a neutral colour for pieces no role owns; terrain under a piece tints its
cell); special sites such as Mineway's mine get a marker; coordinates are written around the
board (and in the empty cells of hex boards, whose letters count from each row's left end);
the sites changed by the last turn are outlined when known.

Every element has a class, so a picture can be restyled or checked: `cell`, `terrain`,
`piece`, `symbol`, `special`, `last`, `coord`, `status`; on a board of points also `board`
(the background), `edge` (a line joining two points, with `data-from` and `data-to`) and
`point` (each point, a circle of class `cell point`). Pieces carry `data-site` and `data-piece`.
An edge that holds something (a link, a wall: stdlib/edges.py) is a `link` line between its
sites' centres, with `data-from` and `data-to`, in its holder's colour; a wall of a set drawn
across (stdlib/walls.py) is that line turned a quarter about its middle: the cells' border.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from interpreter.display import status
from interpreter.game import State
from stdlib.edges import edges_of
from stdlib.runtime import EMPTY

# Colours for roles named after one (or after a material), else a palette by role order.
NAMED_COLOURS = {
    "red": "#d62728", "blue": "#1f5fb4", "black": "#222222", "white": "#fafafa",
    "yellow": "#f2c80f", "green": "#2ca02c", "orange": "#ff7f0e", "purple": "#8e44ad",
    "brown": "#8c564b", "pink": "#e377c2", "grey": "#7f7f7f", "gray": "#7f7f7f",
    "silver": "#c0c4cc", "gold": "#d4a017", "concrete": "#c9c9c0", "asphalt": "#3b3b3b",
}
PALETTE = ("#d62728", "#1f5fb4", "#2ca02c", "#ff7f0e", "#8e44ad", "#8c564b")
NEUTRAL = "#c8a878"  # pieces no role owns (e.g. Mattock's tiles)
BOARD = "#f3ecd8"
LINE = "#8a7f6a"
LAST = "#ff7f0e"
SPECIAL = "#555555"


def role_colour(name: str, index: int) -> str:
    """The colour of a role: its name's colour if it is one, else the palette's."""
    return NAMED_COLOURS.get(name.lower(), PALETTE[index % len(PALETTE)])


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 128


def _num(v: float) -> str:
    """A coordinate, short: at most two decimals."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def render_svg(state: State, *, last: Iterable[int] | None = None, cell: float = 40.0,
               coordinates: bool = True, caption: bool = True) -> str:
    """The position as an SVG document. `last` is the sites to outline (default: those the
    last turn changed, when the state knows them); `cell` the size of a cell in pixels."""
    game = state.game
    env = game.env
    topo = env.topology
    hexes = topo.shape == "hex"
    points = topo.shape == "graph"  # a board of points joined by lines
    radius = cell / math.sqrt(3) if hexes else cell / 2  # centre to corner (hex: to tip)
    half_w = cell / 2
    half_h = radius if hexes else cell / 2
    centres = [(x * cell, -y * cell) for x, y in topo.xy]
    margin = cell * (0.9 if coordinates else 0.3)
    xs = [c[0] for c in centres]
    ys = [c[1] for c in centres]
    left = min(xs) - half_w - margin
    top = min(ys) - half_h - cell * 0.3
    width = max(xs) + half_w + margin - left
    text = f"{game.name}: {status(game, state)}"
    if caption:  # room for the caption (about 0.6 em per character)
        wanted = len(text) * cell * 0.32 * 0.6 + cell * 0.4
        if wanted > width:
            left -= (wanted - width) / 2
            width = wanted
    bottom = max(ys) + half_h + (margin if coordinates and not hexes else cell * 0.3)
    height = bottom - top + (cell * 0.8 if caption else 0)

    def shape(s: int, scale: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = centres[s]
        if points:  # a circle's worth of polygon around a point (for tiles and outlines)
            r = cell * 0.45 * scale
            return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                    for a in range(0, 360, 15)]
        if hexes:
            r = radius * scale
            return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                    for a in (-90, -30, 30, 90, 150, 210)]
        h = cell / 2 * scale
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
           f'height="{_num(height)}" viewBox="{_num(left)} {_num(top)} {_num(width)} '
           f'{_num(height)}" font-family="sans-serif">',
           f"<title>{escape(game.name)}</title>",
           f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(width)}" '
           f'height="{_num(height)}" fill="white"/>']

    colours = [NEUTRAL if p.owner < 0 or p.owner >= len(game.players)
               else role_colour(game.players[p.owner], p.owner) for p in env.pieces]
    special_name = {s: name for name, sites in env.specials.items() for s in sites}
    board = state.board

    if points:  # the board, the lines joining the points, and the points
        pad = cell / 2
        out.append(f'<rect class="board" x="{_num(min(xs) - pad)}" y="{_num(min(ys) - pad)}" '
                   f'width="{_num(max(xs) - min(xs) + 2 * pad)}" '
                   f'height="{_num(max(ys) - min(ys) + 2 * pad)}" fill="{BOARD}"/>')
        for d in topo.directions:
            for s, t in enumerate(topo.step[d]):
                if t > s:  # each line once, from the site read first
                    (x1, y1), (x2, y2) = centres[s], centres[t]
                    out.append(f'<line class="edge" data-from="{topo.names[s]}" '
                               f'data-to="{topo.names[t]}" x1="{_num(x1)}" y1="{_num(y1)}" '
                               f'x2="{_num(x2)}" y2="{_num(y2)}" stroke="{LINE}" '
                               f'stroke-width="{_num(cell * 0.06)}"/>')

    # Cells, tinted by terrain under a piece.
    for s in range(topo.size):
        v = board[s]
        terrain = env.pieces[v - 1].on if v != EMPTY else EMPTY
        if points:
            x, y = centres[s]
            out.append(f'<circle class="cell point" data-site="{topo.names[s]}" '
                       f'cx="{_num(x)}" cy="{_num(y)}" r="{_num(cell * 0.12)}" fill="{LINE}"/>')
        else:
            out.append(f'<polygon class="cell" data-site="{topo.names[s]}" '
                       f'points="{_points(shape(s))}" fill="{BOARD}" stroke="{LINE}" '
                       'stroke-width="1"/>')
        if terrain != EMPTY:
            out.append(f'<polygon class="terrain" points="{_points(shape(s, 0.92))}" '
                       f'fill="{colours[terrain - 1]}"><title>'
                       f"{escape(env.pieces[terrain - 1].name)}</title></polygon>")

    # Coordinates.
    if coordinates:
        font = _num(cell * 0.3)
        for row in topo.rows:
            x, y = centres[row[0]]
            x = min(xs) if points else x  # a row of points may start right of the board's edge
            number = topo.names[row[0]].lstrip("abcdefghijklmnopqrstuvwxyz")
            out.append(f'<text class="coord" x="{_num(x - half_w - cell * 0.15)}" '
                       f'y="{_num(y + cell * 0.1)}" font-size="{font}" fill="{LINE}" '
                       f'text-anchor="end">{number}</text>')
        if hexes:
            small = _num(cell * 0.22)
            for s in range(topo.size):
                if board[s] == EMPTY and s not in special_name:
                    x, y = centres[s]
                    out.append(f'<text class="coord" x="{_num(x)}" y="{_num(y + cell * 0.08)}" '
                               f'font-size="{small}" fill="#b5aa92" text-anchor="middle">'
                               f"{topo.names[s]}</text>")
        else:
            # Below each column: a square board's bottom row; a board of points, every
            # column that has a point, under the lowest row.
            columns = {centres[s][0]: s for s in range(topo.size)} if points else \
                {centres[s][0]: s for s in topo.rows[-1]}
            for x, s in sorted(columns.items()):
                y = max(ys)
                letter = topo.names[s].rstrip("0123456789")
                out.append(f'<text class="coord" x="{_num(x)}" '
                           f'y="{_num(y + half_h + cell * 0.4)}" font-size="{font}" '
                           f'fill="{LINE}" text-anchor="middle">{letter}</text>')

    # Special sites.
    for s, name in sorted(special_name.items()):
        x, y = centres[s]
        r = cell * 0.3
        star = [(x + (r if i % 2 == 0 else r * 0.45) * math.cos(math.radians(-90 + 36 * i)),
                 y + (r if i % 2 == 0 else r * 0.45) * math.sin(math.radians(-90 + 36 * i)))
                for i in range(10)]
        out.append(f'<polygon class="special" data-site="{topo.names[s]}" '
                   f'points="{_points(star)}" fill="{SPECIAL}"><title>'
                   f"{escape(name)} ({topo.names[s]})</title></polygon>")

    # Edges that hold something (links, walls: stdlib/edges.py), in their holder's colour.
    held_edges = edges_of(env)
    if held_edges is not None:
        for a, b, value, across in held_edges(state):
            (x1, y1), (x2, y2) = centres[a], centres[b]
            if across:  # a wall: the segment between the two cells, across the gap
                mx, my, hx, hy = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2, (y2 - y1) / 2
                x1, y1, x2, y2 = mx + hy, my - hx, mx - hy, my + hx
            colour = role_colour(game.players[value - 1], value - 1) \
                if 0 < value <= len(game.players) else NEUTRAL
            out.append(f'<line class="link" data-from="{topo.names[a]}" '
                       f'data-to="{topo.names[b]}" x1="{_num(x1)}" y1="{_num(y1)}" '
                       f'x2="{_num(x2)}" y2="{_num(y2)}" stroke="{colour}" '
                       f'stroke-width="{_num(cell * 0.12)}" stroke-linecap="round"/>')

    # Pieces: circles; a piece others stand on (a tile) fills its cell.
    terrains = {p.on for p in env.pieces if p.on != EMPTY}
    counted = {v for v in range(1, len(env.pieces) + 1) if env.most_of(v) > 1}
    lettered = {r for r, name in enumerate(game.players) if name.lower() not in NAMED_COLOURS}
    # A role's further kinds of piece (a king, say) show their letter, so that kinds are
    # told apart; the role's own piece stays plain.
    extra_kinds = {p.value for p in env.pieces if p.owner >= 0 and p.value != env.piece_of(
        p.owner)}
    for s in range(topo.size):
        v = board[s]
        if v == EMPTY:
            continue
        piece = env.pieces[v - 1]
        x, y = centres[s]
        fill = colours[v - 1]
        edge = "#000000" if not _dark(fill) else "#555555"
        site = topo.names[s]
        common = (f'class="piece" data-site="{site}" data-piece={quoteattr(piece.name)} '
                  f'fill="{fill}" stroke="{edge}"')
        hint = f"<title>{escape(piece.name)} on {site}</title>"
        if v in terrains:
            out.append(f'<polygon {common} stroke-width="1" points="{_points(shape(s, 0.92))}">'
                       f"{hint}</polygon>")
            continue
        out.append(f'<circle {common} stroke-width="1.5" cx="{_num(x)}" cy="{_num(y)}" '
                   f'r="{_num(cell * 0.36)}">{hint}</circle>')
        if piece.value in counted or piece.count > 1:  # a count shows how many it holds
            out.append(f'<text class="count" x="{_num(x)}" y="{_num(y + cell * 0.14)}" '
                       f'font-size="{_num(cell * 0.4)}" font-weight="bold" fill="#000000" '
                       f'text-anchor="middle">{piece.count}</text>')
        elif piece.owner in lettered or v in extra_kinds:  # X and O; K and Q
            ink = "#ffffff" if _dark(fill) else "#000000"
            letter = piece.symbol.upper() if v in extra_kinds else piece.symbol
            out.append(f'<text class="symbol" x="{_num(x)}" y="{_num(y + cell * 0.14)}" '
                       f'font-size="{_num(cell * 0.4)}" font-weight="bold" fill="{ink}" '
                       f'text-anchor="middle">{escape(letter)}</text>')

    # The last turn.
    marked = state.last if last is None else tuple(last)
    for s in sorted(set(marked or ())):
        if points:
            x, y = centres[s]
            out.append(f'<circle class="last" data-site="{topo.names[s]}" cx="{_num(x)}" '
                       f'cy="{_num(y)}" r="{_num(cell * 0.43)}" fill="none" '
                       f'stroke="{LAST}" stroke-width="{_num(cell * 0.08)}"/>')
            continue
        out.append(f'<polygon class="last" data-site="{topo.names[s]}" '
                   f'points="{_points(shape(s, 0.86))}" fill="none" '
                   f'stroke="{LAST}" stroke-width="{_num(cell * 0.08)}"/>')

    if caption:
        out.append(f'<text class="status" x="{_num(left + width / 2)}" '
                   f'y="{_num(top + height - cell * 0.3)}" font-size="{_num(cell * 0.32)}" '
                   f'fill="#333333" text-anchor="middle">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
