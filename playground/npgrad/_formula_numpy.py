"""The formula kit on NumPy arrays: the fast path of every backward without create_graph."""

from __future__ import annotations

import numpy as np

from . import (
    _norm_grads,  # noqa: F401 - the kit's layer_norm_input, batch_norm_input...
    _parallel,
    _sparse_grads,
)
from ._blas import product_of_matrices
from ._formula_kit import Kit, _along, _count, _negated, writable_diagonal
from ._indexing import along_axis
from ._numerics import fused_multiply_add_float32, fused_values, power_by_number
from ._pointwise import UNARY
from ._summation_order import SUM_LANES, dim_sums, few_rows_sum, running_sums, whole_sum


class NumpyKit(Kit):
    """Primitives on ndarrays: the fast path of every backward without create_graph."""

    matmul = staticmethod(product_of_matrices)  # (torch's gemm, _blas)
    outer = staticmethod(np.outer)
    zeros_like = staticmethod(np.zeros_like)
    floor_divide = staticmethod(np.floor_divide)
    tril = staticmethod(np.tril)
    triu = staticmethod(np.triu)

    def fused(k, a, b, c):
        """``a * b + c`` rounded once, where torch's kernel is one fused multiply-add (a large
        one split between the cores, as the formulas' other operators are)."""
        if a.__class__ is np.ndarray and a.size >= _parallel.SPLIT_FROM:
            return _parallel.apply(_fused_into, a, b, c, fallback=fused_values)
        return fused_values(a, b, c)

    def trunc_divide(k, a, b):
        return np.trunc(a / b)

    def clamp_min(k, value, low):
        return np.maximum(value, low)

    def gather(k, grad, dim, index):
        return grad[along_axis(index, dim)]

    def scatter_add_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        np.add.at(result, along_axis(index, dim), grad)
        return result

    def scatter_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        result[along_axis(index, dim)] = grad
        return result

    def scatter_fill(k, grad, dim, index, value):
        result = grad.copy()
        result[along_axis(index, dim)] = value
        return result

    def index_select(k, grad, dim, index):
        return np.take(grad, index, axis=dim)

    def index_add_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        np.add.at(result, (slice(None),) * dim + (index,), grad)
        return result

    def embedding_backward(k, grad, shape, indices, padding_idx, scale=False, sparse=False):
        """Each looked-up row's gradient added into its row (divided by how often its index
        was looked up, with scale_grad_by_freq); none for the padding row. Sparse: the rows
        themselves, as a sparse gradient (_sparse_grads.py)."""
        rows = grad.reshape(-1, shape[1])
        if sparse:
            if scale:
                raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with "
                                   "sparse gradients")
            return _sparse_grads.embedding_rows(shape, indices, rows, padding_idx)
        counts = np.bincount(indices, minlength=shape[0]) if scale else None
        if padding_idx is not None:
            keep = indices != padding_idx
            indices, rows = indices[keep], rows[keep]
        result = k._zeros(grad, shape)
        if scale:  # each row added with alpha 1 / count (a fused multiply-add), in order
            _sparse_grads.add_rows(result, indices, rows, (1.0 / counts[indices])[:, None])
        else:
            np.add.at(result, indices, rows)
        return result

    def reverse_cumsum(k, grad, dim):
        return np.flip(running_sums(np.flip(grad, dim), dim), dim)

    def flip(k, grad, dims):
        return np.flip(grad, dims)

    def unroll(k, grad, shifts, dims):
        return np.roll(grad, _negated(shifts), axis=dims)

    def times(k, value, number):
        return value * number

    def plus(k, value, number):
        return value + number

    def power(k, value, number):
        return power_by_number(value, number)

    def where(k, condition, a, b):
        return np.where(condition, a, b)

    def mean(k, value, dims, keepdim):
        return k.sum(value, dims, keepdim) / _count(value.shape, dims)

    def masked_fill(k, value, mask, number):
        return np.where(mask, number, value)

    def sgn(k, value):
        return np.sign(value)

    def number_minus(k, number, value):
        return number - value

    def isfinite(k, value):
        return np.isfinite(value)

    def count_true(k, mask):
        return np.count_nonzero(mask)

    def sum(k, value, dims, keepdim):
        axes = None if dims is None else tuple(dims)
        if axes is None or len(axes) == value.ndim:  # everything: in torch's order of adding
            total = whole_sum(value)
            if total is not None:
                return np.asarray(total).reshape((1,) * value.ndim if keepdim else ())
        dims = () if axes is None else tuple(sorted(d % value.ndim for d in axes))
        rows = dim_sums(value, dims) if dims else None
        if rows is not None:  # each row in torch's order of adding
            return rows.reshape(tuple(1 if d in dims else side for d, side in
                                      enumerate(value.shape))) if keepdim else rows
        return np.asarray(value.sum(axis=axes, keepdims=keepdim))

    def sum_to(k, grad, shape: tuple):
        if grad.__class__ is np.ndarray:
            if not shape and grad.ndim:
                # a scalar parameter's gradient (``w * x``): the whole sum, in torch's order
                total = whole_sum(grad)
                if total is not None:
                    return np.asarray(total)
            elif grad.ndim == 2 and len(shape) == 1 and 1 < grad.shape[0] <= 4 and \
                    shape[0] == grad.shape[1] > 1 and grad.dtype in SUM_LANES and \
                    grad.flags.c_contiguous:
                return few_rows_sum(grad)  # a small batch's bias gradient, as dim_sums adds it
        return super().sum_to(grad, shape)

    def expand(k, grad, shape):
        if isinstance(grad, np.generic) and shape:  # (a 0-d array divided by a number)
            grad = np.asarray(grad)
        if grad.__class__ is np.ndarray and grad.ndim == 0 and shape:
            # a mean's or a sum's gradient, one number everywhere: the same read-only view of
            # it that broadcast_to makes, in a third of its time (a loop's step makes several)
            spread = np.ndarray(shape, grad.dtype, grad, 0, (0,) * len(shape))
            spread.flags.writeable = False
            return spread
        return np.broadcast_to(grad, shape)

    def reshape(k, grad, shape):
        return grad.reshape(shape)

    def unsqueeze(k, grad, dim):
        return np.expand_dims(grad, dim)

    def squeeze_dim(k, grad, dim):
        return np.squeeze(grad, axis=dim)

    def mT(k, value):
        return np.swapaxes(value, -1, -2)

    def mH(k, value):
        """The conjugate transpose (the transpose of reals)."""
        return np.swapaxes(np.conj(value) if value.dtype.kind == "c" else value, -1, -2)

    def t(k, matrix):
        return matrix.T

    def inverse(k, value):
        return np.linalg.inv(value)

    def solve(k, a, b, left=True):
        if not left:  # X a = b
            return np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)),
                               -1, -2)
        return np.linalg.solve(a, b)

    def swapaxes(k, grad, dim0, dim1):
        return np.swapaxes(grad, dim0, dim1)

    def unpermute(k, grad, dims):
        return np.transpose(grad, np.argsort(dims))

    def select(k, grad, dim, index):
        return grad[_along(dim, index)]

    def slice(k, grad, dim, start, end, step):
        return grad[_along(dim, slice(start, end, step))]

    def narrow(k, grad, dim, offset, size):
        return grad[_along(dim, slice(offset, offset + size))]

    def join_split(k, grads, shape, dim, sizes):
        """SplitBackward0: the pieces' gradients side by side, zeros where none came."""
        result = k._zeros(next(g for g in grads if g is not None), shape)
        offset = 0
        for grad, size in zip(grads, sizes, strict=True):
            if grad is not None:
                result[_along(dim, slice(offset, offset + size))] = grad
            offset += size
        return result

    def getitem(k, grad, index):
        return np.asarray(grad[index])

    def _zeros(k, grad, shape):
        return np.zeros(shape, dtype=grad.dtype)

    def _like(k, grad, values):
        return values

    def _backward_of(k, op, values, inputs, saved=()):
        return values

    def unfold(k, grad, dim, size, step):
        """unfold's values (a copy): what unfold's gradient's own gradient is."""
        count = (grad.shape[dim] - size) // step + 1
        shape = grad.shape[:dim] + (count,) + grad.shape[dim + 1:] + (size,)
        strides = grad.strides[:dim] + (grad.strides[dim] * step,) + grad.strides[dim + 1:] + \
            (grad.strides[dim],)
        return np.lib.stride_tricks.as_strided(grad, shape, strides).copy()

    def diagonal_backward(k, grad, shape, offset, dim1, dim2):
        result = k._zeros(grad, shape)
        writable_diagonal(result, offset, dim1, dim2)[...] = grad
        return result

    def diagonal(k, grad, offset, dim1, dim2):
        return np.diagonal(grad, offset, dim1, dim2)

    def select_backward(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        result[_along(dim, index)] = grad
        return result

    def slice_backward(k, grad, shape, dim, start, end, step):
        result = k._zeros(grad, shape)
        result[_along(dim, slice(start, end, step))] = grad
        return result

    def index_backward(k, grad, shape, indices):
        result = k._zeros(grad, shape)
        np.add.at(result, indices, grad)
        return result

    def zero_at(k, grad, index):
        result = np.array(grad, copy=True)
        result[index] = 0
        return result

    def scatter_indices(k, grad, shape, dim, indices, keepdim):
        result = k._zeros(grad, shape)
        if not keepdim:
            grad = np.expand_dims(grad, dim)
            indices = np.expand_dims(indices, dim)
        np.put_along_axis(result, indices, grad, axis=dim)
        return result

    def prod_grad(k, grad, value, result, dim, keepdim):
        """grad · (result / value) as torch's prod_backward where no element is 0, else
        grad times the product of all the other elements (running products from both
        ends, kept in float64 for float32 as torch's cumprod keeps them)."""
        grad = k.restore_dims(grad, None if dim is None else (dim,), keepdim)
        if not (value == 0).any():
            return grad * (k.restore_dims(result, None if dim is None else (dim,), keepdim)
                           / value)
        axis = 0 if dim is None else dim
        flat = value.reshape(-1) if dim is None else value
        if flat.dtype in (np.float32, np.float16):
            flat = flat.astype(np.float64 if flat.dtype == np.float32 else np.float32)
        ones_shape = list(flat.shape)
        ones_shape[axis] = 1
        ones = np.ones(ones_shape, dtype=flat.dtype)
        before = np.cumprod(np.concatenate([ones, flat], axis=axis), axis=axis)
        before = np.take(before, range(flat.shape[axis]), axis=axis)
        flipped = np.flip(flat, axis=axis)
        after = np.cumprod(np.concatenate([ones, flipped], axis=axis), axis=axis)
        after = np.flip(np.take(after, range(flat.shape[axis]), axis=axis), axis=axis)
        before = before.astype(value.dtype)  # (each running product rounded, as torch's)
        after = after.astype(value.dtype)
        return grad * (before * after).reshape(value.shape)


# The elementwise functions of one tensor are declared once (_pointwise.unary); formulas call
# them as k.exp, k.sigmoid, ... (on tensors: _formula_tensors.py does the same)
for _name, _unary in UNARY.items():
    setattr(NumpyKit, _name, staticmethod(_unary.on_arrays))


NUMPY_KIT = NumpyKit()


def _fused_into(a, b, c, out) -> None:
    """One slice of a split fused multiply-add (_parallel.apply hands each core one), a
    float32 one straight into ``out``."""
    if out.dtype == np.float32:
        fused_multiply_add_float32(a, b, c, out=out)
    else:
        out[...] = fused_values(a, b, c)
