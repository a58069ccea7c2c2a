"""torch.norm_except_dim and torch._weight_norm, what nn.utils' weight_norm computes with:
w = g v / ‖v‖, the norm taken over every dimension but ``dim`` (over all of them for -1).
Along the first or last dimension torch runs one kernel, WeightNormInterfaceBackward0;
elsewhere it composes the ops, and so does this."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._recording import RESULT, output
from ._reductions import _vector_norm
from ._tensor import Tensor


def _norm(self: Tensor, p, dim: int | None) -> Tensor:
    """at::norm, as torch's C++ calls it: NormBackward1 over ``dim``, NormBackward0 over all."""
    dims = None if dim is None else (dim % self.ndim,)
    result = _vector_norm(self._data, p, dims, False).astype(self._data.dtype, copy=False)
    op = "norm_no_dim" if dim is None else "norm_dim"
    return output(op, np.asarray(result), (self,), (self, p, dims, False, RESULT))


@binds("norm_except_dim", method=False)
def norm_except_dim(v: Tensor, pow=2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of each slice along ``dim``, shaped to broadcast against ``v``."""
    if dim == -1:
        return _norm(v, pow, None)
    ones = (1,) * (v.ndim - 1)
    if dim == 0:
        return _norm(v.contiguous().view(v.shape[0], -1), pow, 1).view(v.shape[0], *ones)
    if dim == v.ndim - 1:
        return _norm(v.contiguous().view(-1, v.shape[-1]), pow, 0).view(*ones, v.shape[-1])
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


@binds("_weight_norm", method=False)
def weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """g v / ‖v‖ over every dimension but ``dim``."""
    v, g = v.contiguous(), g.contiguous()
    if dim not in (0, v.ndim - 1):
        return v * (g / norm_except_dim(v, 2, dim))
    others = tuple(d for d in range(v.ndim) if d != dim)
    norms = _vector_norm(v._data, 2, others, True).astype(v._data.dtype, copy=False)
    data = v._data * (g._data / norms)
    return output("weight_norm_interface", data, (v, g), (v, g, norms, others))


def weight_norm_grad(k, grad, v, g, norms, others: tuple, for_v: bool):
    """torch's weight-norm backward: with s = Σ g_w v over each slice, gv = (g / ‖v‖)
    (g_w - v s / ‖v‖²) and gg = s / ‖v‖ (the norms are constants of the node, as torch's)."""
    sums = k.sum(grad * v, others, True)
    if for_v:
        return (g / norms) * (grad - v * (sums / (norms * norms)))
    return sums / norms


def _install() -> None:
    from ._formula_kit import Kit

    Kit.weight_norm_grad = weight_norm_grad


_install()
