"""Move notation: text ↔ (kind, sites), as the contract defines it.

| place | `c3` | move | `c3-d4` | several placements | `c3,c4` | exchange | `e5<>f5` |
| pass | `pass` | swap sides | `swap` | a move that promotes | `e7-e8=Q` |
"""

from __future__ import annotations

from interpreter.errors import IllegalMoveError


def _site(token: str, index: dict[str, int], whole: str) -> int:
    site = index.get(token)
    if site is None:
        site = index.get(token.lower())
    if site is None:
        if not token:
            raise IllegalMoveError(f"{whole}: a site name is missing")
        raise IllegalMoveError(f"{whole}: no site {token} on this board")
    return site


def parse_move(text: str, index: dict[str, int]) -> tuple[str, tuple[int, ...]]:
    """The (kind, sites) key of a move written in notation; IllegalMoveError if it is not
    notation for this board. Sites of several placements and of an exchange are sorted, so any
    order is accepted."""
    whole = text.strip()
    low = whole.lower()
    if not whole:
        raise IllegalMoveError("empty move: type a site (c3), a move (c3-d4), 'pass' or 'swap'")
    if low in ("pass", "swap"):
        return low, ()
    if "<>" in whole:
        parts = whole.split("<>")
        if len(parts) != 2:
            raise IllegalMoveError(f"{whole}: an exchange is written a<>b")
        a, b = (_site(p.strip(), index, whole) for p in parts)
        if a == b:
            raise IllegalMoveError(f"{whole}: an exchange needs two different sites")
        return "exchange", tuple(sorted((a, b)))
    if "," in whole:
        sites = [_site(p.strip(), index, whole) for p in whole.split(",")]
        if len(set(sites)) != len(sites):
            raise IllegalMoveError(f"{whole}: the same site is named twice")
        return "multi", tuple(sorted(sites))
    if "-" in whole:
        body, equals, promoted = whole.partition("=")
        parts = body.split("-")
        if len(parts) != 2:
            raise IllegalMoveError(f"{whole}: a move is written from-to, e.g. c3-d4")
        a, b = (_site(p.strip(), index, whole) for p in parts)
        if equals:  # a promotion: e7-e8=Q (the piece's letter, either case)
            letter = promoted.strip()
            if len(letter) != 1 or not letter.isalpha():
                raise IllegalMoveError(f"{whole}: a promotion is written with the new piece's "
                                       "letter, e.g. e7-e8=Q")
            return f"move={letter.upper()}", (a, b)
        return "move", (a, b)
    return "place", (_site(whole, index, whole),)
