"""torch.addr (beta·self + alpha·vec1 ⊗ vec2, one AddrBackward0 node) and torch.renorm (each
slice along a dim scaled down to a p-norm of at most maxnorm: RenormBackward0)."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._dtype import promote_types
from ._formula_kit import Kit
from ._grad_mode import no_grad
from ._inplace import _inplace, _original
from ._recording import output
from ._tensor import Tensor, _wrap_dim


def _addr_values(self: Tensor, vec1: Tensor, vec2: Tensor, beta, alpha) -> np.ndarray:
    """Each element as torch's kernel computes it: beta·self + alpha·vec1·vec2 (self not read
    where beta is 0, so its NaNs do not show)."""
    for name, vector in (("vec1", vec1), ("vec2", vec2)):
        if vector.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {vector.ndim}-D")
    shape = (vec1.shape[0], vec2.shape[0])
    with no_grad():
        self.expand(shape)  # (torch's expand error for a self that does not fit)
    kind = promote_types(promote_types(self.dtype, vec1.dtype), vec2.dtype).numpy
    if kind.kind in "biu" and any(isinstance(v, float) for v in (beta, alpha)):
        name = "beta" if isinstance(beta, float) else "alpha"
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating "
                           "point number.")
    column = vec1._data.astype(kind)[:, None]
    row = vec2._data.astype(kind)[None, :]
    if kind == np.bool_:
        product = column & row & bool(alpha)
        return product if not beta else product | np.broadcast_to(self._data, shape)
    number = kind.type
    product = number(alpha) * column * row
    if beta == 0:
        return np.ascontiguousarray(product)
    return number(beta) * np.broadcast_to(self._data, shape).astype(kind) + product


@binds("addr")
def addr(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta·self + alpha·(vec1 ⊗ vec2), one AddrBackward0 node."""
    values = _addr_values(self, vec1, vec2, beta, alpha)
    return output("addr", values, (self, vec1, vec2), (vec1, vec2, beta, alpha))


@binds("addr_", function=False)
def addr_(self: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:
    values = _addr_values(self, vec1, vec2, beta, alpha)
    return _inplace("addr", self, values, vec1, (vec1, vec2, beta, alpha), vec2)


def _others(ndim: int, dim: int) -> tuple[int, ...]:
    return tuple(axis for axis in range(ndim) if axis != dim)


def _norms(value, p, dims: tuple):
    """The p-norms over ``dims`` (kept): recorded for a tensor (create_graph), else values."""
    from .linalg import vector_norm

    if isinstance(value, Tensor):
        return vector_norm(value, p, dims, keepdim=True)
    with no_grad():
        return vector_norm(Tensor._make(np.asarray(value)), p, dims, keepdim=True)._data


def _renorm_values(self: Tensor, p, dim: int, maxnorm) -> tuple[np.ndarray, int]:
    if self.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self.ndim} "
                           "dimensions")
    dim = _wrap_dim(dim, self.ndim)
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    norm = _norms(self._data, p, _others(self.ndim, dim))
    number = norm.dtype.type
    # torch's scale factor: maxnorm / (norm + 1e-7) where the norm is over maxnorm, else 1
    factor = np.where(norm > number(maxnorm), number(maxnorm) / (norm + number(1e-7)),
                      number(1))
    return (self._data * factor).astype(self._data.dtype), dim


@binds("renorm")
def renorm(self: Tensor, p, dim: int, maxnorm) -> Tensor:
    values, dim = _renorm_values(self, p, dim, maxnorm)
    return output("renorm", values, (self,), (self, p, dim, maxnorm))


@binds("renorm_", function=False)
def renorm_(self: Tensor, p, dim: int, maxnorm) -> Tensor:
    values, dim = _renorm_values(self, p, dim, maxnorm)
    return _inplace("renorm", self, values, None, (_original(self), p, dim, maxnorm))


def renorm_grad(k, grad, self, p, dim: int, maxnorm):
    """torch's renorm_backward: where a slice's norm was over maxnorm, the derivative of
    x · maxnorm / (‖x‖ + 1e-7); elsewhere grad itself."""
    dims = _others(len(self.shape), dim)
    norm = _norms(self, p, dims)
    along = k.sum(self * grad, dims, True)
    through_norm = k.norm_grad(along, self, p, dims, True, norm)
    inverse = 1 / (norm + 1e-7)
    factor = inverse * maxnorm
    return k.where(norm > maxnorm, factor * grad - (factor * inverse) * through_norm, grad)


Kit.renorm_grad = renorm_grad
