"""Scratch arrays on the stack in kernels (interpreter/kernel/stack.py, stack_arrays.py): which
arrays a kernel module's rewrite puts on the stack and which it leaves on the heap, and that
the stack arrays behave as numpy's (zeroed when asked, each call its own, passed to other
functions)."""

from __future__ import annotations

import numpy as np
import pytest

from interpreter.kernel import available
from interpreter.kernel.stack import STACK_BYTES, on_stack

MODULE = '''"""A kernel."""

import numpy as np
from numba import njit


N = 12


MAX_MOVES = 40


@njit(cache=True)
def f(st):
    buf = np.empty(N, np.int32)
    seen = np.zeros(N, np.bool_)
    both = np.empty(2 * MAX_MOVES, np.int32)
    work = np.zeros(8 * N, np.int64)
    few = np.zeros(3, np.int64)
    for i in range(N):
        inner = np.empty(N, np.int32)
    sized = np.empty(st.shape[0], np.int32)
    other = np.empty(UNKNOWN, np.int32)
    big = np.empty(100000, np.int64)
    kept = st[:N].copy()
'''


def test_arrays_of_a_constant_size_at_the_top_of_a_body_go_on_the_stack() -> None:
    out = on_stack(MODULE)
    assert "from interpreter.kernel.stack_arrays import local_empty, local_zeros" in out
    for line in ("    buf = local_empty(12, np.int32)", "    seen = local_zeros(12, np.bool_)",
                 "    both = local_empty(80, np.int32)", "    work = local_zeros(96, np.int64)",
                 "    few = local_zeros(3, np.int64)"):
        assert line in out.splitlines()


def test_arrays_in_a_loop_of_unknown_or_run_time_size_or_too_big_stay_on_the_heap() -> None:
    out = on_stack(MODULE).splitlines()
    assert 100000 * 8 > STACK_BYTES
    for line in ("        inner = np.empty(N, np.int32)",
                 "    sized = np.empty(st.shape[0], np.int32)",
                 "    other = np.empty(UNKNOWN, np.int32)",
                 "    big = np.empty(100000, np.int64)", "    kept = st[:N].copy()"):
        assert line in out


def test_a_module_without_such_arrays_is_unchanged() -> None:
    source = MODULE.split("@njit")[0]
    assert on_stack(source) == source


@pytest.mark.skipif(not available(), reason="numba (the kernels extra) is not installed")
def test_stack_arrays_behave_as_numpy_arrays() -> None:
    from numba import njit

    from interpreter.kernel.stack_arrays import local_empty, local_zeros

    @njit
    def fill(buf, v):  # type: ignore[no-untyped-def]
        for i in range(buf.shape[0]):
            buf[i] = v + i
        return buf.shape[0]

    @njit
    def dirty(v):  # type: ignore[no-untyped-def]
        buf = local_zeros(16, np.int64)
        fill(buf, v)
        return buf.sum()

    @njit
    def clean():  # type: ignore[no-untyped-def]
        flags = local_zeros(16, np.bool_)
        counts = local_zeros(16, np.int64)
        return flags.sum() + counts.sum()

    @njit
    def two():  # type: ignore[no-untyped-def]
        a = local_empty(8, np.int32)
        b = local_empty(8, np.int32)
        n = fill(a, 1) + fill(b, 100)
        return n, a.sum(), b.sum()

    assert dirty(7) == sum(7 + i for i in range(16))
    for v in range(3):  # zeros after another function's frame was filled
        assert dirty(100 + v) > 0
        assert clean() == 0
    assert two() == (16, sum(range(1, 9)), sum(range(100, 108)))
