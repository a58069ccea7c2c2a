"""``torch.histogram`` and ``torch.histogramdd``: counts (or summed weights) of values in bins
given as a count over a range or as edges, with torch's checks in its order, its edges
(linspace in the input's dtype) and its way of finding a value's bin, so that values on an
edge land where torch puts them. Not differentiable: torch records a NotImplemented node."""

from __future__ import annotations

import builtins

import numpy as np

from . import _numerics
from ._bindings import binds
from ._dtype_checks import _c as c_type_name
from ._recording import record_several
from ._reductions import _return_type
from ._summation_order import whole_sum
from ._tensor import Tensor

_make = Tensor._make
return_histogram = _return_type("histogram", ("hist", "bin_edges"))
return_histogramdd = _return_type("histogramdd", ("hist", "bin_edges"))


@binds("histogram")
def histogram(input: Tensor, bins=100, *, range=None, weight=None, density: bool = False):
    """A 1-D histogram of every element of ``input``; ``bins`` a count or a tensor of edges."""
    weight = None if weight is None else weight.reshape(-1)
    counts, edges = _histogram(input.reshape(-1, 1), [bins], range, weight, density,
                               "torch.histogram()")
    hist, edge = _make(np.ascontiguousarray(counts)), _make(edges[0])
    record_several("histogram", [hist, edge], (input, weight), ())
    return return_histogram(hist, edge)


@binds("histogramdd", method=False)
def histogramdd(input: Tensor, bins=10, *, range=None, weight=None, density: bool = False):
    """A histogram over the innermost dimension's D coordinates of each row of ``input``."""
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    dims = input.shape[-1]
    if isinstance(bins, int):
        bins = [bins] * dims
    if len(bins) != dims:
        if isinstance(bins[0], Tensor):
            raise RuntimeError(f"torch.histogramdd: expected {dims} sequences of bin edges for "
                               f"a {dims}-dimensional histogram but got {len(bins)}")
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    if weight is not None and tuple(weight.shape) != tuple(input.shape[:-1]):
        _refuse_weight_shape(input, weight)
    rows = input.reshape(-1, dims)
    flat_weight = None if weight is None else weight.reshape(-1)
    counts, edges = _histogram(rows, list(bins), range, flat_weight, density, "torch.histogram()")
    hist = _make(np.ascontiguousarray(counts))
    if isinstance(bins[0], Tensor):  # the user's own edge tensors come back
        record_several("_histogramdd_from_bin_tensors", [hist], (input, weight), ())
        return return_histogramdd(hist, tuple(bins))
    record_several("_histogramdd_from_bin_cts", [hist], (input, weight), ())
    edge_tensors = [_make(edge) for edge in edges]
    record_several("_histogramdd_bin_edges", edge_tensors, (input, weight), ())
    return return_histogramdd(hist, tuple(edge_tensors))


def _histogram(rows: Tensor, bins: list, range, weight, density, bins_caller):
    """The counts and the edges (arrays) of the rows' histogram, after torch's checks."""
    data = rows._data
    if isinstance(bins[0], Tensor):
        edges = _given_edges(data, bins, weight)
    else:
        edges = _even_edges(data, bins, range, weight, bins_caller)
    counts = _count(data, edges, weight, evenly=not isinstance(bins[0], Tensor))
    if density:
        total = whole_sum(counts)
        counts = counts / counts.dtype.type(counts.sum() if total is None else total)
        for dim, edge in enumerate(edges):
            along = [-1 if d == dim else 1 for d in builtins.range(len(edges))]
            counts = counts / np.diff(edge).reshape(along)
    return counts, edges


def _given_edges(data, bins, weight) -> list:
    """The user's edge tensors, checked as torch checks them."""
    for dim, edge in enumerate(bins):
        if edge._data.dtype != data.dtype:
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the "
                               f"same dtype, but got input with dtype {c_type_name(_of(data))} "
                               f"and bins for dimension {dim} with dtype "
                               f"{c_type_name(edge)}")
        if edge.dim() != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but "
                               f"got {edge.dim()} dimensions in the bins tensor for dimension "
                               f"{dim}")
        if edge.numel() == 0:
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               "but got 0 elements in the bins tensor for dimension "
                               f"{dim}")
    _check_weight(data, weight)
    _check_dtype(data, "histogram_cpu")
    return [edge._data for edge in bins]


def _even_edges(data, bins, range, weight, bins_caller) -> list:
    """``bins[d] + 1`` evenly spaced edges over the range (or the data's extremes), as torch's
    linspace in the input's dtype; a range of one point widened by half a unit each side."""
    dims = len(bins)
    for dim, count in enumerate(bins):
        if count <= 0:
            raise RuntimeError(f"{bins_caller}: bins must be > 0, but got {count} for "
                               f"dimension {dim}")
    if range is not None and len(range) != 2 * dims:
        raise RuntimeError(f"torch.histogramdd: for a {dims}-dimensional histogram range "
                           f"should have {2 * dims} elements, but got {len(range)}")
    if range is not None:
        extremes = [(float(range[2 * d]), float(range[2 * d + 1])) for d in builtins.range(dims)]
        for dim, (low, high) in enumerate(extremes):
            _check_extremes(dim, low, high)
    _check_dtype(data, "histogramdd")
    if range is None:
        extremes = [(float(data[:, d].min()), float(data[:, d].max())) if data.size else
                    (0.0, 1.0) for d in builtins.range(dims)]
        for dim, (low, high) in enumerate(extremes):
            _check_extremes(dim, low, high)
    _check_weight(data, weight)
    return [_numerics.linspace(*_widened(low, high), count + 1, data.dtype)
            for (low, high), count in zip(extremes, bins, strict=True)]



def _widened(low: float, high: float) -> tuple[float, float]:
    return (low - 0.5, high + 0.5) if low == high else (low, high)


def _check_extremes(dim: int, low: float, high: float) -> None:
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{_c_number(low)} max {_c_number(high)} for dimension {dim}")
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_c_number(low)}, "
                           f"{_c_number(high)}] is not finite")


def _c_number(value: float) -> str:
    """A double as C++'s stream prints it (6 significant digits, nan, inf)."""
    return f"{value:g}"


def _check_dtype(data, kernel: str) -> None:
    if data.dtype not in (np.float32, np.float64):
        from ._dtype import scalar_type_name
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{scalar_type_name(data.dtype)}'")


def _check_weight(data, weight) -> None:
    if weight is not None and weight._data.dtype != data.dtype:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and "
                           "weight tensor should have the same dtype, but got "
                           f"input({c_type_name(_of(data))}), and weight({c_type_name(weight)})")
    if weight is not None and weight.shape[0] != data.shape[0]:
        _refuse_weight_shape(_make(data), weight)


def _refuse_weight_shape(input, weight):
    sizes = ", ".join(str(side) for side in input.shape)
    weights = ", ".join(str(side) for side in weight.shape)
    raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same "
                       "shape as the input tensor excluding its innermost dimension, but got "
                       f"input with shape [{sizes}] and weight with shape [{weights}]")


def _of(data):
    return _make(data)


def _count(data, edges: list, weight, evenly: bool) -> np.ndarray:
    """Each row's bin along each dimension, rows outside any dimension's edges dropped, and
    the weights (or ones) added in row order, as torch's kernel adds them."""
    inside = np.ones(data.shape[0], bool)
    places = []
    for dim, edge in enumerate(edges):
        values = data[:, dim]
        inside &= (values >= edge[0]) & (values <= edge[-1])  # (NaN: outside)
        places.append(_bin_of(np.where(inside, values, edge[0]), edge, evenly))
    shape = tuple(len(edge) - 1 for edge in edges)
    flat = np.ravel_multi_index(tuple(place[inside] for place in places), shape) \
        if shape and all(shape) else np.zeros(0, np.int64)
    counts = np.zeros(int(np.prod(shape)), data.dtype)
    added = np.ones(flat.shape, data.dtype) if weight is None else weight._data[inside]
    np.add.at(counts, flat, added)
    return counts.reshape(shape)


def _bin_of(values, edge, evenly: bool) -> np.ndarray:
    """The bin of each value: edges given, the last edge at or below it (binary search);
    evenly spaced, the bin its distance from the first edge says, then corrected by the
    edges within one bin either side (rounding can put a value one bin off)."""
    last_bin = len(edge) - 2
    if not evenly:
        place = np.searchsorted(edge, values, side="right") - 1
        return np.minimum(place, last_bin)
    number = edge.dtype.type
    guess = ((values - edge[0]) * number(len(edge) - 1) / (edge[-1] - edge[0]))
    guess = np.nan_to_num(guess).astype(np.int64)
    low = np.maximum(guess - 1, 0)
    high = np.minimum(guess + 2, len(edge))
    at_or_below = np.zeros(values.shape, np.int64)
    for step in (0, 1, 2):
        candidate = low + step
        within = candidate < high
        at_or_below += within & (edge[np.minimum(candidate, len(edge) - 1)] <= values)
    return np.minimum(low + at_or_below - 1, last_bin)

