"""torch.func.vmap: the function called once per sample of its mapped inputs, the results
stacked (the same values as torch's batched call) and their graphs joined into the batched
call's graph (``_batched_graph``).

``in_dims`` may follow the inputs' structure (a dict of dims for a dict input, None for an
input or a part of one that is not mapped). ``randomness`` is torch's: "error" refuses a
random draw inside the function, "same" gives every sample the same draws (the generator
then stands where one unbatched call leaves it), "different" draws anew for each sample.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable

import numpy as np

from ._batched_graph import Joiner, UnjoinableError
from ._nodes import edge_of
from ._random import Draws, default_generator
from ._shapes import stack
from ._tensor import Tensor

RANDOMNESS_ERROR = ("vmap: called random operation while in randomness error mode. Please "
                    "either use the 'same' or 'different' randomness flags on vmap or perform "
                    "the randomness operation out of vmap")


def vmap(func: Callable, in_dims=0, out_dims=0, randomness: str = "error", *,
         chunk_size: int | None = None):
    """``func`` mapped over a dimension of its inputs."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError("Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")

    @functools.wraps(func)
    def mapped(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, tuple | list) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(...)(<inputs>): in_dims is not compatible with the structure "
                             f"of `inputs`. in_dims has structure {len(dims)} but inputs has "
                             f"structure {len(args)}.")
        size = _batch_size([pair for a, d in zip(args, dims, strict=True)
                            for pair in _leaves(a, d)])
        joiner = Joiner()
        fronted = [_each(a, d, _fronted) for a, d in zip(args, dims, strict=True)]
        results = _calls(func, fronted, dims, kwargs, size, joiner, randomness)
        return _stacked(results, out_dims, joiner)

    return mapped


def _calls(func, fronted: list, dims, kwargs: dict, size: int, joiner: Joiner,
           randomness: str) -> list:
    """The function on each sample, its random draws as ``randomness`` says."""
    start = default_generator.state_bytes() if randomness == "same" else None
    refusal = RANDOMNESS_ERROR if randomness == "error" else None
    results = []
    for index in range(size):
        if start is not None and index:
            default_generator.restore(start)
        with _draws_refused(refusal):
            results.append(func(*_slices(fronted, dims, index, joiner), **kwargs))
    return results


@contextlib.contextmanager
def _draws_refused(refusal: str | None):
    before, Draws.refusal = Draws.refusal, refusal or Draws.refusal
    try:
        yield
    finally:
        Draws.refusal = before


def _leaves(value, spec) -> list:
    """(tensor, dim) for each mapped tensor in ``value``, ``spec`` its dims: an int or None
    for all of it, or the same structure as ``value``."""
    found = []
    _each(value, spec, lambda tensor, dim: found.append((tensor, dim)) or tensor)
    return found


def _each(value, spec, change: Callable):
    """``value`` with each mapped tensor replaced by ``change(tensor, dim)``."""
    if spec is None:
        return value
    if isinstance(value, dict):
        return {key: _each(item, spec[key] if isinstance(spec, dict) else spec, change)
                for key, item in value.items()}
    if isinstance(value, tuple | list):
        specs = spec if isinstance(spec, tuple | list) else (spec,) * len(value)
        return type(value)(_each(item, part, change)
                           for item, part in zip(value, specs, strict=True))
    return change(value, spec) if isinstance(value, Tensor) else value


def _batch_size(pairs: list) -> int:
    sizes = [tensor.shape[dim] for tensor, dim in pairs]
    if not sizes:
        raise ValueError("vmap(f, in_dims=..., ...)(<inputs>): at least one input must be "
                         "mapped over (got in_dims with no mapped tensor)")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sizes} for the mapped dimension")
    return sizes[0]


def _fronted(tensor, dim: int):
    """The tensor with its mapped dimension first (torch's vmap moves it so: a permute)."""
    return tensor if dim in (0, -tensor.dim()) else tensor.movedim(dim, 0)


def _slices(fronted: list, dims, index: int, joiner: Joiner) -> list:
    """Sample ``index`` of each mapped input (its mapped dimension moved to the front)."""
    def cut(tensor, dim):
        row = tensor.select(0, index)
        joiner.note_slice(row.grad_fn, index)
        return row

    return [_each(a, d, cut) for a, d in zip(fronted, dims, strict=True)]


def _stacked(results: list, out_dims, joiner: Joiner):
    """The calls' results stacked along ``out_dims`` (matching their structure: tuples, lists
    and dicts of tensors; ``None`` keeps a result unbatched, as the first call gave it)."""
    first = results[0]
    if out_dims is None:
        return first
    if isinstance(first, tuple | list):
        dims = out_dims if isinstance(out_dims, tuple | list) else (out_dims,) * len(first)
        return type(first)(_stacked([r[k] for r in results], dims[k], joiner)
                           for k in range(len(first)))
    if isinstance(first, dict):
        return {key: _stacked([r[key] for r in results],
                              out_dims[key] if isinstance(out_dims, dict) else out_dims, joiner)
                for key in first}
    if not isinstance(first, Tensor):
        raise ValueError(f"vmap(f, ...): `f` must only return Tensors, got type {type(first)}. "
                         "Did you mean to set out_dims= to None for output?")
    if any(r.requires_grad for r in results):
        with contextlib.suppress(UnjoinableError):
            return _batched(results, out_dims, joiner)
    return stack(results, dim=out_dims)


def _batched(results: list, out_dims: int, joiner: Joiner):
    """The results side by side with the batched graph's node as their grad_fn (then moved
    to ``out_dims``, as torch's vmap moves its batch dimension: PermuteBackward0)."""
    node = joiner.root(tuple(edge_of(r) for r in results))
    joined = Tensor._make(np.stack([r._data for r in results]), node)
    return joined if out_dims in (0, -joined.dim()) else joined.movedim(0, out_dims)
