"""cumprod's backward as torch's cumprod_backward computes it: a reversed cumsum divided by
the input where no element is 0; with zeros, its O(n) mask path on arrays (no graph wanted)
or its O(n²) path of omitted products on tensors (create_graph: second derivatives)."""

from __future__ import annotations

import numpy as np

from ._formula_numpy import NUMPY_KIT
from ._shapes import cat
from ._summation_order import running_products
from ._tensor import Tensor


def cumprod_grad(k, grad, self, dim, result):
    """The gradient of ``cumprod(self, dim)`` (``result``) for the incoming ``grad``."""
    if self.ndim == 0 or self.shape[dim] <= 1:
        return grad
    values = self._data if isinstance(self, Tensor) else self
    if not (values == 0).any():
        return k.reverse_cumsum(result * grad, dim) / self
    if isinstance(self, Tensor):
        return _omitted_products_grad(grad, self, dim)
    return _first_zero_grad(grad, self, dim, result)


def _first_zero_grad(grad: np.ndarray, x: np.ndarray, dim: int,
                     result: np.ndarray) -> np.ndarray:
    """torch's path without grad mode: before a row's first zero, the reversed cumsum of
    result·grad over x; at the first zero, the product before it times Σ grad_j · (the
    product of the elements after it, up to j) up to the second zero; after it, 0."""
    zero_count = np.cumsum(x == 0, axis=dim)
    before = zero_count == 0
    out = np.zeros_like(grad)
    with np.errstate(divide="ignore", invalid="ignore"):
        head = NUMPY_KIT.reverse_cumsum(np.where(before, result * grad, 0), dim) / x
    out[before] = head[before]
    first_index = np.argmax(zero_count == 1, axis=dim, keepdims=True)
    first = np.zeros_like(before)
    np.put_along_axis(first, first_index, True, axis=dim)
    first &= zero_count == 1
    between = (zero_count == 1) & ~first
    tail = running_products(np.where(between, x, x.dtype.type(1)), dim) \
        * np.where(zero_count == 1, grad, 0)
    tail = NUMPY_KIT.sum(tail, (dim,), True)
    head_product = np.take_along_axis(result, np.maximum(first_index - 1, 0), axis=dim)
    tail = tail * np.where(first_index == 0, result.dtype.type(1), head_product)
    out[first] = np.broadcast_to(tail, out.shape)[first]
    return out


def _omitted_products_grad(grad: Tensor, x: Tensor, dim: int) -> Tensor:
    """torch's path under grad mode, recorded: for each k, Σ_{j≥k} grad_j · Π_{i≤j, i≠k} x_i
    from the product before k and the running product after it, each copied into its
    slice of zeros (as torch's, so the graph ends in CopySlices)."""
    length = x.shape[dim]
    ones_shape = list(x.shape)
    ones_shape[dim] = 1
    ones = Tensor._make(np.ones(ones_shape, grad._data.dtype))
    out = Tensor._make(np.zeros(x.shape, grad._data.dtype))
    for k in range(length):
        after = x.narrow(dim, k + 1, length - k - 1).cumprod(dim) if k < length - 1 else None
        until = x.narrow(dim, 0, k).prod(dim, True) if k else None
        if until is None:
            omitted = cat([ones, after], dim)
        elif after is None:
            omitted = until
        else:
            omitted = cat([until, until.expand_as(after) * after], dim)
        out.select(dim, k).copy_((grad.narrow(dim, k, length - k) * omitted).sum(dim))
    return out
