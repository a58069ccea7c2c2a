"""Products and distances between tensors: torch.cross (linalg.cross), kron, tensordot, cdist
and xlogy, each with torch's graph: one node where torch's is one op (LinalgCrossBackward0,
CdistBackward0, XlogyBackward0), torch's views and products where it composes them."""

from __future__ import annotations

import warnings

import numpy as np

from ._autocast import full_precision
from ._bindings import binds
from ._linalg import mm
from ._operands import float_operands
from ._recording import RESULT, output
from ._shapes import reshape, unsafe_view
from ._tensor import Tensor, _wrap_dim


@binds("cross")
def cross(self: Tensor, other: Tensor, dim=None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (without it, the first dimension of size
    3, as torch's deprecated default picks it, with torch's warning)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                      "either pass the dim explicitly or simply use torch.linalg.cross.\nThe "
                      "default value of dim will change to agree with that of linalg.cross in "
                      "a future release.", UserWarning, stacklevel=2)
        dim = next((d for d, size in enumerate(self.shape) if size == 3), -1)
    return linalg_cross(self, other, dim=dim)


def linalg_cross(self: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    if self.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{self.shape[dim]} and {other.shape[dim]}")
    values = np.cross(self._data, other._data, axis=dim)
    return output("linalg_cross", values, (self, other), (self, other, dim))


@binds("kron")
def kron(self: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: each side viewed with size-1 axes between the other's, one
    broadcast product, viewed flat again (torch's _unsafe_views and mul)."""
    ndim = max(self.ndim, other.ndim)
    a_shape = (1,) * (ndim - self.ndim) + tuple(self.shape)
    b_shape = (1,) * (ndim - other.ndim) + tuple(other.shape)
    left = unsafe_view(self, tuple(x for size in a_shape for x in (size, 1)))
    right = unsafe_view(other, tuple(x for size in b_shape for x in (1, size)))
    return unsafe_view(left * right, tuple(a * b for a, b in zip(a_shape, b_shape, strict=True)))


@binds("tensordot", method=False)
def tensordot(a: Tensor, b: Tensor, dims=2, out=None) -> Tensor:
    """Σ over the paired dimensions: each side permuted (free dimensions, summed ones) and
    reshaped to a matrix, one mm, reshaped to the free dimensions."""
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if isinstance(dims, int):
        summed_a, summed_b = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        summed_a, summed_b = ([_wrap_dim(d, t.ndim) for d in (side if isinstance(
            side, list | tuple) else [side])] for side, t in zip(dims, (a, b), strict=True))
    free_a = [d for d in range(a.ndim) if d not in summed_a]
    free_b = [d for d in range(b.ndim) if d not in summed_b]
    size = int(np.prod([a.shape[d] for d in summed_a], dtype=np.int64))
    left = reshape(a.permute(*free_a, *summed_a), (-1, size))
    right = reshape(b.permute(*summed_b, *free_b), (size, -1))
    return reshape(mm(left, right), tuple(a.shape[d] for d in free_a) +
                   tuple(b.shape[d] for d in free_b))


@binds("xlogy")
def xlogy(self, other) -> Tensor:
    """self * log(other), 0 where self is 0 (even where other is 0 or inf); either may be a
    number (XlogyBackward1: a number's log taken, XlogyBackward2: of a number)."""
    if not isinstance(self, Tensor):  # torch.xlogy(2.0, x)
        y, x, _ = float_operands(other, self)
        return output("xlogy_scalar_self", _xlogy_values(x, y), (other,),
                      (np.asarray(x), other))
    x, y, tensor = float_operands(self, other)
    if tensor is None:
        return output("xlogy_scalar_other", _xlogy_values(x, y), (self,),
                      (self, np.asarray(y)))
    return output("xlogy", _xlogy_values(x, y), (self, other), (self, other))


def _xlogy_values(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(x == 0, 0, x * np.log(y))
    return values.astype(np.result_type(x, y), copy=False)


@binds("cdist", method=False)
@full_precision
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of x1 and each row of x2 (batched). For p=2 with
    more than 25 rows on a side torch's default takes sqrt(|a|² + |b|² - 2ab) instead (its
    _euclidean_dist: another node, other last bits)."""
    a, b = x1._data, x2._data
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {a.shape[-1]} "
                           f"X2: {b.shape[-1]}")
    by_products = p == 2 and compute_mode != "donot_use_mm_for_euclid_dist" and (
        compute_mode == "use_mm_for_euclid_dist" or a.shape[-2] > 25 or b.shape[-2] > 25)
    if by_products:
        batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
        if batch:  # both sides expanded to the batch and flattened, as torch's
            x1, x2 = (t.expand(*batch, *t.shape[-2:]).reshape(-1, *t.shape[-2:])
                      for t in (x1, x2))
            a, b = x1._data, x2._data
        squares = (a * a).sum(-1)[..., :, None] + (b * b).sum(-1)[..., None, :] - \
            2 * a @ np.swapaxes(b, -1, -2)
        values = np.sqrt(np.maximum(squares, 0)).astype(a.dtype)
        distances = output("euclidean_dist", values, (x1, x2), (x1, x2, RESULT))
        return distances.view(*batch, *values.shape[-2:])
    difference = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        values = (difference != 0).sum(-1)
    elif p == float("inf"):
        values = difference.max(-1)
    else:
        values = (difference ** p).sum(-1) ** (1 / p)
    return output("cdist", values.astype(a.dtype), (x1, x2), (x1, x2, float(p), RESULT))


def cdist_grad(k, grad, x1, x2, p, result, first: bool):
    """d cdist: each pair's difference's p-norm gradient, weighted by the pair's incoming
    gradient, summed over the other side's rows (0 where two rows coincide). Under
    create_graph torch records CdistBackwardBackward0, whose own backward raises."""
    arrays = [getattr(value, "_data", value) for value in (grad, x1, x2, result)]
    values = _cdist_grad_values(*arrays, p, first)
    return k._backward_of("cdist_backward", values, (grad, x1, x2, result), ())


def _cdist_grad_values(grad, x1, x2, result, p, first: bool) -> np.ndarray:
    """Each pair's gradient in torch's order of operations for its ``p`` (x2's from x2 - x1,
    as torch computes it), 0 where the pair coincides (+0, whatever the incoming sign),
    summed over the other side's rows."""
    difference = x1[..., :, None, :] - x2[..., None, :, :]
    difference = difference if first else -difference
    distance, grad = result[..., None], grad[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:  # (a count of differing coordinates: flat)
            weighted = np.zeros_like(difference * grad)
        elif p == 1:
            weighted = np.sign(difference) * grad
        elif p == float("inf"):
            weighted = grad * np.sign(difference) * (np.abs(difference) == distance)
        elif p == 2:
            weighted = grad * difference / distance
        elif p < 2:
            weighted = np.sign(difference) * _power(np.abs(difference), p - 1) * grad / \
                _power(distance, p - 1)
            weighted = np.where((difference == 0) & (p < 1), 0, weighted)
        else:
            weighted = difference * _power(np.abs(difference), p - 2) * grad / \
                _power(distance, p - 1)
    weighted = np.where(distance == 0, 0, weighted).astype(grad.dtype)
    return weighted.sum(-2) if first else weighted.sum(-3)


def _power(base: np.ndarray, exponent: float) -> np.ndarray:
    """base ** exponent rounded once (NumPy's float32 power is not: torch's Sleef pow is)."""
    if base.dtype != np.float32:
        return np.power(base, exponent)
    return np.power(base.astype(np.float64), exponent).astype(np.float32)


def euclidean_dist_grad(k, grad, x1, x2, result, first: bool):
    """torch's _euclidean_dist_backward, written in the kit's ops (so create_graph records
    it): with r = grad / result (0 where the distance is 0), x1·Σr - r x2 for x1 and
    x2·Σrᵀ - rᵀ x1 for x2."""
    ratio = k.where(result == 0, 0, grad / result)
    if first:
        return x1 * k.sum(ratio, (-1,), True) - k.matmul(ratio, x2)
    return x2 * k.unsqueeze(k.sum(ratio, (-2,), False), -1) - k.matmul(k.mT(ratio), x1)


def _cross_of(k, a, b, dim):
    """a × b along ``dim`` (arrays, or tensors under create_graph)."""
    if isinstance(a, Tensor):
        return linalg_cross(a, b, dim=dim)
    return np.cross(a, b, axis=dim)


def _register() -> None:
    from ._formula_kit import Kit

    Kit.cdist_grad, Kit.euclidean_dist_grad, Kit.cross = cdist_grad, euclidean_dist_grad, _cross_of


_register()
