"""torch.linalg's factorisations on NumPy's LAPACK: cholesky, qr, eigh/eigvalsh, svd/svdvals
(and torch.svd), each one node with torch's name over all its outputs. Their values are
LAPACK's: in float32 the last bits, and the signs of eigenvectors and singular vectors, can
differ from torch's MKL (any sign is a right answer; torch's own differ between machines)."""

from __future__ import annotations

import numpy as np

from . import (
    _factorization_grads,  # noqa: F401 - the kit's qr_grad, eigh_grad...
    _recording,
)
from ._bindings import binds
from ._linalg import lapack_layout
from ._reductions import _return_type, _scalar_type
from ._tensor import Tensor

_qr_result = _return_type("linalg_qr", ("Q", "R"))
_eigh_result = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
_svd_result = _return_type("linalg_svd", ("U", "S", "Vh"))
_old_svd_result = _return_type("svd", ("U", "S", "V"))
_geqrf_result = _return_type("geqrf", ("a", "tau"))


def _floating(A: Tensor, name: str, square: bool = True) -> np.ndarray:
    data = A._data
    if data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if square and data.shape[-1] != data.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{data.shape[-2]} by {data.shape[-1]} matrices")
    if data.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_type(data.dtype)}")
    return data


def _outputs(op: str, arrays: list, A: Tensor, saved_after: tuple = ()) -> list[Tensor]:
    """The arrays as tensors, all outputs of one ``op`` node that saves them (and more)."""
    outputs = [Tensor._make(lapack_layout(array)) for array in arrays]
    _recording.record_several(op, outputs, (A,), (*outputs, *saved_after))
    return outputs


def cholesky(A: Tensor, *, upper: bool = False, out=None) -> Tensor:
    return cholesky_factor(A, upper, "linalg.cholesky", "linalg_cholesky")


def cholesky_factor(A: Tensor, upper: bool, name: str, op: str) -> Tensor:
    """The Cholesky factor of A as the node ``op`` (torch.cholesky's is a node of its own),
    errors worded with ``name`` as torch words them."""
    data = _floating(A, name)
    lower = _lower_factor(data, name)
    factor = np.swapaxes(lower, -1, -2).conj() if upper else lower
    return _recording.output(op, lapack_layout(factor), (A,), (_recording.RESULT, upper))


def _lower_factor(data: np.ndarray, name: str) -> np.ndarray:
    try:
        return np.linalg.cholesky(data)
    except np.linalg.LinAlgError:
        order = next(size for size in range(1, data.shape[-1] + 1)
                     if not _positive_definite(data[..., :size, :size]))
        from .linalg import LinAlgError

        raise LinAlgError(f"{name}: The factorization could not be completed because the "
                          f"input is not positive-definite (the leading minor of order {order} "
                          f"is not positive-definite).") from None


def _positive_definite(data: np.ndarray) -> bool:
    try:
        np.linalg.cholesky(data)
    except np.linalg.LinAlgError:
        return False
    return True


@binds("cholesky_solve")
def cholesky_solve(self: Tensor, input2: Tensor, upper: bool = False, *, out=None) -> Tensor:
    """X with (L Lᵀ) X = self, L = input2 a Cholesky factor (Uᵀ U with ``upper``)."""
    return _recording.output("cholesky_solve",
                             lapack_layout(solve_by_factor(self._data, input2._data, upper)),
                             (self, input2), (self, input2, _recording.RESULT, upper))


def solve_by_factor(B: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray:
    lower = np.swapaxes(factor, -1, -2) if upper else factor
    half = np.linalg.solve(lower, B)
    return np.linalg.solve(np.swapaxes(lower, -1, -2), half).astype(B.dtype)


def qr(A: Tensor, mode: str = "reduced", *, out=None):
    data = _floating(A, "linalg.qr", square=False)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    if mode == "r":
        R = np.linalg.qr(data, mode="r")
        Q = np.zeros((0,), data.dtype)
    else:
        Q, R = np.linalg.qr(data, mode=mode)
    return _qr_result(*_outputs("linalg_qr", [Q, R.astype(data.dtype)], A, (mode,)))


def eigh(A: Tensor, UPLO: str = "L", *, out=None):
    data = _floating(A, "linalg.eigh")
    values, vectors = np.linalg.eigh(data, UPLO=UPLO)
    return _eigh_result(*_outputs("linalg_eigh", [values.astype(data.real.dtype),
                                                  vectors.astype(data.dtype)], A))


def eigvalsh(A: Tensor, UPLO: str = "L", *, out=None) -> Tensor:
    """The eigenvalues alone (torch computes the vectors too, for the gradient)."""
    return eigh(A, UPLO).eigenvalues


def svd(A: Tensor, full_matrices: bool = True, *, driver=None, out=None):
    data = _floating(A, "linalg.svd", square=False)
    U, S, Vh = np.linalg.svd(data, full_matrices=full_matrices)
    return _svd_result(*_outputs("linalg_svd", [U, S.astype(data.real.dtype), Vh], A,
                                 (full_matrices,)))


def svdvals(A: Tensor, *, driver=None, out=None) -> Tensor:
    return svd(A, full_matrices=False).S


@binds("svd")
def old_svd(A: Tensor, some: bool = True, compute_uv: bool = True, *, out=None):
    """torch.svd: U, S and V (not Vh), reduced unless ``some=False``."""
    U, S, Vh = svd(A, full_matrices=not some)
    return _old_svd_result(U, S, Vh.mT)


@binds("geqrf")
def geqrf(A: Tensor, *, out=None):
    """LAPACK's QR in its compact form: R on and above the diagonal, the Householder vectors
    below it (each with an implicit 1 on the diagonal), and their scales ``tau``."""
    data = A._data
    if data.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _floating(A, "torch.geqrf", square=False)
    compact = np.empty(data.shape, data.dtype)
    scales = np.empty(data.shape[:-2] + (min(data.shape[-2:]),), data.dtype)
    for index in np.ndindex(data.shape[:-2]):
        reflectors, tau = np.linalg.qr(data[index], mode="raw")  # (raw is transposed)
        compact[index], scales[index] = reflectors.T, tau
    return _geqrf_result(*_outputs("geqrf", [compact, scales], A))


@binds("orgqr")
def householder_product(A: Tensor, tau: Tensor, *, out=None) -> Tensor:
    """The first n columns of H₁ H₂ … H_k, H_i = I - τ_i v_i v_iᵀ with v_i the i-th column
    of ``A`` below the diagonal and a 1 on it (how geqrf stores Q)."""
    data, scales = A._data, tau._data
    name = "torch.linalg.householder_product"
    if data.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if scales.ndim != data.ndim - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {scales.ndim} and input.ndim is equal to "
                           f"{data.ndim}")
    if data.shape[-2] < data.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if data.shape[-1] < scales.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    values = np.empty(data.shape, np.result_type(data, scales))
    for index in np.ndindex(data.shape[:-2]):
        values[index] = reflections_of(data[index], scales[index])[0]
    return _recording.output("linalg_householder_product", lapack_layout(values), (A, tau),
                             (A, tau))


def reflectors(A: np.ndarray, count: int) -> np.ndarray:
    """The Householder vectors geqrf stores in ``A``, one per column: its strict lower
    triangle with ones on the diagonal."""
    vectors = np.tril(A[:, :count], -1)
    vectors[np.arange(count), np.arange(count)] = 1
    return vectors


def reflections_of(A: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """H₁ … H_k applied to the first n columns of the identity, and every partial product
    H_{i+1} … H_k E on the way (the gradient reads them)."""
    m, n = A.shape
    vectors = reflectors(A, tau.shape[-1])
    product = np.eye(m, n, dtype=np.result_type(A, tau))
    partial = [product]
    for i in reversed(range(tau.shape[-1])):
        v = vectors[:, i]
        product = product - tau[i] * np.outer(v, v @ product)
        partial.append(product)
    return product, partial[::-1]
