"""How torch lays out an op's result where NumPy would lay it out otherwise, for an input that
is not row-major (a transpose, a permute): row-major for reductions, scans, normalisations and
copies that torch makes contiguous; the input's order of dimensions for the elementwise ops
that torch runs through its TensorIterator and the engine computes row-major in compiled code.
``stride()``, ``is_contiguous()`` and whether ``view`` accepts the result depend on it."""

from __future__ import annotations

import numpy as np

from ._memory_formats import LAST_ORDERS, is_laid_out
from ._strides import CHANNELS_LAST, channels_last_like, following, in_order, like_input
from ._type_info import channels_last_3d

# (measured against torch 2.13 on permuted and transposed inputs)
ROW_MAJOR = frozenset((
    "softmax", "log_softmax", "layer_norm", "log_sigmoid",
    "rrelu_with_noise", "cumsum", "cumprod", "logcumsumexp", "var", "std", "amax", "amin",
    "prod_dim", "max_dim", "min_dim", "logsumexp", "norm", "norm_dim", "masked_fill",
    "tril", "triu", "gather", "repeat", "renorm"))
# channels-last when the input is (torch's suggest_memory_format), else row-major
SUGGESTED = frozenset(("batch_norm", "group_norm", "roll"))
INPUTS_ORDER = frozenset(("gelu", "lerp", "lerp_tensor", "addcmul", "sort", "flip"))
LAID_OUT = ROW_MAJOR | SUGGESTED | INPUTS_ORDER | {"cat", "stack"}


def as_torch_lays_out(op: str, data: np.ndarray, inputs: tuple, saved: tuple) -> np.ndarray:
    """``data``, the result of ``op`` (one of LAID_OUT), laid out as torch's result is
    (``saved``: what the op's node saves, a stack's dimension first)."""
    if op == "cat" or op == "stack":
        return _concatenated(data, inputs, op == "stack" and saved[0] == 0)
    if op in ROW_MAJOR:
        return np.asarray(data, order="C")  # (copied only where it is not)
    if op in SUGGESTED:
        return following(data, inputs[0]._data)
    source = next((t._data for t in inputs if t is not None and t._data.shape == data.shape),
                  None)
    return data if source is None else like_input(data, source)


def _concatenated(data: np.ndarray, inputs: tuple, stacked_first: bool) -> np.ndarray:
    """torch's cat keeps channels-last (or channels-last-3d) when every input has it, else
    makes a row-major result; its stack of such images along a new first dimension keeps
    each one's layout (NumPy's stack does the same; along other dimensions neither is
    followed here)."""
    orders = {_last_order(t._data) for t in inputs}
    order = orders.pop() if len(orders) == 1 else None
    if order is not None:
        if stacked_first:
            return data
        return data if _last_order(data) == order else in_order(data, order)
    return np.asarray(data, order="C")  # (copied only where it is not)


def _last_order(data: np.ndarray) -> tuple[int, ...] | None:
    """The channels-last order of dimensions ``data`` lies in, or None."""
    if data.ndim == 4:
        return CHANNELS_LAST if channels_last_like(data) else None
    if data.ndim == 5 and not data.flags.c_contiguous and is_laid_out(data, channels_last_3d):
        return LAST_ORDERS[channels_last_3d]
    return None
