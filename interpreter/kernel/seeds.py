"""The seeds of many games at once, in native code: `game_seeds(base, start, count)` is
`[game_seed(base, i) for i in range(start, start + count)]` (interpreter.analyze: the first 8
bytes of the SHA-256 digest of "ludeme-analyze:{base}:{i}") as a uint64 array, some ten
times faster than hashlib called once a game from Python, which took about as long as a
small game's whole random game in its kernel.

SHA-256 is written out here from its definition (FIPS 180-4); its constants are computed
from theirs (the first 32 bits of the fractional parts of the square and cube roots of the
first primes), and the tests compare every result with hashlib's.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

MASK = 0xFFFFFFFF


def _primes(count: int) -> list[int]:
    found: list[int] = []
    n = 2
    while len(found) < count:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
        n += 1
    return found


def _cube_root(n: int) -> int:
    """The integer cube root of n (the largest r with r ** 3 <= n)."""
    r = 1 << -(-n.bit_length() // 3)
    while True:
        s = (2 * r + n // (r * r)) // 3
        if s >= r:
            break
        r = s
    while r ** 3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


# The fractional parts' first 32 bits: the root of p scaled by 2 ** 32, modulo 2 ** 32.
INITIAL = np.array([math.isqrt(p << 64) & MASK for p in _primes(8)], np.int64)
ROUND = np.array([_cube_root(p << 96) & MASK for p in _primes(64)], np.int64)


@njit(cache=True)
def _rotate(x: int, n: int) -> int:
    """x (32 bits) rotated right by n."""
    return ((x >> n) | (x << (32 - n))) & 0xFFFFFFFF


@njit(cache=True)
def _compress(h: np.ndarray, block: np.ndarray, at: int, w: np.ndarray) -> None:
    """SHA-256's compression of the 64 bytes of block from at into the state h."""
    for t in range(16):
        k = at + 4 * t
        w[t] = (np.int64(block[k]) << 24) | (np.int64(block[k + 1]) << 16) | \
            (np.int64(block[k + 2]) << 8) | np.int64(block[k + 3])
    for t in range(16, 64):
        x = w[t - 15]
        y = w[t - 2]
        s0 = _rotate(x, 7) ^ _rotate(x, 18) ^ (x >> 3)
        s1 = _rotate(y, 17) ^ _rotate(y, 19) ^ (y >> 10)
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) & 0xFFFFFFFF
    a, b, c, d, e, f, g, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    for t in range(64):
        s1 = _rotate(e, 6) ^ _rotate(e, 11) ^ _rotate(e, 25)
        choice = (e & f) ^ ((e ^ 0xFFFFFFFF) & g)
        t1 = (hh + s1 + choice + ROUND[t] + w[t]) & 0xFFFFFFFF
        s0 = _rotate(a, 2) ^ _rotate(a, 13) ^ _rotate(a, 22)
        majority = (a & b) ^ (a & c) ^ (b & c)
        hh, g, f, e = g, f, e, (d + t1) & 0xFFFFFFFF
        d, c, b, a = c, b, a, (t1 + s0 + majority) & 0xFFFFFFFF
    for i, x in enumerate((a, b, c, d, e, f, g, hh)):
        h[i] = (h[i] + x) & 0xFFFFFFFF


@njit(cache=True)
def _seeds(prefix: np.ndarray, start: int, out: np.ndarray) -> None:
    """out[j]: the first 64 bits of SHA-256 of prefix followed by start + j in decimal."""
    size = prefix.shape[0]
    block = np.zeros(64 * ((size + 20 + 9 + 63) // 64), np.uint8)
    block[:size] = prefix
    digits = np.zeros(20, np.uint8)
    w = np.zeros(64, np.int64)
    h = np.zeros(8, np.int64)
    for j in range(out.shape[0]):
        i = start + j
        d = 0
        while True:
            digits[d] = 48 + i % 10
            d += 1
            i //= 10
            if i == 0:
                break
        length = size + d
        for k in range(d):
            block[size + k] = digits[d - 1 - k]
        blocks = (length + 9 + 63) // 64
        block[length] = 0x80
        block[length + 1:64 * blocks] = 0
        bits = 8 * length
        for k in range(8):
            block[64 * blocks - 1 - k] = (bits >> (8 * k)) & 0xFF
        h[:] = INITIAL
        for k in range(blocks):
            _compress(h, block, 64 * k, w)
        out[j] = (np.uint64(h[0]) << np.uint64(32)) | np.uint64(h[1])


def game_seeds(base: int, start: int, count: int) -> np.ndarray:
    """The seeds of games start ... start + count - 1 from the base seed, as game_seed
    gives them, in a uint64 array."""
    if start < 0 or count < 0 or start + count >= 10 ** 19:
        raise ValueError(f"game_seeds: games {start} to {start + count - 1}: out of range")
    out = np.zeros(count, np.uint64)
    prefix = np.frombuffer(f"ludeme-analyze:{base}:".encode(), np.uint8)
    _seeds(prefix, start, out)
    return out
