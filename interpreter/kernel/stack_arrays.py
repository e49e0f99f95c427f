"""`local_empty` and `local_zeros`: numba intrinsics making a small 1-d array in the calling
function's stack frame, which kernels use for the scratch arrays their functions make (see
interpreter/kernel/stack.py, which rewrites a kernel module to use them). The array has no
reference count and lives until the caller returns: it must not be returned or kept."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _stack_array(context: Any, builder: Any, arrty: Any, count: int, zeroed: bool) -> Any:
    """The code of a C-contiguous 1-d array of `count` items in the current function's
    frame (its entry block), zeroed here when asked."""
    item = context.get_data_type(arrty.dtype)
    data = cgutils.alloca_once(builder, item, size=count)
    itemsize = context.get_abi_sizeof(item)
    if zeroed:
        cgutils.memset(builder, data, ir.Constant(ir.IntType(64), count * itemsize), 0)
    intp = context.get_value_type(types.intp)
    array = context.make_array(arrty)(context, builder)
    context.populate_array(array, data=data, shape=[ir.Constant(intp, count)],
                           strides=[ir.Constant(intp, itemsize)],
                           itemsize=ir.Constant(intp, itemsize), meminfo=None)
    return array._getvalue()


def _typed(size: Any, dtype: Any, zeroed: bool) -> Any:
    if not isinstance(size, types.IntegerLiteral) or not isinstance(dtype, types.NumberClass):
        return None
    count = int(size.literal_value)
    arrty = types.Array(dtype.dtype, 1, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _stack_array(context, builder, arrty, count, zeroed)

    return arrty(size, dtype), codegen


@intrinsic
def local_empty(typingctx: Any, size: Any, dtype: Any) -> Any:
    """`np.empty(size, dtype)` in the caller's frame: size a literal int; valid until the
    caller returns."""
    return _typed(size, dtype, False)


@intrinsic
def local_zeros(typingctx: Any, size: Any, dtype: Any) -> Any:
    """`np.zeros(size, dtype)` in the caller's frame (zeroed where it is called): size a
    literal int; valid until the caller returns."""
    return _typed(size, dtype, True)
