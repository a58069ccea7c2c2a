"""A row's mean and variance as torch's CPU layer and group norms compute them in float32
(its RowwiseMoments): Welford's steps over vectors of 8 floats (each lane its own running
mean), 16 vectors a chunk, chunks merged pairwise by a carry stack, then the leftover
elements one by one and the 8 lanes merged into them. Which steps round once (a fused
multiply-add) and which twice is what torch's AVX2 and AVX-512 builds do, found by
comparing every candidate with torch row by row: none of 399 rows 1 to 5,000 wide differs;
where the chunks are more than one and not a power of two in number (a row 300 or 1,100
wide), 2 or 3 rows in 400 get a variance a few ulps above torch's, which no candidate
removed. The C kernel (_row_moments.c) takes the same steps row by row; the NumPy code
here is its twin, all rows at once: NumPy works across rows, Python steps along them."""

from __future__ import annotations

import numpy as np

from . import _compiled
from ._kernel_exp import _VECTOR_FLOATS
from ._numerics import fused_multiply_add_float32 as _fma

LANES = 8  # (the kernel's vectors hold 8 floats in torch's AVX-512 build too)
CHUNK = 16  # vectors a chunk
_F32 = np.float32


def rowwise_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean and the biased variance of each row of a float32 (M, N) array, N > 0: by
    the C kernel (_row_moments.c) where it was built, else by its twin below."""
    kernels = _compiled.kernels
    if kernels is None:
        return twin_rowwise_moments(rows)
    mean, variance = np.empty(rows.shape[0], _F32), np.empty(rows.shape[0], _F32)
    kernels.row_moments_f32(np.ascontiguousarray(rows, _F32), rows.shape[1], mean, variance)
    return mean, variance


def twin_rowwise_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rowwise_moments in NumPy, all rows at once, step by step along them."""
    count, length = rows.shape
    vectors = length // LANES
    level_stack = _merged_chunks(rows, vectors) if vectors else None
    m0, m1, m2 = _leftovers(rows[:, vectors * LANES:], count)
    if level_stack is not None:
        lane_means, lane_squares = (np.ascontiguousarray(part.T) for part in level_stack[1:])
        for lane in range(LANES):
            m0, m1, m2 = _merge_one(vectors, lane_means[lane], lane_squares[lane], m0, m1, m2)
    return m1, (m2 / _F32(length)).astype(_F32)


def _merged_chunks(rows: np.ndarray, vectors: int) -> tuple:
    """Each lane's (count, mean, M2) over the rows' whole vectors, merged as torch's carry
    stack merges its chunks: in pairs, level by level (every pair of a level at once), and
    what a level leaves over merged at the end, from the lowest level up."""
    lanes = rows[:, :vectors * LANES].reshape(rows.shape[0], vectors, LANES)
    whole = vectors // CHUNK
    parts = []
    if whole:
        parts.append(_welford_chunk(lanes[:, :whole * CHUNK].reshape(
            rows.shape[0], whole, CHUNK, LANES)))
    if vectors % CHUNK:
        parts.append(_welford_chunk(lanes[:, whole * CHUNK:, None].swapaxes(1, 2)))
    counts = np.array([CHUNK] * whole + [vectors % CHUNK] * (vectors % CHUNK > 0))
    mean = np.concatenate([part[0] for part in parts], axis=1)
    square = np.concatenate([part[1] for part in parts], axis=1)
    left_over = []
    while len(counts) > 1:
        if len(counts) % 2:
            left_over.append((int(counts[-1]), mean[:, -1], square[:, -1]))
            counts, mean, square = counts[:-1], mean[:, :-1], square[:, :-1]
        counts, mean, square = _merge_vectors(counts[1::2], mean[:, 1::2], square[:, 1::2],
                                              counts[0::2], mean[:, 0::2], square[:, 0::2])
    merged = (int(counts[0]), mean[:, 0], square[:, 0])
    if left_over:  # (level 0's first: the stack's bottom, which the others merge into)
        merged, *higher = left_over + [merged]
        for part in higher:
            merged = _merge_vectors(*part, *merged)
    return merged


def _welford_chunk(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welford's steps along the chunks' vectors ((rows, chunks, steps, lanes)), every chunk
    and lane at once, both updates fused: each chunk's mean and M2 (rows, chunks, lanes)."""
    mean = np.zeros((vectors.shape[0], vectors.shape[1], LANES), _F32)
    square = mean
    for step in range(vectors.shape[2]):
        value = np.ascontiguousarray(vectors[:, :, step])
        delta = value - mean
        mean = _fused(delta, _F32(1) / _F32(step + 1), mean)
        square = _fused(delta, value - mean, square)
    return mean, square


def _merge_vectors(count_add, mean_add, square_add, count, mean, square) -> tuple:
    """Chan's merge of lane sets into others, as torch's AddMomentsVec rounds it: one set
    (counts are numbers) or a level's pairs at once (counts are arrays, one a pair)."""
    total = np.asarray(count + count_add)
    share = np.asarray(count_add, _F32) / np.maximum(total, 1).astype(_F32)
    weight = (share * np.asarray(count, _F32)).astype(_F32)
    if share.ndim:  # (a level's pairs: one share a pair, across rows and lanes)
        share, weight = share[None, :, None], weight[None, :, None]
    delta = mean_add - mean
    mean = (mean + (share * delta).astype(_F32)).astype(_F32)
    square = _fused(delta, (delta * weight).astype(_F32), (square + square_add).astype(_F32))
    return (total if total.ndim else int(total)), mean, square


def _leftovers(rest: np.ndarray, count: int) -> tuple:
    """Welford's steps over the elements past the last whole vector, one at a time."""
    mean = np.zeros(count, _F32)
    square = mean
    for step in range(rest.shape[1]):
        value = rest[:, step]
        delta = value - mean
        mean = (mean + delta / _F32(step + 1)).astype(_F32)
        square = (square + delta * (value - mean)).astype(_F32)
    return rest.shape[1], mean, square


def _merge_one(count_add: int, mean_add, square_add, count: int, mean, square) -> tuple:
    """A lane merged into the running (count, mean, M2), as torch's scalar AddMoments."""
    total = count + count_add
    share = _F32(0) if total == 0 else _F32(count_add) / _F32(total)
    delta = (mean_add - mean).astype(_F32)
    mean = _fused(share, delta, mean)
    spread = ((delta * delta).astype(_F32) * share).astype(_F32)
    square = (square + _fused(spread, _F32(count), square_add)).astype(_F32)
    return total, mean, square


def _fused(a, b, c) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, straight to the C kernel where it was built: the
    operands here are row-major float32 arrays of ``c``'s shape, or single float32 numbers
    (``a`` and ``b``)."""
    kernels = _compiled.kernels
    if kernels is None:
        return _fma(a, b, c)
    out = np.empty(c.shape, _F32)
    kernels.fma_f32(a, b, c, out)
    return out


def reproduces(data: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None) -> bool:
    """Whether this module gives torch's bits for a norm of these operands: a non-empty
    float32 input, float32 weight and bias or none, and torch on its AVX2 or AVX-512
    kernels (its scalar build rounds otherwise)."""
    return data.dtype == _F32 and data.size > 0 and _VECTOR_FLOATS > 1 and all(
        part is None or part.dtype == _F32 for part in (weight, bias))


def layer_norm_float32(data: np.ndarray, width: int, weight, bias, eps: float) -> tuple:
    """torch's float32 layer norm of ``data`` over its last ``width`` elements: the result,
    and each row's mean and 1/std (flat, one a row). Where neither
    weight nor bias is given, or only one, torch's scalar loop runs, which its compiler
    split by case: without weight the shift by bias is fused into the scaling."""
    rows = np.ascontiguousarray(data, _F32).reshape(-1, width)
    mean, variance = rowwise_moments(rows)
    rstd = (_F32(1) / np.sqrt((variance + _F32(eps)).astype(_F32))).astype(_F32)
    kernels = _compiled.kernels
    if kernels is None:
        result = _normalized_rows(rows, mean, rstd, weight, bias)
    else:  # (the same steps in C, one pass)
        result = np.empty(rows.shape, _F32)
        kernels.layer_norm_rows_f32(rows, width, mean, rstd, _flat(weight), _flat(bias),
                                    result)
    return result.reshape(data.shape), mean, rstd


def _flat(values: np.ndarray | None) -> np.ndarray | None:
    return None if values is None else np.ascontiguousarray(values, _F32).reshape(-1)


def _normalized_rows(rows: np.ndarray, mean, rstd, weight, bias) -> np.ndarray:
    """layer_norm_rows_f32's twin: the rows normalised, scaled and shifted."""
    centred = (rows - mean[:, None]).astype(_F32)
    spread = np.broadcast_to(rstd[:, None], rows.shape)
    shift = _F32(0) if bias is None else np.broadcast_to(bias.reshape(-1), rows.shape)
    if weight is None:
        result = _fma(centred, spread, shift)
    else:
        scaled = (centred * spread).astype(_F32)
        result = _fma(scaled, np.broadcast_to(weight.reshape(-1), rows.shape), shift)
    return result


def group_norm_float32(data: np.ndarray, groups: int, weight, bias, eps: float) -> tuple:
    """torch's float32 group norm of a row-major (N, C, ...) array: the result, and each
    (sample, group)'s mean and 1/std ((N, groups)); 1/std worked out in double, as torch's
    kernel does, and the scale and shift per channel folded into one fused step."""
    samples, channels = data.shape[0], data.shape[1]
    rows = data.reshape(samples * groups, -1)
    mean, variance = rowwise_moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(variance, _F32(0)).astype(np.float64) + eps)).astype(_F32)
    mean, rstd = mean.reshape(samples, groups), rstd.reshape(samples, groups)
    per_channel = np.repeat(np.arange(groups), channels // groups)
    spread = (samples, channels) + (1,) * (data.ndim - 2)
    if weight is None and bias is None:
        centred = (data - mean[:, per_channel].reshape(spread)).astype(_F32)
        return (centred * rstd[:, per_channel].reshape(spread)).astype(_F32), mean, rstd
    scale = rstd[:, per_channel] if weight is None else (rstd[:, per_channel] * weight)
    scale = scale.astype(_F32)
    base = np.zeros(channels, _F32) if bias is None else bias
    shift = _fma(-scale, mean[:, per_channel], np.broadcast_to(base, scale.shape))
    full = data.shape
    return (_fma(data, np.broadcast_to(scale.reshape(spread), full),
                 np.broadcast_to(shift.reshape(spread), full)), mean, rstd)
