"""Strides as torch lays copies out: a dense tensor's kept, a strided one's order of
dimensions kept (NumPy only: the engine's nodes use it before the tensor exists)."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided


def element_strides(data: np.ndarray) -> tuple[int, ...]:
    return tuple(step // data.itemsize for step in data.strides)

def laid_like(grad: np.ndarray, leaf: np.ndarray) -> np.ndarray:
    """A leaf's first ``.grad``, copied: laid out as the leaf is when the leaf is dense (a
    channels-last weight gets a channels-last gradient), else row-major, as torch's
    AccumulateGrad lays it out."""
    if leaf.flags.c_contiguous or leaf.ndim < 2 or grad.shape != leaf.shape or \
            grad.dtype != leaf.dtype or \
            not dense(leaf.shape, element_strides(leaf)):
        return np.array(grad, order="C", copy=True)
    copy = preserved(leaf)
    copy[...] = grad
    return copy

def in_order(data: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    """A copy whose dimensions lie in memory in ``order`` (the outermost first)."""
    if order == tuple(range(data.ndim)):
        return data.copy(order="C")
    inverse = tuple(int(i) for i in np.argsort(order))
    return np.ascontiguousarray(data.transpose(order)).transpose(inverse)

def preserved(data: np.ndarray) -> np.ndarray:
    if data.ndim < 2:
        return data.copy(order="C")
    strides = element_strides(data)
    if strides == _row_major(data.shape):
        return data.copy(order="C")
    if dense(data.shape, strides):  # (channels-last, a permutation: its strides exactly)
        copy = as_strided(np.empty(data.size, data.dtype), data.shape, data.strides)
        copy[...] = data
        return copy
    if min(strides) < 0:
        return data.copy(order="C")
    return in_order(data, dense_order(data.shape, strides))

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
