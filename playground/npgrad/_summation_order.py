"""Reductions added in the order torch's CPU kernels add them (sums, products, softmax's sums,
norms, variances), where NumPy's own order gives other last bits."""

from __future__ import annotations

import math

import numpy as np

from . import _compiled
from ._cpu_threads import torch_threads
from ._kernel_exp import vector_floats
from ._numerics import fused_values

# at::internal::GRAIN_SIZE: a whole reduction of more elements than this is shared among
# torch's threads (its two-pass reduction), each adding its run of them as one row
GRAIN_SIZE = 32768
CASCADE_SUM_UP_TO = GRAIN_SIZE  # (a product past it: its split is not reproduced)
# Lanes of torch's sum vectors, measured on torch 2.13 (256-bit: 8 floats, 4 doubles; with
# these every sum of 0-32768 random elements matched torch's bit for bit).
SUM_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
ILP = 4  # vectors (or numbers) summed side by side in a row


def whole_sum(data: np.ndarray):
    """The sum of every element, added in the order torch adds them (past GRAIN_SIZE
    elements on torch.get_num_threads() threads: each thread's equal run, as at::parallel_for
    splits it, then the threads' totals), or None for dtypes whose order is not reproduced."""
    lanes = SUM_LANES.get(data.dtype)
    if lanes is None:
        return None
    flat = _in_memory_order(data)
    if flat.size <= GRAIN_SIZE:
        return _row_sum(flat, lanes)
    threads = torch_threads()
    if threads == 1:
        return _row_sum(flat, lanes)
    runs = min(threads, -(-flat.size // GRAIN_SIZE))
    length = -(-flat.size // runs)
    totals = np.zeros(threads, flat.dtype)  # (a slot per thread, unused ones zero)
    for run, start in enumerate(range(0, flat.size, length)):
        totals[run] = _row_sum(flat[start:start + length], lanes)
    return _row_sum(totals, lanes)


def _in_memory_order(data: np.ndarray) -> np.ndarray:
    """The elements as torch's iterator visits them: a transposed (permuted) contiguous
    array in the order they lie in memory; any other array in C order."""
    if data.ndim > 1 and not data.flags.c_contiguous and min(data.strides) > 0:
        order = sorted(range(data.ndim), key=lambda axis: -data.strides[axis])
        permuted = np.transpose(data, order)
        if permuted.flags.c_contiguous:
            return permuted.reshape(-1)
    return data.reshape(-1)


def _row_sum(flat: np.ndarray, lanes: int):
    """One row's sum as torch's cascade_sum adds it, into a zeroed output: by the C kernel
    (_row_sum.c) where it was built, else by its twins below (a row shorter than a vector:
    _scalar_sum's order, which the kernel follows too)."""
    kernels = _compiled.kernels
    if kernels is not None:
        return flat.dtype.type(kernels.row_sum(np.ascontiguousarray(flat), flat.itemsize))
    if flat.size < lanes:
        return _scalar_sum(flat.tolist(), flat.dtype.type)
    return _row_sum_twin(flat, lanes)


def _row_sum_twin(flat: np.ndarray, lanes: int):
    """_row_sum in NumPy: ILP vectors side by side, their rows added by ``_cascade`` (a row
    of at least one vector: shorter ones are _scalar_sum's)."""
    width = lanes
    vectors = flat.size // width
    rows = vectors // ILP
    used = rows * ILP * width
    # ILP vectors side by side; then the first, plus the vectors left over, plus the others,
    # one after another (a single running total of those rows)
    partial = _cascade(flat[:used].reshape(rows, ILP * width)).reshape(ILP, width) if rows \
        else np.zeros((ILP, width), flat.dtype)
    combined = _running_total(np.concatenate(
        (partial[:1], flat[used:vectors * width].reshape(-1, width), partial[1:])))
    # the elements past the last vector first, then the vector's lanes, one by one
    total = np.cumsum(np.concatenate((_zeros(flat.dtype, 1), flat[vectors * width:],
                                      combined)))[-1]
    return flat.dtype.type(total + flat.dtype.type(0))  # torch adds into a zeroed output


def _scalar_sum(values: list, number) -> np.generic:
    """whole_sum of fewer elements than a vector, one number at a time as the code below
    adds them: the first ILP side by side, then the first of those, the rest, and the other
    three (a float32 sum, done in float64 and rounded after each addition, is the float32
    sum: float64 holds its exact value to well past float32's rounding)."""
    side = values[:ILP] if len(values) >= ILP else [0.0] * ILP
    rest = values[ILP:] if len(values) >= ILP else values
    total = number(side[0])
    for value in (*rest, *side[1:], 0.0):  # (torch adds into a zeroed output last)
        total = number(total + value)
    return total


def last_dim_sums(data: np.ndarray):
    """Sums over the last dimension (at least one other, of two rows or more), each row added
    in the order torch's inner sum adds it, the order whole_sum reproduces for one row; None
    where that order is not reproduced (other dtypes)."""
    lanes = SUM_LANES.get(data.dtype)
    if lanes is None:
        return None
    size = data.shape[-1]
    columns = data.reshape(-1, size).T  # one column per row: the sums below run down them
    count = columns.shape[1]
    width = lanes if size >= lanes else 1
    vectors = size // width
    rows = vectors // ILP
    used = rows * ILP * width
    partial = _cascade(columns[:used].reshape(rows, ILP * width, count)).reshape(
        ILP, width, count) if rows else np.zeros((ILP, width, count), data.dtype)
    combined = _running_total(np.concatenate(
        (partial[:1], columns[used:vectors * width].reshape(-1, width, count), partial[1:])))
    total = combined[0] if width == 1 else np.cumsum(np.concatenate(
        (np.zeros((1, count), data.dtype), columns[vectors * width:], combined)), axis=0)[-1]
    return (total + data.dtype.type(0)).reshape(data.shape[:-1])


def dim_sums(data: np.ndarray, dims: tuple[int, ...]):
    """Sums over ``dims`` (sorted, non-negative, some of the dims) with them removed, added in
    torch's order where it is reproduced: C-contiguous float32/float64 data whose reduced
    dims, dims of size 1 aside, are one block (torch's inner sum of each row where none
    follow it, else its outer sum down the columns); None elsewhere."""
    if not dims or data.dtype not in SUM_LANES or not data.flags.c_contiguous or not data.size:
        return None
    kept = tuple(side for d, side in enumerate(data.shape) if d not in dims)
    sides = [(side, d in dims) for d, side in enumerate(data.shape) if side != 1]
    reduced = [index for index, (_, flag) in enumerate(sides) if flag]
    if not reduced:  # only dims of size 1: each value added to a zeroed result
        return data.reshape(kept) + data.dtype.type(0)
    first, last = reduced[0], reduced[-1]
    if last - first + 1 != len(reduced):
        return _around_kept(data, sides, reduced, kept)
    outer, count, inner = (math.prod(side for side, _ in part) for part in
                           (sides[:first], sides[first:last + 1], sides[last + 1:]))
    if inner == 1 and outer == 1:  # one row: torch's whole sum
        total = whole_sum(data)
        return None if total is None else np.asarray(total).reshape(kept)
    if inner == 1:
        return last_dim_sums(data.reshape(outer, count)).reshape(kept)
    if outer == 1:
        return _outer_sums(data.reshape(count, inner)).reshape(kept)
    columns = np.moveaxis(data.reshape(outer, count, inner), 0, -1)  # a slab per outer index
    return np.ascontiguousarray(np.moveaxis(_outer_sums(columns), -1, 0)).reshape(kept)


def _around_kept(data: np.ndarray, sides: list, reduced: list, kept: tuple):
    """Reduced dims before and after one block of kept ones (a batch norm's (0, 2, 3)): each
    inner row summed as torch's inner sum, then the rows of each outer index added to the
    result one after another (its loop over the outer dims). None for other patterns."""
    inner_from = next(index for index in range(len(sides)) if index not in reduced)
    kept_to = max(index for index in range(len(sides)) if index not in reduced)
    if reduced != [*range(inner_from), *range(kept_to + 1, len(sides))]:
        return None
    outer, middle, inner = (math.prod(side for side, _ in part) for part in
                            (sides[:inner_from], sides[inner_from:kept_to + 1],
                             sides[kept_to + 1:]))
    rows = last_dim_sums(data.reshape(outer * middle, inner)).reshape(outer, middle)
    return np.cumsum(rows, axis=0, dtype=data.dtype)[-1].reshape(kept)


def _outer_sums(data: np.ndarray) -> np.ndarray:
    """Sums down the columns of ``data`` (count, columns[, slabs]) in the order of torch's
    outer sum: in groups of 32 columns (4 where fewer than 8) the cascade of multi_row_sum;
    each column left over as row_sum adds it: the rows in fours, each of the four totals a
    cascade, the rows past the last four added to the first, then the other three."""
    lanes = SUM_LANES[data.dtype]
    count, columns, slabs = data.shape[0], data.shape[1], data.shape[2:]
    if count <= 4 and not slabs:  # a small batch's bias gradient: what the steps below come
        return few_rows_sum(data)  # to for four rows or fewer, without their 20 µs
    group = 4 * lanes if columns >= lanes else 4
    grouped = columns // group * group
    totals = [_cascade(data[:, :grouped])] if grouped else []
    if grouped < columns:
        rest = data[:, grouped:]
        fours = count // 4
        partial = _cascade(rest[:fours * 4].reshape(fours, -1, *slabs)).reshape(
            4, -1, *slabs) if fours else np.zeros((4,) + rest.shape[1:], data.dtype)
        first = _running_total(np.concatenate((partial[:1], rest[fours * 4:])))
        totals.append(_running_total(np.concatenate((first[None], partial[1:]))))
    return np.concatenate(totals) + data.dtype.type(0)


def few_rows_sum(rows: np.ndarray) -> np.ndarray:
    """_outer_sums of four rows or fewer: the groups' cascade is then one running total, and
    so is the left-over columns' (the first of the four totals zero below four rows: 0 + x
    is x but for a zero's sign, which the last + 0 makes positive either way)."""
    zero = rows.dtype.type(0)
    if not len(rows):
        return np.zeros(rows.shape[1], rows.dtype)
    total = rows[0]
    for row in rows[1:]:
        total = total + row
    return total + zero


def row_products(data: np.ndarray) -> np.ndarray | None:
    """The product of each row (the last axis) of a float32/float64 array as torch's
    vectorized reduction multiplies it: four vectors (SUM_LANES lanes) of running products
    over blocks of four vectors, those four multiplied in pairs, their lanes one by one,
    then the elements past the last block; None for other dtypes or a single product of
    more than CASCADE_SUM_UP_TO elements (torch's threads split it)."""
    lanes = SUM_LANES.get(data.dtype)
    if lanes is None or not data.size or data.ndim == 0 or \
            (data.size == data.shape[-1] and data.size > CASCADE_SUM_UP_TO):
        return None
    size = data.shape[-1]
    rows = data.reshape(-1, size)
    blocks = size // (4 * lanes)
    products = np.ones((len(rows), 1), data.dtype)
    if blocks:
        each = np.cumprod(rows[:, :blocks * 4 * lanes].reshape(len(rows), blocks, 4, lanes),
                          axis=1)[:, -1]
        paired = (each[:, 0] * each[:, 1]) * (each[:, 2] * each[:, 3])
        products = np.cumprod(paired, axis=1)[:, -1:]
    rest = np.concatenate((products, rows[:, blocks * 4 * lanes:]), axis=1)
    return np.ascontiguousarray(np.cumprod(rest, axis=1)[:, -1]).reshape(data.shape[:-1])




def _vector_bits() -> int:
    """The width of the vectors torch's softmax kernels use here: 512 bits where torch runs
    its AVX-512 build (16 floats a vector), else 256 (its AVX2 build, and its default one,
    whose vectors are 256 bits wide too)."""
    return 512 if vector_floats() == 16 else 256


# Lanes of torch's softmax kernels' vectors (vec::reduce_all), measured on torch 2.13 on an
# AVX-512 machine: 16 floats whose lanes are then added in halves (a tree), 8 doubles then
# added one by one; half as many with AVX2's 256-bit vectors.
SOFTMAX_LANES = {np.dtype(np.float32): _vector_bits() // 32,
                 np.dtype(np.float64): _vector_bits() // 64}
# Past this many terms a fused running sum (a Python step each) is two operations a step.
FUSED_STEPS_UP_TO = 1024


def softmax_sums(values: np.ndarray, axis: int, others: np.ndarray | None = None
                 ) -> np.ndarray:
    """Σ values (Σ values·others) along ``axis`` (kept as 1) as torch's softmax kernels add
    them: where ``axis`` is the last that is not 1, lane by lane in vectors, the lanes then
    summed; else one by one, each product fused into the running sum. Their sums start from
    +0: one of nothing but -0s is +0 (which decides the sign of a zero gradient)."""
    return _softmax_sums(values, axis, others) + values.dtype.type(0)


def _softmax_sums(values: np.ndarray, axis: int, others: np.ndarray | None = None
                  ) -> np.ndarray:
    terms = values if others is None else values * others
    lanes = SOFTMAX_LANES.get(values.dtype)
    if lanes is None or not values.size or values.ndim == 0:  # (a 0-d value is its own sum)
        return np.sum(terms, axis=axis if values.ndim else None, keepdims=True)
    size = values.shape[axis]
    shape = values.shape[:axis] + (1,) + values.shape[axis + 1:]
    if math.prod(values.shape[axis + 1:]) != 1:  # along an inner dimension: one by one
        if others is None or size > FUSED_STEPS_UP_TO:
            return np.cumsum(terms, axis=axis).take([-1], axis=axis)
        total = np.zeros(shape, values.dtype)
        for index in range(size):
            total = fused_values(values.take([index], axis=axis),
                                 others.take([index], axis=axis), total)
        return total
    rows = terms.reshape(-1, size)
    if size < lanes:  # fewer than a vector: its lanes one by one
        return np.cumsum(rows, axis=1)[:, -1].reshape(shape)
    whole = size // lanes * lanes
    total = np.cumsum(rows[:, :whole].reshape(len(rows), -1, lanes), axis=1)[:, -1]
    total[:, :size - whole] += rows[:, whole:]
    if values.dtype == np.float32:  # (vec_reduce_all's shuffles: half on half, again...)
        while total.shape[1] > 1:
            total = total[:, :total.shape[1] // 2] + total[:, total.shape[1] // 2:]
        return total.reshape(shape)
    return np.cumsum(total, axis=1)[:, -1].reshape(shape)


def softmax_values(data: np.ndarray, axis: int, exp, log=None) -> np.ndarray:
    """softmax (log_softmax with ``log``) along ``axis`` as torch's kernels: exp of the
    differences from the largest, over their sum (times its reciprocal along the last
    dimension); the log's: the differences less the log of that sum."""
    shifted = data - np.max(data, axis=axis, keepdims=True)
    exps = exp(shifted)
    total = softmax_sums(exps, axis)
    if log is not None:
        return shifted - log(total)
    if math.prod(data.shape[axis + 1:]) == 1 and data.dtype in SOFTMAX_LANES:
        return exps * (1 / total)
    return exps / total


def running_sums(data: np.ndarray, axis: int, target=None) -> np.ndarray:
    """cumsum along ``axis`` as torch's CPU kernel: a float32 (float16) running sum kept in
    float64 (float32), each step rounded back."""
    return _running(np.cumsum, data, axis, target)


def running_products(data: np.ndarray, axis: int, target=None) -> np.ndarray:
    """cumprod along ``axis`` as torch's CPU kernel, kept wide as ``running_sums``."""
    return _running(np.cumprod, data, axis, target)


def _running(scan, data: np.ndarray, axis: int, target) -> np.ndarray:
    """A running sum or product in torch's accumulation type (at::acc_type on the CPU)."""
    wide = {np.dtype(np.float32): np.float64, np.dtype(np.float16): np.float32}.get(
        data.dtype) if target is None else None
    if wide is None:
        return scan(data, axis=axis, dtype=target)
    return scan(data, axis=axis, dtype=wide).astype(data.dtype)


# Rows up to this long (2-norms over the last dims) are added as _short_norm_squares says,
# measured on torch 2.13 with AVX2 and AVX-512 (every row of 1-11 floats, 1-17 doubles the
# same bits); longer rows by the lanes below.
SHORT_NORM_UP_TO = {np.dtype(np.float32): 11, np.dtype(np.float64): 17}
_FUSED_BY_TORCH = vector_floats() > 1  # (torch's scalar build fuses none)


def _short_norm_squares(rows: np.ndarray, lanes: int) -> np.ndarray:
    """Σ x² of each row as torch's vectorised 2-norm adds a short row: each whole vector's
    squares in an accumulator of its own (at most four), those added one after another and
    their lanes one by one; then the elements left, four side by side (the first fused onto
    that total) and added in order, and any others fused on one at a time."""
    width = rows.shape[1]
    vectors = width // lanes
    total = np.zeros(len(rows), rows.dtype)
    if vectors:
        squares = rows[:, :vectors * lanes] * rows[:, :vectors * lanes]
        gathered = np.add.reduce(squares.reshape(len(rows), vectors, lanes), axis=1)
        total = np.cumsum(gathered, axis=1)[:, -1]
    rest = rows[:, vectors * lanes:]
    if rest.shape[1] >= 4:
        total = fused_values(rest[:, 0], rest[:, 0], total)
        for column in rest[:, 1:4].T:
            total = total + column * column
        rest = rest[:, 4:]
    for column in rest.T:
        total = fused_values(column, column, total)
    return total


def trailing_norm_squares(data: np.ndarray, axis) -> np.ndarray | None:
    """Σ x² over ``axis`` (None: all) as torch's 2-norm kernel adds them where the reduced
    dims are the last of a C-contiguous float32/float64 array: the squares summed lane by
    lane in vectors (SUM_LANES), the lanes one by one, then the squares past the last
    vector; None elsewhere."""
    lanes = SUM_LANES.get(data.dtype)
    dims = tuple(range(data.ndim)) if axis is None else tuple(sorted(axis))
    kept = data.ndim - len(dims)
    if lanes is None or not data.flags.c_contiguous or not data.size or \
            dims != tuple(range(kept, data.ndim)):
        return None
    rows = data.reshape(-1, math.prod(data.shape[kept:]))
    if rows.shape[1] <= SHORT_NORM_UP_TO[data.dtype] and _FUSED_BY_TORCH:
        return _short_norm_squares(rows, SUM_LANES[data.dtype]).reshape(data.shape[:kept])
    squares = rows * rows
    whole = rows.shape[1] // lanes * lanes
    total = np.cumsum(squares[:, :whole].reshape(len(rows), -1, lanes), axis=1)[:, -1] \
        if whole else np.zeros((len(rows), lanes), data.dtype)
    total = np.cumsum(np.concatenate((total, squares[:, whole:]), axis=1), axis=1)[:, -1]
    return total.reshape(data.shape[:kept])


# Up to this many elements per result a float64 variance runs Welford's steps one element
# at a time, as torch's kernel does (a Python step per element); past it NumPy's two passes.
WELFORD_UP_TO = 4096


def over_nothing(data: np.ndarray, dims, keepdim: bool, count: int = 0,
                  correction: float = 0.0) -> np.ndarray:
    """A mean over no elements, or a spread without degrees of freedom: torch's NaN or inf
    (0 / 0, squares / max(0, n - correction)), without NumPy's warnings (a catch_warnings
    resets Python's record of those shown: torch's would show twice)."""
    with np.errstate(all="ignore"):
        if not count:
            return np.asarray(np.sum(data, axis=dims, keepdims=keepdim) / data.dtype.type(0))
        deviations = data - np.sum(data, axis=dims, keepdims=True) / data.dtype.type(count)
        squares = np.sum(np.abs(deviations) ** 2, axis=dims, keepdims=keepdim)
        return np.asarray(squares / squares.dtype.type(max(0.0, count - correction)))


def variance_values(data: np.ndarray, dims, correction, keepdim: bool, root: bool,
                    mean) -> np.ndarray:
    """torch's var (std with ``root``) of float32 or float64 ``data`` over ``dims`` (None:
    all), in float64 rounded once. A single result as torch's std_var_all_cpu: the squared
    differences from ``mean`` (torch's mean of ``data``, a callable) added one by one in
    float64; several as its Welford kernel (float32's float64 rounds as NumPy's two passes
    do)."""
    axes = tuple(range(data.ndim)) if dims is None else dims
    count = math.prod(data.shape[d] for d in axes)
    shape = tuple(1 if d in axes else side for d, side in enumerate(data.shape)) if keepdim \
        else tuple(side for d, side in enumerate(data.shape) if d not in axes)
    wide = data.astype(np.float64)
    divisor = max(0.0, count - correction)
    with np.errstate(divide="ignore", invalid="ignore"):
        if data.size == count and count:
            difference = wide.reshape(-1) - np.float64(mean())
            variance = np.cumsum(difference * difference)[-1] / divisor
        elif data.dtype == np.float64 and 0 < count <= WELFORD_UP_TO and data.size:
            rows = np.moveaxis(wide, axes, tuple(range(-len(axes), 0))).reshape(-1, count)
            variance = _welford_m2(rows) / divisor
        else:
            variance = np.var(wide, axis=axes, ddof=correction)
        if root:
            variance = np.sqrt(variance)
    return np.asarray(variance, dtype=data.dtype).reshape(shape)


def _welford_m2(rows: np.ndarray) -> np.ndarray:
    """Σ (x - mean)² of each row by Welford's steps in torch's order (WelfordOps.reduce)."""
    mean = np.zeros(len(rows))
    m2 = np.zeros(len(rows))
    for index in range(rows.shape[1]):
        value = rows[:, index]
        delta = value - mean
        mean = mean + delta / float(index + 1)
        m2 = m2 + delta * (value - mean)
    return m2


def _zeros(dtype: np.dtype, width) -> np.ndarray:
    return np.zeros(width, dtype)


def _running_total(rows: np.ndarray) -> np.ndarray:
    """rows[0] + rows[1] + ... added one after another: NumPy adds along the first axis of a
    2-D array in order (it pairs numbers only along a contiguous last axis)."""
    return np.add.reduce(rows, axis=0)


def _cascade(rows: np.ndarray) -> np.ndarray:
    """Column sums of ``rows`` as torch's multi_row_sum adds them: blocks of ``step`` rows
    added in order; block totals gathered in a level that hands its total on every ``step``
    blocks, and that one every ``step`` of those (only numbers of a similar size meet)."""
    count, width = rows.shape[0], rows.shape[1:]  # (with a trailing axis: many at once)
    step = 1 << max(4, _ceil_log2(count) // 4)
    whole = count // step * step
    if not whole:  # a short row: one running total
        return _running_total(rows)
    total = _running_total(rows[whole:]) if whole < count else _zeros(rows.dtype, width)
    blocks = np.add.reduce(rows[:whole].reshape(-1, step, *width), axis=1)
    grouped = len(blocks) // step * step
    if grouped < len(blocks):
        total = total + _running_total(blocks[grouped:])
    if grouped:
        groups = np.add.reduce(blocks[:grouped].reshape(-1, step, *width), axis=1)
        regrouped = len(groups) // step * step
        if regrouped < len(groups):
            total = total + _running_total(groups[regrouped:])
        if regrouped:
            total = total + _running_total(np.add.reduce(
                groups[:regrouped].reshape(-1, step, *width), axis=1))
    return total


def _ceil_log2(value: int) -> int:
    return 0 if value <= 1 else (value - 1).bit_length()
