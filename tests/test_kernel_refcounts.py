"""Kernel functions compiled without reference counts (interpreter/kernel/refcounts.py):
which functions of a kernel module the rewrite compiles without them and which keep them,
that a kernel's move listing and making are among the first, that `unsound` finds a
function without counts that returns an array, and that a kernel whose rewrite is wrong loads
with every count kept."""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from interpreter import load_game
from interpreter.kernel import available
from interpreter.kernel.builder import build
from interpreter.kernel.refcounts import FLAG, unsound, without_refcounts

ROOT = Path(__file__).resolve().parent.parent

MODULE = '''"""A kernel."""

import numpy as np
from numba import njit


N = 4


@njit(cache=True)
def counts(st, buf, n):
    """Writes into what it is given; returns a count ({not a set}, [nor a list])."""
    c = 0
    for i in range(n):  # a comment with .copy() and np.empty(
        buf[i] = st[i]
        c += np.int64(st[i] != 0)
    return c


@njit(cache=True)
def views(st):
    return counts(st, st[N:], N)


@njit(cache=True)
def heap(st):
    buf = np.empty(st.shape[0], np.int32)
    return counts(st, buf, N)


@njit(cache=True)
def copies(st):
    before = st[:N].copy()
    return before[0]


@njit(cache=True)
def listed(st):
    found = [st[0], st[1]]
    return found[1]


@njit(cache=True, inline='always')
def inlined(st, n):
    return n + st[0]


@njit(cache=True)
def indexed(st, n):
    st[0] = n
    return st


@njit(cache=True)
def passed_on(st, n):
    return n


@njit(cache=True)
def sorts(st, n):
    st[:n].sort()
    return n


@njit(cache=True)
def fresh(st):
    trial = np.empty_like(st)
    return trial


@njit(cache=True)
def uses_fresh(st):
    trial = fresh(st)
    return trial[0]


@njit(cache=True)
def uses_heap(st):
    return heap(st) + np.int64(np.random.randint(0, 2)) + st[:N].sum()


N_AFTER = 1
'''


def _flags(source: str) -> dict[str, bool]:
    """Each function of the module: is it compiled without counts?"""
    return {m.group(2): FLAG in m.group(1)
            for m in re.finditer(r"^@njit\(cache=True(.*)\)\ndef (\w+)\(", source, re.M)}


def test_functions_that_make_no_array_are_compiled_without_counts() -> None:
    flags = _flags(without_refcounts(MODULE))
    assert flags == {"counts": True, "views": True, "heap": False, "copies": False,
                     "listed": False, "inlined": True, "indexed": False, "passed_on": True,
                     "sorts": False, "fresh": False, "uses_fresh": False, "uses_heap": True}
    out = without_refcounts(MODULE)
    assert "@njit(cache=True, inline='always', _nrt=False)\ndef inlined(st, n):" in out
    assert out.endswith("N_AFTER = 1\n")
    assert without_refcounts(out) == out


@pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not installed")
def test_a_numba_without_the_option_gets_the_module_unchanged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.kernel import refcounts

    assert refcounts.supported()  # (the numba CI installs has it)
    monkeypatch.setattr(refcounts, "supported", lambda: False)
    assert without_refcounts(MODULE) == MODULE


def test_a_kernels_listing_and_making_of_moves_keep_no_counts() -> None:
    for path, options in (("games/connectfour.game", {}),
                          ("games/hex.game", {"size": 11, "pie": False})):
        flags = _flags(build(load_game(str(ROOT / path), **options)).source)
        for name in ("legal", "apply", "end_turn", "judge", "change", "choose", "draw"):
            assert flags[name], (path, name)
        for name in ("playouts", "perft", "search", "trial_state"):  # they make arrays
            assert not flags[name], (path, name)


@pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not installed")
def test_unsound_finds_a_function_without_counts_returning_an_array(tmp_path: Path) -> None:
    source = without_refcounts(MODULE.replace("def passed_on(st, n):\n    return n\n",
                                              "def passed_on(st, n):\n    return st\n"))
    assert _flags(source)["passed_on"]  # an array it does not index: admitted, then checked
    path = tmp_path / "refcounts_module.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("refcounts_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["refcounts_module"] = module
    try:
        spec.loader.exec_module(module)
        st = np.arange(12, dtype=np.int64)
        assert module.views(st) == 3
        assert unsound(module, source) == []  # nothing returns an array yet
        module.passed_on(st, 1)
        assert unsound(module, source) == ["passed_on"]
    finally:
        del sys.modules["refcounts_module"]


@pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not installed")
def test_a_kernel_whose_rewrite_does_not_compile_keeps_every_count() -> None:
    from interpreter.kernel.kernel import Kernel

    game = load_game(str(ROOT / "games/tictactoe.game"))
    built = build(game)
    assert not Kernel(game, built).all_counted
    # An array made in a way the rewrite does not see (an expression of a view), in a
    # function it compiles without counts: numba refuses it, and the kernel keeps them all.
    head = "def judge(st, T):\n"
    assert f"{FLAG})\n{head}" in built.source
    source = built.source.replace(head, head + "    if (st[:N] == 99).any():\n"
                                  "        return\n")
    assert without_refcounts(source) == source
    kernel = Kernel(game, replace(built, source=source, digest=built.digest[:20] + "test"))
    assert kernel.all_counted and FLAG not in kernel.built.source
    assert kernel.playouts(list(range(50))).lengths == \
        Kernel(game, built).playouts(list(range(50))).lengths
