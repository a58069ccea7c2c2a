"""torch.linalg's LU factorisation with partial pivoting: lu_factor (L and U packed in one
matrix, 1-based int32 pivots, as LAPACK's getrf returns them), lu (P, L, U), lu_unpack and
lu_solve, with torch's nodes (LinalgLuFactorExBackward0, LinalgLuBackward0,
LuUnpackBackward0, LinalgLuSolveBackward0) and its derivatives for square matrices."""

from __future__ import annotations

import warnings

import numpy as np

from . import _recording
from ._bindings import binds
from ._factorizations import _floating
from ._formula_kit import Kit
from ._linalg import lapack_layout
from ._reductions import _return_type
from ._tensor import Tensor

_SWITCH = "is not in the built-in NumPy engine; switch the engine to torch"
_factor_result = _return_type("linalg_lu_factor", ("LU", "pivots"))
_lu_result = _return_type("linalg_lu", ("P", "L", "U"))
_unpack_result = _return_type("lu_unpack", ("P", "L", "U"))


def getrf(matrix: np.ndarray) -> np.ndarray:
    """One matrix factored in place, column by column (LAPACK's getf2): the largest magnitude
    below the diagonal as pivot, the column scaled by its reciprocal, the rest updated.
    Returns the 1-based pivots."""
    rows, columns = matrix.shape
    pivots = np.zeros(min(rows, columns), np.int32)
    for k in range(min(rows, columns)):
        pivot = k + int(np.argmax(np.abs(matrix[k:, k])))
        pivots[k] = pivot + 1
        if pivot != k:
            matrix[[k, pivot]] = matrix[[pivot, k]]
        if matrix[k, k] != 0:
            matrix[k + 1:, k] *= matrix.dtype.type(1) / matrix[k, k]
        matrix[k + 1:, k + 1:] -= np.outer(matrix[k + 1:, k], matrix[k, k + 1:])
    return pivots


def _factored(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    packed = np.array(data, copy=True).reshape(-1, *data.shape[-2:])
    pivots = np.stack([getrf(matrix) for matrix in packed]) if len(packed) else \
        np.zeros((0, min(data.shape[-2:])), np.int32)
    return packed.reshape(data.shape), pivots.reshape(*data.shape[:-2], -1)


def row_order(pivots: np.ndarray, rows: int | None = None) -> np.ndarray:
    """The rows of A in the order the pivots' swaps leave them (A[order] = L U)."""
    order = np.arange(len(pivots) if rows is None else rows)
    for k, target in enumerate(pivots):
        order[[k, target - 1]] = order[[target - 1, k]]
    return order


def _permutation(pivots: np.ndarray, rows: int, dtype) -> np.ndarray:
    """P with A = P L U: the row swaps the pivots name, applied to the identity's rows."""
    flat = pivots.reshape(-1, pivots.shape[-1])
    result = np.zeros((len(flat), rows, rows), dtype)
    for index, swaps in enumerate(flat):
        result[index, row_order(swaps, rows), np.arange(rows)] = 1
    return result.reshape(*pivots.shape[:-1], rows, rows)


def _unpacked(packed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, columns = packed.shape[-2:]
    k = min(rows, columns)
    lower = np.tril(packed, -1)[..., :, :k] + np.eye(rows, k, dtype=packed.dtype)
    upper = np.triu(packed)[..., :k, :]
    return lower, upper


def lu_factor(A: Tensor, *, pivot: bool = True, out=None):
    data = _floating(A, "torch.linalg.lu_factor_ex", square=False)
    if not pivot:
        raise NotImplementedError(f"lu_factor(pivot=False) {_SWITCH}")
    packed, pivots = _factored(data)
    outputs = [Tensor._make(lapack_layout(packed)), Tensor._make(pivots)]
    _recording.record_several("linalg_lu_factor", outputs[:1], (A,), (outputs[0], pivots))
    return _factor_result(*outputs)


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False, out=None):
    LU, pivots = lu_factor(A, pivot=pivot)
    info = np.zeros(A.shape[:-2], np.int32)
    return _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))(
        LU, pivots, Tensor._make(info))


def lu(A: Tensor, *, pivot: bool = True, out=None):
    data = _floating(A, "linalg.lu", square=False)
    if not pivot:
        raise NotImplementedError(f"linalg.lu(pivot=False) {_SWITCH}")
    packed, pivots = _factored(data)
    lower, upper = _unpacked(packed)
    P = Tensor._make(_permutation(pivots, data.shape[-2], data.dtype))
    outputs = [Tensor._make(lower), Tensor._make(upper)]
    _recording.record_several("linalg_lu", outputs, (A,), (P, *outputs))
    return _lu_result(P, *outputs)


@binds("lu")
def old_lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out=None):
    """The deprecated torch.lu: linalg.lu_factor (with the infos), and torch's warning."""
    warnings.warn(_OLD_LU_WARNING, UserWarning, stacklevel=2)
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    return (LU, pivots, info) if get_infos else (LU, pivots)


_OLD_LU_WARNING = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)")


@binds("lu_unpack", method=False)
def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True, *, out=None):
    lower, upper = _unpacked(LU_data._data)
    P = Tensor._make(_permutation(LU_pivots._data, LU_data.shape[-2], LU_data._data.dtype))
    outputs = [Tensor._make(lower), Tensor._make(upper)]
    _recording.record_several("lu_unpack", outputs, (LU_data,), (LU_data.shape,))
    return _unpack_result(P, *outputs)


def _solve_values(packed: np.ndarray, pivots: np.ndarray, B: np.ndarray, adjoint: bool):
    lower, upper = _unpacked(packed)
    P = _permutation(pivots, packed.shape[-2], packed.dtype)
    if adjoint:  # Aᴴ X = B, Aᴴ = Uᴴ Lᴴ Pᵀ
        half = np.linalg.solve(np.conj(np.swapaxes(upper, -1, -2)), B)
        return P @ np.linalg.solve(np.conj(np.swapaxes(lower, -1, -2)), half)
    half = np.linalg.solve(lower, np.swapaxes(P, -1, -2) @ B)
    return np.linalg.solve(upper, half)


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True, adjoint: bool = False,
             out=None) -> Tensor:
    """X with A X = B (Aᴴ X = B with ``adjoint``), A given by its LU factorisation."""
    if not left:
        raise NotImplementedError(f"linalg.lu_solve(left=False) {_SWITCH}")
    values = _solve_values(LU._data, pivots._data, B._data, adjoint).astype(B._data.dtype)
    return _recording.output("linalg_lu_solve", lapack_layout(values), (LU, B),
                             (LU, pivots, _recording.RESULT, adjoint))


# ----- derivatives ------------------------------------------------------------------------------
def lu_grad(k, g_lower, g_upper, P, lower, upper):
    """torch's linalg_lu_backward (square): P L⁻ᴴ ((Lᴴ gL)∘tril₋₁ + (gU Uᴴ)∘triu) U⁻ᴴ."""
    if not isinstance(lower, np.ndarray):
        raise NotImplementedError(f"the second derivative of an LU factorisation {_SWITCH}")
    if lower.shape[-1] != upper.shape[-1]:
        raise NotImplementedError(f"the derivative of a non-square LU factorisation {_SWITCH}")

    def adjoint(m):
        return np.conj(np.swapaxes(m, -1, -2))

    inner = np.zeros(lower.shape, lower.dtype)
    if g_lower is not None:
        inner = inner + np.tril(adjoint(lower) @ g_lower, -1)
    if g_upper is not None:
        inner = inner + np.triu(g_upper @ adjoint(upper))
    right = adjoint(np.linalg.solve(upper, adjoint(inner)))  # inner U⁻ᴴ
    return (P @ np.linalg.solve(adjoint(lower), right)).astype(lower.dtype)


def lu_factor_grad(k, grad, packed, pivots):
    lower, upper = _unpacked(packed)
    P = _permutation(pivots, packed.shape[-2], packed.dtype)
    return lu_grad(k, np.tril(grad, -1), np.triu(grad), P, lower, upper)


def lu_pieces_grad(k, grad, P, lower, upper):
    values = [None if g is None else np.asarray(getattr(g, "_data", g)) for g in grad]
    return lu_grad(k, values[0], values[1], np.asarray(getattr(P, "_data", P)), lower, upper)


def lu_unpack_grad(k, grad, shape):
    """LuUnpackBackward0: L's gradient below the diagonal, U's on and above it."""
    total = np.zeros(shape, (grad[0] if grad[0] is not None else grad[1]).dtype)
    if grad[0] is not None:
        total = total + np.tril(grad[0], -1)
    if grad[1] is not None:
        total = total + np.triu(grad[1])
    return total


def lu_solve_grad(k, grad, packed, pivots, solution, adjoint, for_lu: bool):
    """torch's: B's gradient solves the adjoint system; LU's is gL + gR∘triu, with
    gR = U⁻ᴴ(-gX Xᴴ) and gL = (L⁻ᴴ gR Uᴴ)∘tril₋₁."""
    if not isinstance(grad, np.ndarray):
        raise NotImplementedError(f"the second derivative of linalg.lu_solve {_SWITCH}")
    if not for_lu:
        return _solve_values(packed, pivots, grad, not adjoint)
    if adjoint:
        raise NotImplementedError(f"the derivative of lu_solve(adjoint=True) by LU {_SWITCH}")
    lower, upper = _unpacked(packed)
    g_upper = np.linalg.solve(np.conj(np.swapaxes(upper, -1, -2)),
                              -grad @ np.conj(np.swapaxes(solution, -1, -2)))
    g_lower = np.tril(np.linalg.solve(np.conj(np.swapaxes(lower, -1, -2)),
                                      g_upper @ np.conj(np.swapaxes(upper, -1, -2))), -1)
    return g_lower + np.triu(g_upper)


for _function in (lu_factor_grad, lu_pieces_grad, lu_unpack_grad, lu_solve_grad):
    setattr(Kit, _function.__name__, _function)
