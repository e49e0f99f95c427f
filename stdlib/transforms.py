"""Region transforms: turning or mirroring the contents of a region of the board as a move
(Pentago: place a marble, then turn one quadrant a quarter either way).

A transform moves every piece of the region to the site the turn or mirror takes its site to,
about the region's centre, using the sites' rows and columns; a region it does not map onto
itself (not a square, for a quarter turn) is refused where it is written. A transform move is
written as the region's name, `:` and the transform: `NE:cw`, `NE:ccw`, `NE:half`,
`NE:mirror` (left to right), `NE:flip` (top to bottom).
"""

from __future__ import annotations

from collections.abc import Sequence

from dsl.ast import Form, ListNode, Node, Str
from stdlib.lowering import Generator, Lower, keywords, lowers
from stdlib.movekinds import Key, MoveKind, SiteOf, Syntax, register, single_block
from stdlib.parts import mark
from stdlib.registry import ludeme
from stdlib.runtime import Ctx, Env, Move
from stdlib.types import Moves

TRANSFORM_PREFIX = "transform="

# Each transform as a map of (column, row) offsets from the centre (rows grow upwards).
TRANSFORMS = {
    "cw": lambda x, y: (y, -x),  # a quarter turn clockwise
    "ccw": lambda x, y: (-y, x),  # a quarter turn anticlockwise
    "half": lambda x, y: (-x, -y),
    "mirror": lambda x, y: (-x, y),  # left to right
    "flip": lambda x, y: (x, -y),  # top to bottom
}


def _write_transform(kind: str, sites: Sequence[int], names: Sequence[str]) -> str:
    return kind[len(TRANSFORM_PREFIX):]


def _read_transform(text: str, site_of: SiteOf) -> Key | None:
    region, colon, how = text.strip().rpartition(":")
    if not colon or not region or how.lower() not in TRANSFORMS or " " in region:
        return None
    return f"{TRANSFORM_PREFIX}{region}:{how.lower()}", ()


TRANSFORM = register(MoveKind(TRANSFORM_PREFIX, Syntax("transform", 16, _write_transform,
                                                       _read_transform),
                              "transform", 1002, single_block,
                              hint="a region, ':' and a transform (NE:cw)", click="transform"))


def transform_map(env: Env, sites: Sequence[int], how: str) -> dict[int, int] | None:
    """Where `how` takes each of the sites (about their centre), or None when it does not
    map them onto themselves."""
    topo = env.topology
    cols = [topo.col_of[s] for s in sites]
    rows = [-topo.row_of[s] for s in sites]  # (the topology counts rows from the top)
    # Doubled offsets from the centre, so that an even side's centre is a whole number.
    cx, cy = min(cols) + max(cols), min(rows) + max(rows)
    at = {(2 * c - cx, 2 * r - cy): s for s, c, r in zip(sites, cols, rows, strict=True)}
    out = {}
    turn = TRANSFORMS[how]
    for (x, y), s in at.items():
        target = at.get(turn(x, y))
        if target is None:
            return None
        out[s] = target
    return out


@ludeme("transform-region")
def transform_region(env: Env, regions: list[str], *, by: list[str] | None = None) -> Moves:
    """The mover turns or mirrors one of the named regions: every piece in it goes where the
    transform takes its site, about the region's centre. One move per region and transform
    of `by:` ("cw" and "ccw" by default: a quarter turn either way; also "half", "mirror",
    "flip"), written `NE:cw`, even where it changes nothing (an empty region).

    (transform-region {"NW" "NE" "SW" "SE"} by:{"cw" "ccw"})"""
    hows = by if by is not None else ["cw", "ccw"]
    plans: list[tuple[str, list[tuple[int, int]]]] = []  # (kind, (site, site it goes to))
    for how in hows:
        if how not in TRANSFORMS:
            env.error(f'no transform "{how}" (transforms: {", ".join(TRANSFORMS)})')
    for name in regions:
        owners = env.regions.get(name)
        if owners is None:
            known = ", ".join(f'"{k}"' for k in env.regions) or "none"
            env.error(f'(transform-region ...): no region named "{name}" (regions: {known})')
            continue
        if len(owners) != 1 or None not in owners:
            env.error(f'(transform-region ...): region "{name}" must be everyone\'s, not a '
                      "role's")
            continue
        sites = owners[None]
        for how in hows:
            if how not in TRANSFORMS:
                continue
            mapping = transform_map(env, sites, how)
            if mapping is None:
                env.error(f'region "{name}" does not map onto itself by "{how}" (a quarter '
                          "turn needs a square of sites)")
                continue
            plans.append((f"{TRANSFORM_PREFIX}{name}:{how}", sorted(mapping.items())))
    names = env.names

    def generate(ctx: Ctx) -> list[Move]:
        board = ctx.board
        out = []
        for kind, pairs in plans:
            changes = tuple((t, board[s]) for s, t in pairs if board[t] != board[s])
            out.append(Move(kind, (), changes, names))
            if ctx.probe:
                break
        return out

    mark(generate).kinds = frozenset(kind for kind, _ in plans)
    return generate



# Kernel lowerings (stdlib/lowering.py) ---------------------------------------------------------

@lowers("transform-region")
def lower_transform_region(k: Lower, node: Form, args: tuple[Node, ...]) -> Generator:
    """(transform-region regions [by:]): one move per region and transform, in the
    interpreter's order; making one moves each site's piece where the transform takes it
    (a table of (site, target) pairs per move, the old values read first)."""
    given = keywords(node, {"by"}, k)
    names = _strings(k, node, args[0])
    hows = _strings(k, node, given["by"]) if "by" in given else ["cw", "ccw"]
    env = k.env
    plans: list[tuple[str, list[tuple[int, int]]]] = []
    for name in names:
        owners = env.regions.get(name)
        if owners is None or len(owners) != 1 or None not in owners:
            k.refuse(node, f"no kernel lowering of (transform-region) of region {name!r}")
        for how in hows:
            mapping = transform_map(env, owners[None], how) if how in TRANSFORMS else None
            if mapping is None:
                k.refuse(node, f"no kernel lowering of (transform-region) by {how!r} here")
            plans.append((f"{TRANSFORM_PREFIX}{name}:{how}", sorted(mapping.items())))
    if not plans:
        k.refuse(node, "no kernel lowering of (transform-region) without a move")
    actions = [k.action_start(kind, node) for kind, _ in plans]
    width = max(len(pairs) for _, pairs in plans)
    table = k.table("transform pairs", [[[s, t] for s, t in pairs] + [[-1, -1]] *
                                        (width - len(pairs)) for _, pairs in plans])
    numbers = k.table("transform actions", actions)
    plan_of = [-1] * (max(actions) + 1)
    for i, a in enumerate(actions):
        plan_of[a] = i
    index = k.table("transform of action", plan_of)
    generate = k.function("transform_region", f"""
def {{name}}(st, T, mover, acts, tags, n, tag):
    for i in range({len(plans)}):
        acts[n] = {numbers}[i]
        tags[n] = tag
        n += 1
    return n
""")
    make = k.function("make_transform", f"""
def {{name}}(st, T, mover, act):
    p = {index}[act]
    old = np.empty({width}, st.dtype)
    for j in range({width}):
        s = {table}[p, j, 0]
        old[j] = st[s] if s >= 0 else 0
    for j in range({width}):
        s = {table}[p, j, 0]
        t = {table}[p, j, 1]
        if s >= 0 and st[t] != old[j]:
            change(st, t, old[j])
    st[H_TO] = -1
    st[H_FROM] = -1
""")
    return Generator(generate, make, frozenset(kind for kind, _ in plans))


def _strings(k: Lower, node: Form, value: Node) -> list[str]:
    """A literal list of strings ({"NW" "NE"}), or a refusal."""
    items = value.items if isinstance(value, ListNode) else [value]
    if not all(isinstance(i, Str) for i in items):
        k.refuse(node, "no kernel lowering of (transform-region) with these names")
    return [i.value for i in items if isinstance(i, Str)]
