"""``torch.linalg``: determinants, inverses, solves, norms and factorisations (cholesky, qr,
eigh, svd: _factorizations.py), with torch's nodes (LinalgDetBackward0, LinalgSlogdetBackward0,
LinalgInvExBackward0, LinalgSolveExBackward0, LinalgVectorNormBackward0...). They run on
NumPy's LAPACK: in float32 their last bits can differ from torch's."""

from __future__ import annotations

import numpy as np

from . import _recording
from ._arithmetic import where
from ._factorizations import cholesky, eigh, eigvalsh, qr, svd, svdvals
from ._missing import missing_attribute
from ._products import linalg_cross as cross
from ._reductions import _return_type, _scalar_type
from ._reductions import norm as _tensor_norm
from ._tensor import Tensor


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a matrix the operation cannot take (singular)."""

    __module__ = "torch._C"


LinAlgError = _LinAlgError
_slogdet_result = _return_type("linalg_slogdet", ("sign", "logabsdet"))


def _square(A: Tensor, name: str) -> np.ndarray:
    data = A._data
    if data.ndim < 2 or data.shape[-1] != data.shape[-2]:
        shape = data.shape[-2:] if data.ndim >= 2 else data.shape
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{shape[0] if shape else 1} by {shape[-1] if shape else 1} matrices")
    if data.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_scalar_type(data.dtype)}")
    return data


def det(A: Tensor) -> Tensor:
    data = _square(A, "linalg.det")
    return _recording.output("linalg_det", np.asarray(np.linalg.det(data), data.dtype), (A,),
                             (A, _recording.RESULT))


def slogdet(A: Tensor):
    """(sign, log |det|), both outputs of one node; the gradient flows through the log."""
    data = _square(A, "linalg.slogdet")
    sign, logabsdet = np.linalg.slogdet(data)
    outputs = [Tensor._make(np.asarray(part, data.dtype)) for part in (sign, logabsdet)]
    _recording.record_several("linalg_slogdet", outputs, (A,), (A,))
    return _slogdet_result(*outputs)


def logdet(A: Tensor) -> Tensor:
    """log det A, NaN where det A < 0: torch's composite of slogdet and where (its graph is a
    WhereBackward0 over the LinalgSlogdetBackward0)."""
    _square(A, "logdet")
    sign, logabsdet = slogdet(A)
    return where(sign == -1, float("nan"), logabsdet)


def inv(A: Tensor) -> Tensor:
    data = _square(A, "linalg.inv")
    try:
        values = np.linalg.inv(data)
    except np.linalg.LinAlgError:
        raise _LinAlgError("linalg.inv: The diagonal element 1 is zero, the inversion could not "
                           "be completed because the input matrix is singular.") from None
    return _recording.output("linalg_inv", values.astype(data.dtype), (A,), (_recording.RESULT,))


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """X with A X = B (B a vector or a batch of them, or matrices)."""
    if not left:
        raise NotImplementedError("torch.linalg.solve(left=False) is not in the built-in NumPy "
                                  "engine; switch the engine to torch")
    data = _square(A, "torch.linalg.solve")
    vector = B._data.ndim == 1 or B._data.ndim == data.ndim - 1
    right = B._data[..., None] if vector else B._data
    try:
        values = np.linalg.solve(data, right)
    except np.linalg.LinAlgError:
        raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is "
                           "singular.") from None
    values = values[..., 0] if vector else values
    return _recording.output("linalg_solve", values.astype(np.result_type(data, B._data)),
                             (A, B), (A, _recording.RESULT, vector))


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    return _tensor_norm(x, ord, dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,
                dtype=None) -> Tensor:
    if ord != "fro":
        raise NotImplementedError(f"torch.linalg.matrix_norm(ord={ord!r}) is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    return _tensor_norm(A, 2, dim, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """The 2-norm of all elements (a matrix's Frobenius norm), or a vector norm over ``dim``."""
    if ord in (None, "fro") or (dim is not None and not isinstance(dim, tuple | list)) or \
            A.dim() == 1:
        return vector_norm(A, 2 if ord in (None, "fro") else ord, dim, keepdim)
    return matrix_norm(A, ord, dim if dim is not None else (-2, -1), keepdim)


_top_slogdet = _return_type("slogdet", ("sign", "logabsdet"))


def top_level_slogdet(A: Tensor):
    """torch.slogdet: linalg's, under its own name."""
    return _top_slogdet(*slogdet(A))


Tensor.det, Tensor.inverse, Tensor.logdet = det, inv, logdet  # x.det(), x.inverse()...
Tensor.slogdet = top_level_slogdet

__all__ = ["det", "slogdet", "inv", "solve", "vector_norm", "matrix_norm", "norm",
           "LinAlgError", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals", "cross"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.linalg")
