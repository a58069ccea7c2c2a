"""torch.gradient: the derivative of sampled values by differences (central inside, one- or
two-sided at the edges), made of the slices, differences and divisions torch makes it of."""

from __future__ import annotations

import numbers

from . import _dtype as dtypes
from ._bindings import binds
from ._missing import MISSING_HINT
from ._more_math import _slice, divide_by_number
from ._shapes import cat
from ._tensor import Tensor, _wrap_dim


def _spacings(self: Tensor, spacing, dims: list[int], dim_given: bool) -> list[float]:
    if spacing is None:
        return [1.0] * len(dims)
    if isinstance(spacing, numbers.Number):
        return [float(spacing)] * len(dims)
    spacing = list(spacing)
    if any(isinstance(s, Tensor) for s in spacing):
        raise NotImplementedError(f"torch.gradient with coordinates as tensors is not "
                                  f"{MISSING_HINT}")
    if len(spacing) != len(dims):
        given = "the dim argument" if dim_given else "'self.dim() = " + f"{self.dim()}'"
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to {given}, since dim argument was not given, "
                           f"but got a list of length {len(spacing)}")
    return [float(s) for s in spacing]


@binds("gradient", method=False)
def gradient(input: Tensor, *, spacing=None, dim=None, edge_order: int = 1) -> tuple:
    """One tensor per dimension asked (every one by default): df/dx along it."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(input.dim())) if dim is None else \
        [dim] if isinstance(dim, int) else list(dim)
    dims = [_wrap_dim(d, input.dim()) for d in dims]
    if any(input.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")
    steps = _spacings(input, spacing, dims, dim is not None)
    if input._data.dtype.kind not in "fc":
        input = input.to(dtypes.get_default_dtype())
    return tuple(_along(input, d, step, edge_order) for d, step in zip(dims, steps,
                                                                         strict=True))


def _along(self: Tensor, dim: int, dx: float, edge_order: int) -> Tensor:
    center = divide_by_number(_slice(self, dim, 2, None) - _slice(self, dim, 0, -2), dx)
    if edge_order == 1:
        before = divide_by_number(_slice(self, dim, 1, 2) - _slice(self, dim, 0, 1), dx)
        after = divide_by_number(_slice(self, dim, -1, None) - _slice(self, dim, -2, -1), dx)
    else:
        before = divide_by_number(-1.5 * _slice(self, dim, 0, 1) + 2 * _slice(self, dim, 1, 2)
                                  - 0.5 * _slice(self, dim, 2, 3), dx)
        after = divide_by_number(0.5 * _slice(self, dim, -3, -2) - 2 * _slice(self, dim, -2, -1)
                                 + 1.5 * _slice(self, dim, -1, None), dx)
    return cat([before, divide_by_number(center, 2), after], dim)
