"""torch's ``*_like`` factories: the input's shape and dtype, and its layout (a channels-last
input gives a channels-last result, unless ``memory_format`` says otherwise), random values
drawn in memory order as torch draws them into such a layout."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from . import _factories, _random
from ._memory_formats import LAST_ORDERS, check_rank
from ._strides import empty_in_order, empty_preserving, memory_order
from ._tensor import Tensor
from ._type_info import contiguous_format, preserve_format


def _layout(input: Tensor, memory_format, dtype) -> np.ndarray | None:
    """An empty array laid out as torch lays out the result, or None for row-major (most)."""
    data = input._data
    if memory_format is None or memory_format is preserve_format:
        return None if data.flags.c_contiguous else empty_preserving(data, dtype)
    if memory_format is contiguous_format:
        return None
    check_rank(data, memory_format)
    return empty_in_order(data.shape, dtype, LAST_ORDERS[memory_format])


def _laid_out(made: Tensor, input: Tensor, memory_format) -> Tensor:
    """``made`` (row-major) with its values moved into the input's layout."""
    out = _layout(input, memory_format, made._data.dtype)
    if out is not None:
        out[...] = made._data
        made._data = out
    return made


def _drawn_in_memory_order(made: Tensor, input: Tensor, memory_format,
                           out: np.ndarray | None = None) -> Tensor:
    """``made``'s values, drawn one after another, placed in the layout's memory order
    (``out``: that layout, where the caller has already made it)."""
    if out is None:
        out = _layout(input, memory_format, made._data.dtype)
    if out is not None:
        order = memory_order(out)
        place = out.transpose(order)
        place[...] = made._data.reshape(place.shape)
        made._data = out
    return made


def _options(input: Tensor, dtype, device, requires_grad) -> dict:
    return {"dtype": dtype or input.dtype, "device": device, "requires_grad": requires_grad}


def zeros_like(input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    made = _factories.zeros(tuple(input.shape), **_options(input, dtype, device, requires_grad))
    return _laid_out(made, input, memory_format)


def ones_like(input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    made = _factories.ones(tuple(input.shape), **_options(input, dtype, device, requires_grad))
    return _laid_out(made, input, memory_format)


def empty_like(input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad,
                      memory_format=memory_format)


def full_like(input: Tensor, fill_value, *, dtype=None, layout=None, device=None,
              requires_grad=False, memory_format=None) -> Tensor:
    made = _factories.full(tuple(input.shape), fill_value,
                           **_options(input, dtype, device, requires_grad))
    return _laid_out(made, input, memory_format)


def rand_like(input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None) -> Tensor:
    made = _factories.rand(tuple(input.shape), **_options(input, dtype, device, requires_grad))
    return _drawn_in_memory_order(made, input, memory_format)


def randint_like(input: Tensor, low=0, high=None, *, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None) -> Tensor:
    if high is None:
        low, high = 0, low
    made = _factories.randint(low, high, tuple(input.shape),
                              **_options(input, dtype, device, requires_grad))
    return _drawn_in_memory_order(made, input, memory_format)


def randn_like(input: Tensor, *, dtype=None, layout=None, device=None, requires_grad=False,
               memory_format=None) -> Tensor:
    """Into a layout that is not row-major torch draws one number at a time (its Box-Muller
    pairs), not sixteen at a time as into a row-major tensor."""
    options = _options(input, dtype, device, requires_grad)
    if options["dtype"] is dtypes.bfloat16:  # (its draws: randn's, _random.py)
        return _factories.randn(tuple(input.shape), **options)
    target = np.dtype(options["dtype"].numpy)
    out = _layout(input, memory_format, target)
    if out is None or target.kind != "f":
        return _factories.randn(tuple(input.shape), **options)
    values = _random.normals(_random.chosen(None), input._data.size, target, contiguous=False)
    made = _factories.tensor(values.reshape(tuple(input.shape)), dtype=options["dtype"],
                             requires_grad=requires_grad)
    return _drawn_in_memory_order(made, input, memory_format, out)
