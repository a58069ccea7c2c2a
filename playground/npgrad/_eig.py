"""torch.linalg.eig and eigvals: the eigen decomposition of a general square matrix, complex
always (LAPACK's geev: each eigenvector of norm one, its largest component real), one
LinalgEigBackward0 node, and torch's derivative of it."""

from __future__ import annotations

import numpy as np

from . import _recording
from ._factorizations import _floating
from ._formula_kit import Kit
from ._linalg import lapack_layout
from ._reductions import _return_type
from ._tensor import Tensor

_eig_result = _return_type("linalg_eig", ("eigenvalues", "eigenvectors"))
_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
PHASE_MESSAGE = ("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                 "multiplication by e^{i phi}. The specified loss function depends on this "
                 "quantity, so it is ill-defined.")


def eig(A: Tensor, *, out=None):
    data = _floating(A, "linalg.eig")
    target = _COMPLEX.get(data.dtype, data.dtype)
    values, vectors = np.linalg.eig(data)
    outputs = [Tensor._make(np.ascontiguousarray(values.astype(target))),
               Tensor._make(lapack_layout(vectors.astype(target)))]
    _recording.record_several("linalg_eig", outputs, (A,), tuple(outputs))
    return _eig_result(*outputs)


def eigvals(A: Tensor, *, out=None) -> Tensor:
    """The eigenvalues alone (torch computes the vectors too, for the gradient)."""
    return eig(A).eigenvalues


def eig_grad(k, grad, eigenvalues, eigenvectors):
    """torch's linalg_eig_backward: gA = V⁻ᴴ (diag(gL) + (Vᴴ gV - Vᴴ V diag(Re(Vᴴ gV))) / E*) Vᴴ,
    E*_ij = conj(L_j) - conj(L_i); refused where the loss depends on the vectors' phases."""
    g_values, g_vectors = grad[0], grad[1]
    if not isinstance(eigenvectors, np.ndarray):
        raise NotImplementedError("the second derivative of linalg.eig is not in the built-in "
                                  "NumPy engine; switch the engine to torch")
    V, L = eigenvectors, eigenvalues
    Vh = np.conj(np.swapaxes(V, -1, -2))
    if g_vectors is None:
        inner = np.zeros(V.shape, V.dtype)
        inner[..., range(L.shape[-1]), range(L.shape[-1])] = g_values
    else:
        inner = Vh @ g_vectors
        diagonal = np.diagonal(inner, axis1=-2, axis2=-1)
        if not np.allclose(diagonal.imag, 0, rtol=1e-2, atol=1e-2):
            raise RuntimeError(PHASE_MESSAGE)
        inner = inner - Vh @ (V * diagonal.real[..., None, :])
        gaps = np.conj(L)[..., None, :] - np.conj(L)[..., :, None]
        count = L.shape[-1]
        gaps[..., range(count), range(count)] = 1
        inner = inner / gaps
        if g_values is not None:
            inner[..., range(count), range(count)] = g_values
    return np.linalg.solve(Vh, inner @ Vh).astype(V.dtype)


Kit.eig_grad = eig_grad
