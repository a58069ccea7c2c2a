"""Strides as torch lays tensors out: a copy keeps a dense tensor's strides and a strided
one's order of dimensions, reductions are row-major, and convolutions, pools and resampling
keep an input's channels-last layout. (NumPy only: the engine's nodes use it before the
tensor exists.)"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided


def element_strides(data: np.ndarray) -> tuple[int, ...]:
    return tuple(step // data.itemsize for step in data.strides)


def torch_strides(data: np.ndarray) -> tuple[int, ...]:
    """``stride()``: NumPy's steps in elements; an empty array's, row-major as torch counts
    them (NumPy gives it zeros; a view's own order is not known then)."""
    return element_strides(data) if data.size else _row_major(data.shape)


def laid_like(grad: np.ndarray, leaf: np.ndarray) -> np.ndarray:
    """A leaf's first ``.grad``, copied: laid out as the leaf is when the leaf is dense (a
    channels-last weight gets a channels-last gradient), else row-major, as torch's
    AccumulateGrad lays it out."""
    if leaf.flags.c_contiguous or grad.shape != leaf.shape or \
            not dense(leaf.shape, element_strides(leaf)):
        return np.array(grad, order="C", copy=True, subok=True)  # (bfloat16's keeps its class)
    laid = like_input(np.asanyarray(grad, order="C"), leaf)
    return laid.copy() if laid is grad else laid  # (the .grad never shares the incoming one)


def like_input(data: np.ndarray, source: np.ndarray) -> np.ndarray:
    """``data``, computed row-major, laid out in ``source``'s order of dimensions (a copy
    where that differs), as torch's TensorIterator lays out an elementwise result."""
    if source.flags.c_contiguous or not data.flags.c_contiguous or data.ndim < 2 or \
            data.shape != source.shape:
        return data
    copy = empty_preserving(source, data.dtype)
    copy[...] = data
    return copy


def preserved(data: np.ndarray) -> np.ndarray:
    """A copy laid out as torch's preserve_format lays it out."""
    if data.flags.c_contiguous and (data.ndim < 2 or element_strides(data) == _row_major(
            data.shape)):
        return data.copy(order="C")
    copy = empty_preserving(data)
    copy[...] = data
    return copy


def empty_preserving(model: np.ndarray, dtype=None) -> np.ndarray:
    """An array of ``model``'s shape, laid out as torch's preserve_format lays out its copy:
    a dense model's strides exactly, a strided one's order of dimensions (torch's
    empty_like)."""
    dtype = model.dtype if dtype is None else np.dtype(dtype)
    strides = element_strides(model)
    if model.ndim < 2 or strides == _row_major(model.shape) or min(strides) < 0:
        return np.empty(model.shape, dtype)
    if dense(model.shape, strides):  # (channels-last, a permutation: its strides exactly)
        return as_strided(np.empty(model.size, dtype), model.shape,
                          [stride * dtype.itemsize for stride in strides])
    return empty_in_order(model.shape, dtype, dense_order(model.shape, strides))


def in_order(data: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    """A copy whose dimensions lie in memory in ``order`` (the outermost first)."""
    copy = empty_in_order(data.shape, data.dtype, order)
    copy[...] = data
    return copy


def empty_in_order(shape: tuple[int, ...], dtype, order: tuple[int, ...]) -> np.ndarray:
    """An array whose dimensions lie in memory in ``order`` (the outermost first)."""
    if order == tuple(range(len(shape))):
        return np.empty(shape, dtype)
    inverse = tuple(int(i) for i in np.argsort(order))
    return np.empty([shape[dim] for dim in order], dtype).transpose(inverse)


def memory_order(data: np.ndarray) -> tuple[int, ...]:
    """The dimensions of a dense array as they lie in memory, the outermost first."""
    strides = element_strides(data)
    return tuple(sorted(range(data.ndim), key=lambda dim: -strides[dim]))


def row_major(values: np.ndarray) -> np.ndarray:
    """``values`` with row-major strides, as torch's reductions give theirs (NumPy keeps a
    permuted input's order, and puts a dimension of one element anywhere)."""
    if values.ndim > 1 and element_strides(values) != _row_major(values.shape):
        return values.copy(order="C")
    return values


def _row_major(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def dense(shape: tuple[int, ...], strides: tuple[int, ...]) -> bool:
    """torch's non-overlapping and dense: the strides of some order of the dimensions laid
    out one after another (dimensions of one element in any place)."""
    required = 1
    for stride, size in sorted((s, n) for s, n in zip(strides, shape, strict=True) if n > 1):
        if stride != required:
            return False
        required *= size
    return True


def dense_order(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """torch's order for a strided tensor's copy: by stride, the innermost first (an
    insertion sort from the last dimension; a broadcast dimension, stride 0, compares with
    none; of equal strides the smaller size goes inside), returned outermost first."""

    def should_swap(inner: int, outer: int) -> int:
        a, b = strides[inner], strides[outer]
        if a == 0 or b == 0:
            return 0
        if a != b:
            return -1 if a < b else 1
        return 1 if shape[inner] > shape[outer] else 0

    order = list(range(len(shape) - 1, -1, -1))
    for i in range(1, len(order)):
        moving = i
        for before in range(i - 1, -1, -1):
            comparison = should_swap(order[before], order[moving])
            if comparison > 0:
                order[before], order[moving] = order[moving], order[before]
                moving = before
            elif comparison < 0:
                break
    return tuple(reversed(order))


CHANNELS_LAST = (0, 2, 3, 1)  # an (N, C, H, W) tensor's dimensions, outermost first


def channels_last_like(data: np.ndarray) -> bool:
    """torch's suggest_memory_format for a 4-d tensor: whether its strides put the channels
    innermost, then W, H and N (ambiguous ones, a 1x1 image or one channel, count as not)."""
    if data.ndim != 4 or data.size == 0:
        return False
    strides, shape = element_strides(data), data.shape
    if strides[1] == 0:
        return False
    smallest = 0
    for dim in (1, 3, 2, 0):
        if strides[dim] < smallest or (dim == 0 and smallest == strides[1]):
            return False
        smallest = strides[dim] * (shape[dim] if shape[dim] > 1 else 1)
    return True


def wants_channels_last(*sources: np.ndarray) -> bool:
    """Whether torch lays out a convolution's, pool's, norm's or resampling's result
    channels-last: when one of its 4-d sources is."""
    return any(channels_last_like(source) for source in sources)


def following(result: np.ndarray, *sources: np.ndarray) -> np.ndarray:
    """An op's new (N, C, H, W) result laid out channels-last when a source is, as torch's
    convolutions, pools, norms and resampling lay theirs out; row-major otherwise (copied
    only where it is not laid out so already)."""
    if result.ndim == 4 and wants_channels_last(*sources):
        return result if channels_last_like(result) else in_order(result, CHANNELS_LAST)
    return np.asarray(result, order="C")
