"""`ludeme grammar`: the language reference, read from the ludeme registry.

Every ludeme is listed under its family (the stdlib module that defines it) with its usage —
positional parameters, `name:` parameters, `[...]` when optional, `...` for any number — and
the type it yields; `-v` adds each docstring, whose last paragraph is an example.

>>> print(describe(find("sites Corner")[0]).splitlines()[0])
(sites Corner Corner)  -> Region  [regions]
>>> [spec.name for spec in search("checkerboard")]
['sites Phase']
"""

from __future__ import annotations

from collections.abc import Iterable

import stdlib
from dsl.errors import GameError
from dsl.suggest import closest
from stdlib.registry import LudemeSpec


def family(spec: LudemeSpec) -> str:
    """The family a ludeme belongs to: the name of the stdlib module that defines it."""
    return spec.fn.__module__.split(".")[-1]


def example(spec: LudemeSpec) -> str:
    """The ludeme's example: the last paragraph of its docstring."""
    return spec.doc.strip().split("\n\n")[-1].strip()


def describe(spec: LudemeSpec, verbose: bool = True) -> str:
    """The ludeme's usage and type, then its documentation (all of it, or its first line)."""
    head = f"{spec.usage()}  -> {spec.returns.name}  [{family(spec)}]"
    doc = spec.doc if verbose else spec.summary()
    return "\n".join([head, *("    " + line if line else "" for line in doc.splitlines())])


def find(name: str) -> list[LudemeSpec]:
    """The ludeme called `name` (`"line"`, `"sites Empty"`), and every member of the family
    that `name` heads (`"sites"`: `sites`, `sites Empty`, `sites Side`, ...). A name that
    matches nothing is refused with the closest known name."""
    name = " ".join(name.split())
    found = [spec for spec in stdlib.REGISTRY.values() if name in (spec.name, spec.head)]
    if found:
        return found
    known = set(stdlib.REGISTRY) | {spec.head for spec in stdlib.REGISTRY.values()}
    guess = closest(name, known)
    hint = f"; did you mean {guess}?" if guess else ""
    raise GameError(f"no ludeme is called {name!r}{hint} (ludeme grammar lists them all, "
                    "ludeme grammar --search WORD finds them by their documentation)")


def search(word: str) -> list[LudemeSpec]:
    """The ludemes whose name or documentation contains `word` (case-insensitive), in
    registry order."""
    needle = word.lower()
    return [spec for spec in stdlib.REGISTRY.values()
            if needle in spec.name.lower() or needle in spec.doc.lower()]


def listing(specs: Iterable[LudemeSpec], verbose: bool) -> list[str]:
    """Lines listing the ludemes by family, each with its first line of documentation (or all
    of it when verbose)."""
    by_family: dict[str, list[LudemeSpec]] = {}
    for spec in specs:
        by_family.setdefault(family(spec), []).append(spec)
    out: list[str] = []
    for name, members in by_family.items():
        out.append(f"// {name}")
        for spec in members:
            out.append(f"{spec.usage()}  -> {spec.returns.name}")
            doc = spec.doc if verbose else spec.summary()
            out.extend("    " + line if line else "" for line in doc.splitlines())
        out.append("")
    return out
