"""Forward-mode tangents of factorizations as torch's jvp formulas compute them
(FunctionsManual's cholesky_jvp, linalg_eig_jvp, linalg_lu_jvp): arrays in, the
tangents of the outputs out, where the double-vjp of their backward formulas would give
another answer (a non-symmetric tangent of a symmetric input) or cannot run (LU's backward
has no graph)."""

from __future__ import annotations

import numpy as np

from ._formula_kit import writable_diagonal
from ._formula_numpy import NUMPY_KIT
from ._more_math_linalg import _solve_triangular_of

_conjugate_transpose = NUMPY_KIT.mH


def _triangular(a, b, upper: bool, left: bool = True, unit: bool = False) -> np.ndarray:
    return _solve_triangular_of(None, a, b, upper, left, unit)


def _diagonal_zeroed(a: np.ndarray) -> np.ndarray:
    writable_diagonal(a, 0, -2, -1)[...] = 0
    return a


def cholesky(tangents, primals, saved, result):
    """dL = L Φ(L⁻¹ dA L⁻ᴴ), Φ: the lower triangle with its diagonal halved (dA as given,
    not made symmetric first)."""
    (d_a,), (upper,) = tangents[:1], saved[1:2]
    lower = _conjugate_transpose(result) if upper else result
    inner = _triangular(_conjugate_transpose(lower), _triangular(lower, d_a, False), True,
                        left=False)
    inner = np.tril(inner) - np.einsum("...ii->...i", inner)[..., None] * 0.5 * np.eye(
        inner.shape[-1], dtype=inner.dtype)
    d_lower = lower @ inner
    return _conjugate_transpose(d_lower) if upper else d_lower


def eigh(tangents, primals, saved, outputs):
    return _eigen_tangents(tangents[0], *outputs, True)


def eig(tangents, primals, saved, outputs):
    return _eigen_tangents(tangents[0], *outputs, False)


def _eigen_tangents(d_a, values, vectors, hermitian: bool) -> list:
    """dP = V⁻¹ dA V (Vᴴ dA V if hermitian): dL = diag(dP), dX = V (dP / E) with
    E_ij = L_j - L_i and a zero diagonal; dV = dX, less V·Re(diag(Vᴴ dX)) if not hermitian
    (the vectors stay of norm 1)."""
    if hermitian:
        d_p = (_conjugate_transpose(vectors) @ d_a) @ vectors
    else:
        d_p = np.linalg.solve(vectors, d_a.astype(vectors.dtype) @ vectors)
    d_values = np.einsum("...ii->...i", d_p).copy()
    if hermitian and np.iscomplexobj(d_a):
        d_values = d_values.real
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = d_p / (values[..., None, :] - values[..., :, None])
    d_x = vectors @ _diagonal_zeroed(scaled)
    if hermitian:
        return [d_values, d_x]
    norms = np.einsum("...ii->...i", _conjugate_transpose(vectors) @ d_x).real
    return [d_values, d_x - vectors * norms[..., None, :]]


def lu(tangents, primals, saved, outputs):
    """A = PLU, square: X = L⁻¹ Pᵀ dA U⁻¹, dL = L tril₋₁(X), dU = triu(X) U."""
    d_a = tangents[0]
    P, lower, upper = saved[0], outputs[0], outputs[1]
    d_lower, d_upper = _lu_tangents(d_a, P, lower, upper)
    return [d_lower, d_upper]


def _lu_tangents(d_a, P, lower, upper):
    if lower.shape[-1] != lower.shape[-2] or upper.shape[-1] != upper.shape[-2]:
        raise NotImplementedError("forward-mode AD through the LU of a matrix that is not "
                                  "square")
    inner = _triangular(lower, np.swapaxes(P, -1, -2) @ d_a, False, unit=True)
    inner = _triangular(upper, inner, True, left=False)
    return lower @ np.tril(inner, -1), np.triu(inner) @ upper


def lu_factor(tangents, primals, saved, outputs):
    """The packed LU's tangent: dL below the diagonal, dU on and above it (torch's
    lu_factor_ex_jvp)."""
    from ._lu import _permutation, _unpacked

    packed, pivots = saved[0], saved[1]
    lower, upper = _unpacked(packed)
    P = _permutation(np.asarray(getattr(pivots, "_data", pivots)), packed.shape[-2],
                     packed.dtype)
    d_lower, d_upper = _lu_tangents(tangents[0], P, lower, upper)
    return [d_lower + d_upper]


SINGLE = {"linalg_cholesky": cholesky}
SEVERAL = {"linalg_eigh": eigh, "linalg_eig": eig, "linalg_lu": lu, "linalg_lu_factor": lu_factor}
