"""torch's older triangular helpers on the NumPy engine: torch.triangular_solve (its
deprecation warning once, TriangularSolveBackward0 for the solution and the copied matrix),
torch.cholesky_inverse (CholeskyInverseBackward0), and torch.linalg.vander and
torch.linalg.diagonal, made of the ops torch makes them of."""

from __future__ import annotations

import numpy as np

from . import _recording, linalg
from ._bindings import binds
from ._formula_kit import Kit
from ._linalg import lapack_layout
from ._more_math_linalg import _solve_triangular_of
from ._operands import operands
from ._reductions import _return_type
from ._shapes import cat, unsqueeze
from ._tensor import Tensor
from ._user_warnings import warn_at_user_code

_triangular_solve_result = _return_type("triangular_solve", ("solution", "cloned_coefficient"))
_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
    "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B). (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2273.)")
_warned: list = []


@binds("triangular_solve")
def triangular_solve(self: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False):
    """(X, a copy of A) with op(A) X = self, op(A) = Aᵀ if ``transpose``, A triangular."""
    if not _warned:  # once a process, as torch's TORCH_WARN_ONCE
        _warned.append(True)
        warn_at_user_code(_DEPRECATED)
    if self.ndim < 2 or A.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, "
                           f"but it has {self.ndim} dimensions instead" if self.ndim < 2 else
                           f"torch.triangular_solve: Expected A to have at least 2 "
                           f"dimensions, but it has {A.ndim} dimensions instead")
    b, a = operands(self, A)
    matrix = np.swapaxes(a, -1, -2) if transpose else a
    solution = _solve_triangular_of(None, matrix, b, upper != transpose, True, unitriangular)
    outputs = [Tensor._make(lapack_layout(np.asarray(solution, b.dtype))),
               Tensor._make(np.array(np.broadcast_to(a, (*solution.shape[:-2], *a.shape[-2:]))))]
    _recording.record_several("triangular_solve", outputs, (self, A),
                              (self, A, outputs[0], upper, transpose, unitriangular))
    return _triangular_solve_result(*outputs)


def triangular_solve_grad(k, grad, b, A, x, upper, transpose, unitriangular, for_A: bool):
    """torch's triangular_solve_backward: grad_b solves op(A)ᴴ grad_b = grad_x; grad_A is
    -grad_b xᴴ (transposed for ``transpose``) on A's triangle, plus the copy's gradient."""
    grad_x, grad_copy = grad[0], grad[1]
    grad_b = grad_a = None
    if grad_x is not None:
        matrix = A if transpose else k.mT(A)
        grad_b = k.solve_triangular(matrix, grad_x, upper == transpose, True, unitriangular)
        if for_A:
            grad_a = -k.matmul(x, k.mT(grad_b)) if transpose else -k.matmul(grad_b, k.mT(x))
            grad_a = k.triu(grad_a, 1 if unitriangular else 0) if upper else \
                k.tril(grad_a, -1 if unitriangular else 0)
    if not for_A:
        return k.zeros_like(b) if grad_b is None else grad_b
    if grad_a is None:
        grad_a = k.zeros_like(A)
    return grad_a if grad_copy is None else grad_a + grad_copy


@binds("cholesky_inverse")
def cholesky_inverse(self: Tensor, upper: bool = False, *, out=None) -> Tensor:
    """(L Lᴴ)⁻¹ for a Cholesky factor L (Uᴴ U with ``upper``)."""
    data = self._data
    if data.ndim < 2 or data.shape[-1] != data.shape[-2]:
        raise RuntimeError("cholesky_inverse: A must be batches of square matrices, but they "
                           f"are {data.shape[-2] if data.ndim > 1 else 1} by {data.shape[-1]} "
                           "matrices")
    factor = np.swapaxes(data, -1, -2).conj() if upper else data
    eye = np.broadcast_to(np.eye(data.shape[-1], dtype=data.dtype), data.shape)
    half = np.linalg.solve(factor, eye)
    values = np.swapaxes(half, -1, -2).conj() @ half
    return _recording.output("cholesky_inverse", values.astype(data.dtype), (self,),
                             (self, upper, _recording.RESULT))


def cholesky_inverse_grad(k, grad, L, upper, inverse):
    """torch's: with C = S (g + gᴴ) S for S the inverse, -C L (-L C for an upper factor)."""
    common = k.matmul(inverse, k.matmul(grad + k.mT(grad), inverse))
    return -k.matmul(L, common) if upper else -k.matmul(common, L)


def vander(x: Tensor, N: int | None = None) -> Tensor:
    """torch.linalg.vander: the powers 0..N-1 of each x, as torch makes them (a row of ones
    joined to a cumprod of x repeated)."""
    if x._data.dtype.kind == "b":
        raise RuntimeError("linalg.vander supports floating point, complex, and integer "
                           "tensors, but got Bool")
    column = unsqueeze(x, -1) if x.ndim == 0 else x
    count = column.shape[-1] if N is None else N
    if count <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = unsqueeze(column, -1).expand(*column.shape, count - 1).cumprod(-1)
    return cat([powers.new_ones(*column.shape, 1), powers], -1)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    return A.diagonal(offset, dim1, dim2)


linalg.vander, linalg.diagonal = vander, diagonal
Kit.triangular_solve_grad = triangular_solve_grad
Kit.cholesky_inverse_grad = cholesky_inverse_grad
