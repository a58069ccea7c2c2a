"""torch 1.x's linear algebra that old tutorials call: the functions torch 2 removed
(``torch.solve``, ``lstsq``, ``eig``, ``symeig``, ``matrix_rank``) refuse in torch's words,
with what replaces them; ``torch.qr`` and ``torch.cholesky``, deprecated, still answer
(torch.linalg's factors; torch.cholesky as CholeskyBackward0), once warning as torch does."""

from __future__ import annotations

import numpy as np

from ._bindings import bind_function
from ._deprecations import warn_once
from ._factorizations import cholesky_factor
from ._factorizations import qr as linalg_qr
from ._reductions import _return_type, _scalar_type
from ._tensor import Tensor

_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
REMOVED = {
    "solve": _REMOVED + (
        "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` "
        "has its arguments reversed and does not return the LU factorization.\n\nTo get the "
        "LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
        "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)"),
    "lstsq": _REMOVED + (
        "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` "
        "has reversed arguments and does not return the QR decomposition in the returned "
        "tuple (although it returns other information about the problem).\n\nTo get the QR "
        "decomposition consider using `torch.linalg.qr`.\n\nThe returned solution in "
        "`torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
        "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution"),
    "eig": _REMOVED + (
        "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather "
        "than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)"),
    "symeig": _REMOVED + (
        "The default behavior has changed from using the upper triangular portion of the "
        "matrix by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
        "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if "
        "upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be "
        "replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
    "matrix_rank": _REMOVED.rstrip() + (
        "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
        "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."),
}
TENSOR_METHODS = ("solve", "lstsq", "eig", "symeig")  # (matrix_rank never was a method)

_qr_result = _return_type("qr", ("Q", "R"))


def _refusal(name: str):
    def removed(*_arguments, **_options):
        raise RuntimeError(REMOVED[name])

    removed.__name__ = removed.__qualname__ = name
    return removed


def qr(input: Tensor, some: bool = True) -> tuple:
    """torch.qr: torch.linalg.qr's factors ('reduced', or 'complete' without ``some``)."""
    warn_once("torch.qr")
    Q, R = linalg_qr(input, "reduced" if some else "complete")
    return _qr_result(Q, R)


def cholesky(input: Tensor, upper: bool = False, *, out=None) -> Tensor:
    """torch.cholesky: linalg.cholesky's factor as a node of its own (CholeskyBackward0)."""
    warn_once("torch.cholesky")
    data = input._data
    if data.ndim >= 2 and data.shape[-1] == data.shape[-2] and (
            data.dtype.kind not in "fc" or data.dtype == np.float16):  # (after the shape's)
        raise NotImplementedError(f'"cholesky_cpu" not implemented for '
                                  f"'{_scalar_type(data.dtype)}'")
    return cholesky_factor(input, upper, "cholesky", "cholesky")


def bind() -> None:
    """The removed functions as torch's functions and Tensor's methods, and torch.qr."""
    for name in REMOVED:
        bind_function(name, _refusal(name))
        if name in TENSOR_METHODS:
            setattr(Tensor, name, _refusal(name))
    bind_function("qr", qr)
    Tensor.qr = qr
    bind_function("cholesky", cholesky)
    Tensor.cholesky = cholesky
