"""The derivative table's rows for _selection.py's ops (the table's ``_row`` and ELEMENT_WISE
mark are passed in: _family_rules.py adds these to the table), and the kit helpers their
formulas call (``k.<name>``: _selection_more.py puts them on the kit)."""

from __future__ import annotations

import numpy as np

# the positions they picked: the gradient goes back there (torch's
# value_selecting_reduction_backward, a scatter into zeros)
_PICKED = "k.value_selecting_grad(grad, shape, dim, keepdim, indices)"


# torch's nodes that save an index, its positions or a mask as a tensor (gather's index, the
# positions max and sort picked, masked_fill's mask, a loss's target): freed after a backward
# as every saved tensor is, so a second backward through them raises, as through x * x.
# (The engine keeps those as arrays, which it would otherwise keep, as torch keeps shapes.)
FREES_INDICES = frozenset((
    "IndexBackward0", "GatherBackward0", "MaxBackward0", "MinBackward0", "SortBackward0",
    "TopkBackward0", "KthvalueBackward0", "MedianBackward1", "NanmedianBackward1",
    "ModeBackward0", "IndexSelectBackward0", "EmbeddingBackward0", "EmbeddingBagBackward0",
    "MaskedSelectBackward0", "MaskedFillBackward0", "MaskedScatterBackward0", "ScatterBackward0",
    "ScatterBackward1", "ScatterAddBackward0", "IndexAddBackward0", "CummaxBackward0",
    "CumminBackward0", "WhereBackward0", "NllLossBackward0", "NllLoss2DBackward0",
    "IndexPutBackward0", "ScatterReduceBackward0", "IndexReduceBackward0"))


def selection_rows(row, element_wise) -> tuple:
    return (
        # scatter's reduce= (add, multiply): torch has no derivative for it
        *(row(f"scatter_reducing{suffix}", "NotImplemented", "self src", "",
              *[f"k.not_implemented('aten::scatter{suffix}')"] * 2) for suffix in ("", "_")),
        *(row(f"scatter_value_reducing{suffix}", "NotImplemented", "self", "",
              f"k.not_implemented('aten::scatter{suffix}')") for suffix in ("", "_")),
        # x[tensor] = values: torch's index_put_ (through basic indices: _rules' CopySlices)
        row("index_put", "IndexPutBackward0", "self values", "index",
            "k.zero_at(grad, index)", "k.getitem(grad, index)"),
        row("kthvalue", "KthvalueBackward0", "self", "shape dim keepdim indices", _PICKED),
        row("median_dim", "MedianBackward1", "self", "shape dim keepdim indices", _PICKED),
        row("nanmedian_dim", "NanmedianBackward1", "self", "shape dim keepdim indices",
            _PICKED),
        row("mode", "ModeBackward0", "self", "shape dim keepdim indices", _PICKED),
        # a median of everything: shared by the elements equal to it
        row("median", "MedianBackward0", "self", "self result",
            "k.median_grad(grad, self, result)"),
        row("nanmedian", "NanmedianBackward0", "self", "self result",
            "k.median_grad(grad, self, result)"),
        # what median's formula records under create_graph: zeros.masked_fill_(mask, share)
        row("median_fill", "MaskedFillBackward1", "value", "mask", "k.masked_total(grad, mask)"),
        row("masked_select", "MaskedSelectBackward0", "self", "mask shape",
            "k.masked_select_grad(grad, mask, shape)"),
        # what masked_select's formula records under create_graph: zeros.masked_scatter_
        row("masked_select_backward", "MaskedScatterBackward0", "source", "mask",
            "k.pick_masked(grad, mask)"),
        row("nansum", "NansumBackward0", "self", "self dims keepdim",
            "k.nansum_grad(grad, self, dims, keepdim)"),
        # one node for both outputs (a gradient for each, None where none came)
        row("aminmax", "AminmaxBackward0", "self", "self dims keepdim low high",
            "k.aminmax_grad(grad, self, dims, keepdim, low, high)"),
        row("var_mean", "VarMeanBackward0", "self", "self dims correction keepdim",
            "k.spread_mean_grad(grad, self, dims, correction, keepdim, None)"),
        row("std_mean", "StdMeanBackward0", "self", "self dims correction keepdim result",
            "k.spread_mean_grad(grad, self, dims, correction, keepdim, result)"),
        # quantile's in-place unsqueeze_ (its transpose_ and squeeze_ are the table's own);
        # unsqueeze_ too (_shape_inplace.py), with t_ and the squeeze_ of all or several dims
        row("selection_unsqueeze_", "UnsqueezeBackward1", "self", "dim",
            "k.squeeze_dim(grad, dim)"),
        row("t_", "TBackward1", "self", "", "k.t(grad)"),
        row("squeeze_all_", "SqueezeBackward3", "self", "shape", "k.reshape(grad, shape)"),
        row("squeeze_tuple_", "SqueezeBackward5", "self", "shape", "k.reshape(grad, shape)"),
        # nodes torch records without a derivative
        row("unique", "Unique2Backward0", "self", "", "k.no_derivative('_unique2')"),
        row("unique_dim", "UniqueDimBackward0", "self", "", "k.no_derivative('unique_dim')"),
        row("unique_consecutive", "UniqueConsecutiveBackward0", "self", "",
            "k.no_derivative('unique_consecutive')"),
        row("bincount", "NotImplemented", "weights", "", "k.not_implemented('aten::bincount')"),
        *(row(op, "NotImplemented", "self weight", "", f"k.not_implemented('aten::{op}')")
          for op in ("histogram", "_histogramdd_from_bin_cts", "_histogramdd_from_bin_tensors",
                     "_histogramdd_bin_edges")),
    )


# ----- the kit helpers: on arrays for a plain backward, on tensors under create_graph --------
def _on_arrays(value) -> bool:
    """Whether a formula runs on arrays (a plain backward: ndarrays and NumPy numbers), not
    on tensors (create_graph)."""
    return isinstance(value, np.ndarray | np.generic)


def _array(value):
    return value if _on_arrays(value) else value._data


def _tensor(array):
    from ._tensor import Tensor  # (not at import: _tensor imports the table)

    return Tensor._make(array)


def value_selecting_grad(k, grad, shape, dim, keepdim, indices):
    """The gradient scattered into zeros at the chosen positions (``indices`` with the
    reduced dimension kept): ScatterBackward0 under create_graph."""
    if not shape:
        return grad
    if not keepdim:
        grad = k.unsqueeze(grad, dim)
    return k.scatter_into(grad, shape, dim, indices)


def median_grad(k, grad, value, result):
    """torch's evenly_distribute_backward: zeros, and grad / count where the input equals
    the median (is NaN, for a NaN median), by masked_fill_ (MaskedFillBackward1)."""
    values, median = _array(value), _array(result)
    mask = np.isnan(values) if np.isnan(median) else values == median
    count = np.count_nonzero(mask)
    if _on_arrays(grad):
        number = grad.dtype.type
        return np.where(mask, grad / number(count), number(0))
    share = grad / _tensor(np.asarray(count))
    zero = share._data.dtype.type(0)
    return k._backward_of("median_fill", np.where(mask, share._data, zero), (share,), (mask,))


def masked_total(k, grad, mask):
    """masked_fill's gradient for its value: the gradient summed where it filled."""
    if _on_arrays(grad):
        return np.asarray(grad[mask].sum(), grad.dtype)
    return (grad * _tensor(mask)).sum()


def masked_select_grad(k, grad, mask, shape):
    """The chosen elements' gradients put back where they were, zeros elsewhere (torch's
    masked_scatter_ into zeros)."""
    values = np.zeros(shape, _array(grad).dtype)
    values[mask] = _array(grad)
    return k._backward_of("masked_select_backward", values, (grad,), (mask,))


def pick_masked(k, grad, mask):
    if _on_arrays(grad):
        return np.asarray(grad[mask])
    from ._selection import masked_select

    return masked_select(grad, _tensor(mask))


def nansum_grad(k, grad, value, dims, keepdim):
    """The gradient spread over the summed elements, 0 where they were NaN."""
    spread = k.expand(k.restore_dims(grad, dims, keepdim), tuple(value.shape))
    numbers = ~np.isnan(_array(value))
    return spread * (numbers if _on_arrays(spread) else _tensor(numbers))


def aminmax_grad(k, grads, value, dims, keepdim, low, high):
    """Each extreme's gradient shared evenly by the elements equal to it (torch's
    scale_grad_by_count: grad / count * mask), the two added."""
    total = None
    for grad, extreme in zip(grads, (low, high), strict=True):
        if grad is None:
            continue
        mask = value == k.restore_dims(extreme, dims, keepdim)
        grad = k.restore_dims(grad, dims, keepdim)
        if _on_arrays(grad):
            counts = np.sum(mask, axis=dims, keepdims=True).astype(grad.dtype)
        else:
            counts = mask.sum(tuple(range(mask.ndim)) if dims is None else dims, True)
        part = grad / counts * mask
        total = part if total is None else total + part
    return total


def spread_mean_grad(k, grads, value, dims, correction, keepdim, std):
    """var_mean's (std_mean's) gradient: var's (std's) plus mean's, of those that came."""
    spread, mean = grads
    shape = tuple(value.shape)
    count = int(np.prod([shape[d] for d in (range(len(shape)) if dims is None else dims)]))
    total = None
    if spread is not None:
        if std is not None and not _on_arrays(spread):
            # the std again, from the input: the saved output of a node with two outputs
            # would send its gradient to the node, not to its output
            centered = value - k.sum(value, dims, True) / count
            std = k.sqrt(k.sum(centered * centered, dims, keepdim) / (count - correction))
        if std is not None:  # torch zeroes it where the std is 0
            spread = k.where(std == 0, 0, spread / (2 * std))
        spread = k.restore_dims(spread, dims, keepdim)
        centered = value - k.sum(value, dims, True) / count
        if dims is None and count <= correction:  # NaN where the values are their mean
            total = spread * k.where(centered == 0, float("nan"), float("inf"))
        else:  # (2 / 0: inf, as in torch's C++)
            scale = 2.0 / (count - correction) if count != correction else float("inf")
            total = k.times(spread, scale) * centered
    if mean is not None:
        part = k.expand(k.restore_dims(mean, dims, keepdim), shape) / count
        total = part if total is None else total + part
    return total


KIT_HELPERS = (value_selecting_grad, median_grad, masked_total, masked_select_grad,
               pick_masked, nansum_grad, aminmax_grad, spread_mean_grad)
