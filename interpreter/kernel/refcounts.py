"""Kernel functions compiled without reference counts.

numba counts the references to every array a function holds (the state, the move buffers,
views of them): an atomic increment where the function starts holding one and a decrement
where it lets go, which its optimiser removes only where the function's branches are simple.
A kernel's driver and lowerings branch a lot: in a game that places a stone a move, some
sixteen of these atomic operations a move were a quarter to a third of a random game's time.

`without_refcounts` rewrites a generated kernel module so that each function that makes no
array of its own is compiled with numba's `_nrt=False`: it holds the arrays it is given, and
the views it takes of them, without counting. That is sound because such a function's
arrays all belong to its callers, which hold them until it returns:

- it makes none (no numpy call but scalar ones, no method of an array but those that read
  it, no list, set or dict: an array made without counts would never be freed);
- it returns none (numba refuses to return a view without counts; a function returning a
  parameter it indexes keeps its counts);
- no function it calls may return an array (it would never let go of it): a function that
  keeps its counts and returns what makes an array, or a parameter it indexes.

The rewrite reads the source, not numba's types, so it may admit a function wrongly: numba
then refuses to compile the array it makes (an expression of a whole row, say), or `unsound`
finds a function returning or taking an array in the compiled module, and the kernel loads
the module again with every count kept (`counted`; `Kernel.all_counted`).

Functions that make arrays (the drivers of random games, search and perft, the copies of
the board some rules keep) keep numba's counting, said explicitly (`_nrt=True`: numba would
compile a function first called by one without counts without them too), and call the
others as before.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

# The calls that make no array: numpy's scalar functions and random draws, and the methods
# of an array that read it (or fill it) in place. Any other call `x.name(...)` may make one
# (`.copy()`, `np.zeros(...)`; numba's `.sort()` too).
_CALLS = {"np": frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                           "uint64", "float64", "bool_", "log", "sqrt", "exp", "abs"}),
          "random": frozenset({"randint", "random", "seed"})}
_READS = frozenset({"sum", "any", "all", "max", "min", "fill"})
_DOTTED_CALL = re.compile(r"([\w\])]*)\s*\.\s*(\w+)\s*\(")
# Besides calls: a list, set or dict (which need counts too), made by a literal or by name.
_MAKES = re.compile(r"=\s*\[|[(,]\s*\[|\b(list|set|dict|sorted)\(|\{")
_DECORATOR = re.compile(r"^@njit\(cache=True((?:, [^)\n]*)?)\)\ndef (\w+)\(([^)]*)\):", re.M)
_BODY = re.compile(r"(?:\n(?:[ \t][^\n]*)?)*")  # the indented (and blank) lines after a def
_DOCSTRING = re.compile(r'"""[\s\S]*?"""')
_COMMENT = re.compile(r"#[^\n]*")
FLAG = "_nrt=False"
# Said explicitly, else a function first compiled for a caller without counts would inherit
# the caller's setting from numba (and fail to compile the arrays it makes).
KEEP = "_nrt=True"


def supported() -> bool:
    """Does the numba installed take `_nrt` as a jit option? It is a private one (numba 0.59
    to 0.68 have it): a numba without it gets the module unchanged, every count kept."""
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:
        return False
    return hasattr(CPUTargetOptions, "_nrt")


def without_refcounts(source: str) -> str:
    """The kernel module `source` with every function compiled without reference counts
    that makes no array, returns no parameter it indexes and calls no function that may
    return an array; every other is said to keep them. Unchanged where numba does not
    support the option (`supported`)."""
    if not supported():
        return source
    heads = {m.group(2): m for m in _DECORATOR.finditer(source)}
    bodies = {name: _body(source, m) for name, m in heads.items()}
    counted = {name for name, m in heads.items()
               if "_nrt=True" in m.group(1) or _makes_arrays(bodies[name])
               or _returns_indexed_parameter(bodies[name], m.group(3))}
    calls = {name: set(re.findall(r"\b(\w+)\(", body)) & bodies.keys() - {name}
             for name, body in bodies.items()}
    while True:  # a function calling one that may return an array keeps its counts
        returning = {name for name in counted
                     if _may_return_an_array(bodies[name], heads[name].group(3))}
        more = {name for name in bodies.keys() - counted if calls[name] & returning}
        if not more:
            break
        counted |= more

    def mark(m: re.Match[str]) -> str:
        if "_nrt=" in m.group(1):
            return m.group(0)
        flag = KEEP if m.group(2) in counted else FLAG
        return f"@njit(cache=True{m.group(1)}, {flag})\ndef {m.group(2)}({m.group(3)}):"

    return _DECORATOR.sub(mark, source)


def counted(source: str) -> str:
    """The kernel module `source` with every function keeping its reference counts."""
    return source.replace(f", {FLAG})\n", f", {KEEP})\n")


def _body(source: str, head: re.Match[str]) -> str:
    """The code of the function whose decorator and def line `head` matched: its indented
    lines, without docstrings and comments."""
    body = _BODY.match(source, head.end())
    return _COMMENT.sub("", _DOCSTRING.sub("", body.group(0) if body else ""))


def _makes_arrays(code: str) -> bool:
    """May the code make an array, a list, a set or a dict?"""
    for receiver, name in _DOTTED_CALL.findall(code):
        if name not in _CALLS.get(receiver, _READS):
            return True
    return _MAKES.search(code) is not None


def _returns_indexed_parameter(body: str, params: str) -> bool:
    """Does the body return as it is a parameter that it indexes (an array)?"""
    returned = set(re.findall(r"^\s*return\s+(\w+)\s*$", body, re.M))
    return any(re.search(rf"\b{p.strip()}\[", body) for p in params.split(",")
               if p.strip() in returned)


def _may_return_an_array(body: str, params: str) -> bool:
    """May a function keeping its counts return an array: a parameter it indexes, a name it
    binds to what makes an array, or such an expression?"""
    if _returns_indexed_parameter(body, params):
        return True
    for value in re.findall(r"^\s*return\s+(.+)$", body, re.M):
        value = value.strip()
        if _makes_arrays(value) or re.fullmatch(r"\w+", value) and any(
                _makes_arrays(line) for line in
                re.findall(rf"^\s*{value}\s*=(?!=)(.+)$", body, re.M)):
            return True
    return False


def unsound(module: ModuleType, source: str) -> list[str]:
    """The functions of the compiled kernel `module` (generated from `source`) compiled
    without counts that return an array, or call a function that does (none, where the
    rewrite saw right)."""
    returning = set()
    for name, value in vars(module).items():
        overloads = getattr(value, "overloads", None)
        if overloads and any(_holds_array(cres.signature.return_type)
                             for cres in overloads.values()):
            returning.add(name)
    return [m.group(2) for m in _DECORATOR.finditer(source) if FLAG in m.group(1)
            and (m.group(2) in returning
                 or set(re.findall(r"\b(\w+)\(", _body(source, m))) & returning)]


def _holds_array(ty: Any) -> bool:
    """Is the numba type an array, or a tuple holding one?"""
    from numba import types

    if isinstance(ty, types.Array):
        return True
    return isinstance(ty, types.BaseTuple) and \
        any(_holds_array(t) for t in getattr(ty, "types", ()))
