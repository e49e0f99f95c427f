"""The ludeme library: every ludeme the language offers, registered under its DSL name, and the
prelude of shared defines (`*.lud` files in this package) visible to every game file."""

from __future__ import annotations

import functools
from importlib import resources

from dsl.ast import Node
from dsl.parser import parse
from stdlib import (  # noqa: F401  (importing a module registers its ludemes)
    boards,
    captures,
    chance,
    chess,
    connectivity,
    edges,
    effects,
    expressions,
    geometry,
    graphboards,
    gridlines,
    groups,
    hands,
    history,
    logic,
    moves,
    oriented,
    paths,
    patterns,
    promotion,
    race,
    regions,
    sowing,
    starboards,
    structure,
    subboards,
    tables,
    transforms,
    turns,
    visits,
    walls,
)
from stdlib.registry import REGISTRY, LudemeSpec, ludeme

__all__ = ["REGISTRY", "LudemeSpec", "ludeme", "prelude"]


@functools.lru_cache(maxsize=1)
def prelude() -> tuple[Node, ...]:
    """The shared defines of the `*.lud` files shipped with the library."""
    nodes: list[Node] = []
    for entry in sorted(resources.files("stdlib").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".lud"):
            nodes.extend(parse(entry.read_text(encoding="utf-8"), f"stdlib/{entry.name}"))
    return tuple(nodes)
