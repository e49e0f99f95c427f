"""The kernels' randomness: the seeds of many games computed in native code are game_seed's
(interpreter/kernel/seeds.py, SHA-256 written out), and a kernel's generator (rng_seed,
rng_below, rng_unit in the generated driver) draws every number alike and is the same for
the same seed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("numba")

from interpreter import load_game  # noqa: E402
from interpreter.analyze import game_seed  # noqa: E402
from interpreter.kernel import kernel_for  # noqa: E402
from interpreter.kernel.seeds import game_seeds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@given(st.integers(-10 ** 60, 10 ** 60), st.integers(0, 10 ** 18), st.integers(0, 5))
def test_native_seeds_are_game_seeds(base: int, start: int, count: int) -> None:
    # A base of 60 digits makes the message longer than one SHA-256 block.
    assert game_seeds(base, start, count).tolist() == \
        [game_seed(base, i) for i in range(start, start + count)]


def test_native_seeds_of_a_long_run_and_the_digit_boundaries() -> None:
    assert game_seeds(1, 0, 2000).tolist() == [game_seed(1, i) for i in range(2000)]
    assert game_seeds(7, 99_998, 4).tolist() == [game_seed(7, i) for i in range(99_998, 100_002)]
    assert game_seeds(3, 0, 0).dtype == np.uint64
    with pytest.raises(ValueError, match="out of range"):
        game_seeds(3, -1, 2)


def module() -> ModuleType:
    kernel = kernel_for(load_game(str(ROOT / "games" / "tictactoe.game")))
    assert kernel is not None
    return kernel.module


def test_rng_below_draws_each_number_alike() -> None:
    m = module()
    rng = np.zeros(1, np.uint64)
    m.rng_seed(rng, np.uint64(12345))
    for n in (1, 3, 10):
        counts = Counter(int(m.rng_below(rng, n)) for _ in range(20_000))
        assert set(counts) == set(range(n))
        expected = 20_000 / n
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < 3 * n + 10, (n, counts)  # far above n - 1 only if some number is favoured


def test_rng_unit_is_in_the_unit_interval_and_uniform() -> None:
    m = module()
    rng = np.zeros(1, np.uint64)
    m.rng_seed(rng, np.uint64(99))
    xs = np.array([m.rng_unit(rng) for _ in range(20_000)])
    assert xs.min() >= 0.0 and xs.max() < 1.0
    assert abs(xs.mean() - 0.5) < 0.01
    assert np.histogram(xs, bins=10, range=(0, 1))[0].min() > 1800


def test_the_same_seed_gives_the_same_draws_and_another_seed_others() -> None:
    m = module()

    def draws(seed: int) -> list[int]:
        rng = np.zeros(1, np.uint64)
        m.rng_seed(rng, np.uint64(seed))
        return [int(m.rng_below(rng, 1000)) for _ in range(50)]

    assert draws(5) == draws(5)
    assert draws(5) != draws(6)
