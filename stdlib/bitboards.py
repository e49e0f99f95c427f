"""Sites as the bits of Python integers, laid out on the board's lattice, so that a question
about every site at once ("where would this piece complete a pattern?") is a handful of integer
operations instead of a loop over sites.

Square boards use their (column, row) grid; hex boards the lattice of half-cell columns and
rows. Each lattice row takes `stride` bits: the board's width plus a margin at least as wide as
the shapes that are shifted over it, so that shifting never carries a site from the end of one
row into the next one (it lands in the margin, where no site is).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from stdlib.runtime import EMPTY, Ctx, Env, Tracker


class Lattice:
    """Where each site's bit is: rows of `stride` bits, the board's width and then a margin as
    wide again, less one, so that any shape that fits on the board can be shifted by its
    width without wrapping."""

    def __init__(self, env: Env) -> None:
        topo = env.topology
        unit = 2.0 if topo.shape == "hex" else 1.0
        height = math.sqrt(3) / 2 if topo.shape == "hex" else 1.0
        cells = [(round(x * unit), round(-y / height)) for x, y in topo.xy]
        left = min(u for u, _ in cells)
        top = min(v for _, v in cells)
        width = max(u for u, _ in cells) - left + 1
        self.stride = 2 * width - 1
        self.bit = [(v - top) * self.stride + (u - left) for u, v in cells]
        self.site_of = {b: s for s, b in enumerate(self.bit)}
        self.board = sum(1 << b for b in self.bit)  # every site's bit

    def sites(self, bits: int) -> list[int]:
        """The sites whose bits are set, in no particular order."""
        site_of = self.site_of
        return [site_of[b] for b in set_bits(bits)]


def set_bits(bits: int) -> Iterator[int]:
    """The positions of the bits set, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def anchors(masks: list[int], cells: Sequence[tuple[int, int]]) -> int:
    """The bits from which every cell (bit offset, index of the mask it must be in) is in its
    mask: where a shape with those cells stands, found for the whole board at once."""
    found = -1
    for offset, k in cells:
        found &= masks[k] >> offset
        if not found:
            break
    return found


class SiteBits(Tracker):
    """A position's pieces as bit masks on a lattice: one mask per role (its pieces), then
    the empty sites, the sites holding any piece, and every site (which never changes)."""

    def __init__(self, lattice: Lattice, owner: tuple[int, ...], roles: int) -> None:
        self.lattice = lattice
        self.owner = owner
        self.roles = roles

    def _slot(self, value: int) -> int:
        """The mask (besides `occupied`) a board value belongs to, or -1 for a piece that
        belongs to nobody."""
        if value == EMPTY:
            return self.roles
        return self.owner[value] if self.owner[value] >= 0 else -1

    def build(self, board: list[int]) -> list[int]:
        masks = [0] * (self.roles + 3)
        masks[self.roles + 2] = self.lattice.board
        bit = self.lattice.bit
        for s, v in enumerate(board):
            b = 1 << bit[s]
            slot = self._slot(v)
            if slot >= 0:
                masks[slot] |= b
            if v != EMPTY:
                masks[self.roles + 1] |= b
        return masks

    def update(self, data: list[int], board: list[int], site: int, old: int, new: int
               ) -> list[int]:
        b = 1 << self.lattice.bit[site]
        was, now = self._slot(old), self._slot(new)
        if was >= 0:
            data[was] &= ~b
        if now >= 0:
            data[now] |= b
        occupied = self.roles + 1
        if old == EMPTY:
            data[occupied] |= b
        elif new == EMPTY:
            data[occupied] &= ~b
        return data

    def copy(self, data: list[int]) -> list[int]:
        return list(data)


def lattice_of(env: Env) -> Lattice:
    """The game's lattice (made once per game)."""
    lattice = env.shared.get("lattice")
    if lattice is None:
        lattice = env.shared["lattice"] = Lattice(env)
    return lattice  # type: ignore[no-any-return]


def site_bits(env: Env) -> tuple[Lattice, Callable[[Ctx], Any]]:
    """The game's lattice and the accessor of the masks positions keep (see Env.track); one
    tracker serves every ludeme that asks. Ask at compile time."""
    known = env.shared.get("site_bits")
    if known is None:
        lattice = lattice_of(env)
        known = env.shared["site_bits"] = (
            lattice, env.track(SiteBits(lattice, env.owner, len(env.roles))))
    return known  # type: ignore[no-any-return]
