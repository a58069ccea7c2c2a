"""torch.autocast on the CPU, as the ops see it: whether it is on and to which dtype, the casts
it made of leaf weights (cached while it is on), and the two policies of torch's CPU autocast
lists: matrix products and convolutions in the lower precision (bfloat16 or float16), losses
and numerically sensitive ops in float32. Other ops compute in their inputs' dtype.

An op's policy is its decorator (``lower_precision``, ``full_precision``): while autocast is
off it costs a class attribute's read; while it is on, the op's floating arguments other than
float64 are cast (``Tensor.to``: torch's ToCopyBackward0 in the graph), and autocast is off
for the ops the op calls, as torch's dispatcher leaves its autocast key for them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from . import _dtype as dtypes


class AutocastState:
    """The CPU's autocast: on or off, its dtype, and the casts of leaf weights it cached."""

    cpu_enabled = False
    cpu_dtype = dtypes.bfloat16
    cuda_enabled = False  # (set by hand only: autocast to CUDA steps aside on this engine)
    nesting = 0  # the autocast regions open (the cached casts go with the last)
    cache_enabled = True
    cached: dict = {}  # id(leaf) -> (leaf, its cast): the leaf kept alive with its id


def _cast(value, target):
    """``value`` in ``target`` dtype where autocast casts it (a floating tensor other than
    float64); a list or tuple of them, each."""
    from ._tensor import Tensor

    if isinstance(value, list | tuple):
        return type(value)(_cast(v, target) for v in value)
    if not isinstance(value, Tensor) or not value.is_floating_point() or \
            value.dtype is dtypes.float64 or value.dtype is target:
        return value
    if AutocastState.cache_enabled and value.is_leaf and value.requires_grad:
        cached = AutocastState.cached.get(id(value))
        if cached is None or cached[0] is not value:
            cached = AutocastState.cached[id(value)] = (value, value.to(target))
        return cached[1]
    return value.to(target)


def _policy(target_of: Callable) -> Callable:
    def decorator(function: Callable) -> Callable:
        @functools.wraps(function)
        def autocast_op(*args, **kwargs):
            if not AutocastState.cpu_enabled:
                return function(*args, **kwargs)
            target = target_of()
            args = tuple(_cast(a, target) for a in args)
            kwargs = {k: _cast(v, target) for k, v in kwargs.items()}
            AutocastState.cpu_enabled = False
            try:
                return function(*args, **kwargs)
            finally:
                AutocastState.cpu_enabled = True

        return autocast_op

    return decorator


# matrix products, convolutions, attention: in autocast's dtype
lower_precision = _policy(lambda: AutocastState.cpu_dtype)
# losses, reductions and linear algebra that need float32's range: in float32
full_precision = _policy(lambda: dtypes.float32)


def entered(enabled: bool, dtype, cache_enabled: bool | None) -> tuple:
    """Autocast on (or off) for the CPU; what it was, for ``left``."""
    state = AutocastState
    before = (state.cpu_enabled, state.cpu_dtype, state.cache_enabled)
    state.cpu_enabled = enabled
    if dtype is not None:
        state.cpu_dtype = dtype
    if cache_enabled is not None:
        state.cache_enabled = cache_enabled
    return before


def left(before: tuple, outermost: bool) -> None:
    """Autocast as it was before ``entered``; the cached casts let go when none is open."""
    state = AutocastState
    state.cpu_enabled, state.cpu_dtype, state.cache_enabled = before
    if outermost:
        state.cached.clear()
