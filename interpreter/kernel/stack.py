"""Small fixed-size arrays on the native stack, for kernels.

A lowering's function that needs a scratch array makes one per call (`buf = np.empty(N,
np.int32)`); numba allocates each on the heap and keeps a reference count for it, about 30 ns
a call, and a random game makes several such calls a move (sites listed to be counted, the
moves of a player judged stuck...). `on_stack` rewrites a generated kernel module so that
each array of a constant size (N, R, MAX_MOVES, DICE_CAP, a number, or a number times one of
them) made by a statement of a function's body is made on that function's stack frame
instead (`local_empty`, `local_zeros` of interpreter/kernel/stack_arrays.py: no allocation,
no reference count).

That is sound because a kernel's functions never return the arrays they make nor keep them
past the call (lowerings pass them down to the functions they call, which return counts or
flags), and because only statements at the top of a function's body are rewritten (not in a
loop, where one frame slot would be shared by every round). Arrays above `STACK_BYTES` stay
on the heap (a frame must stay small: (stuck ...) may list moves inside moves).
"""

from __future__ import annotations

import re

STACK_BYTES = 32 * 1024  # the largest array made on the stack

_ITEM_BYTES = {"int8": 1, "uint8": 1, "bool_": 1, "int16": 2, "int32": 4, "uint32": 4,
               "int64": 8, "uint64": 8, "float32": 4, "float64": 8}
_CONSTANT = re.compile(r"^([A-Z][A-Z_0-9]*) = (\d+)$", re.M)
_MADE = re.compile(r"^(    \w+ = )np\.(empty|zeros)\((?:(\d+) \* )?(\w+), np\.(\w+)\)$", re.M)
_IMPORT = "from numba import njit\n"


def on_stack(source: str) -> str:
    """The kernel module `source` with the arrays its functions make at the top of their
    bodies, of a constant size of at most STACK_BYTES, made on the stack (local_empty,
    local_zeros); the module imports them when it uses them."""
    constants = {name: int(value) for name, value in _CONSTANT.findall(source)}

    def made(m: re.Match[str]) -> str:
        head, kind, times, size, dtype = m.groups()
        count = int(size) if size.isdigit() else constants.get(size)
        if count is None or dtype not in _ITEM_BYTES:
            return m.group(0)
        count *= int(times or 1)
        if not 0 < count * _ITEM_BYTES[dtype] <= STACK_BYTES:
            return m.group(0)
        return f"{head}local_{kind}({count}, np.{dtype})"

    out = _MADE.sub(made, source)
    if out == source:
        return source
    return out.replace(_IMPORT, _IMPORT + "\nfrom interpreter.kernel.stack_arrays import "
                       "local_empty, local_zeros\n", 1)
