"""Where a view's elements lie in its base's memory: what torch's as_strided views of a base
(CopySlices, a view regenerated after a write) are made of; and the strides torch gives a
new dimension of size 1."""

from __future__ import annotations

import numpy as np


def positions_in(view: np.ndarray, base: np.ndarray) -> np.ndarray | None:
    """Where each element of ``view`` lies in ``base`` (flat, C order), in the view's shape;
    None when the view's memory is not the base's."""
    if not np.shares_memory(view, base):
        return None
    if base.flags.c_contiguous:  # (most bases: a place is its distance from the start)
        start = base.__array_interface__["data"][0]
        return (addresses(view) - start) // base.itemsize
    places = addresses(base).reshape(-1)
    order = np.argsort(places, kind="stable")
    wanted = addresses(view)
    found = np.searchsorted(places[order], wanted)
    found = order[np.minimum(found, places.size - 1)]
    if not np.array_equal(places[found], wanted):
        return None
    return found


def addresses(array: np.ndarray) -> np.ndarray:
    """Each element's memory address (bytes), in the array's shape."""
    result = np.full(array.shape, array.__array_interface__["data"][0], dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(array.shape, array.strides, strict=True)):
        shape = [1] * array.ndim
        shape[axis] = size
        result += (np.arange(size, dtype=np.int64) * stride).reshape(shape)
    return result


def with_torch_step(data: np.ndarray, dim: int) -> np.ndarray:
    """``data`` with a new dimension of size 1 at ``dim``, given the step torch gives it (its
    ``stride()``): the next dimension's whole extent, or one element at the end."""
    step = data.itemsize if dim == data.ndim - 1 else data.strides[dim + 1] * data.shape[dim + 1]
    if data.strides[dim] == step:
        return data
    strides = (*data.strides[:dim], step, *data.strides[dim + 1:])
    return np.lib.stride_tricks.as_strided(data, strides=strides,
                                           writeable=data.flags.writeable)
