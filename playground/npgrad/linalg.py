"""``torch.linalg``: determinants, inverses, solves, norms and factorisations (cholesky, qr,
eigh, svd: _factorizations.py), with torch's nodes (LinalgDetBackward0, LinalgSlogdetBackward0,
LinalgInvExBackward0, LinalgSolveExBackward0, LinalgVectorNormBackward0...). They run on
NumPy's LAPACK: in float32 their last bits can differ from torch's."""

from __future__ import annotations

import math

import numpy as np

from . import _more_math_linalg, _recording, _reductions
from ._arithmetic import where
from ._autocast import lower_precision
from ._bindings import binds
from ._eig import eig, eigvals  # noqa: F401 - torch.linalg's
from ._factorizations import cholesky, eigh, eigvalsh, householder_product, qr, svd, svdvals
from ._linalg import lapack_layout, matmul
from ._lu import getrf, lu, lu_factor, lu_factor_ex, lu_solve, row_order  # noqa: F401
from ._matrix_chains import chain_matmul, multi_dot  # noqa: F401 - torch.linalg's
from ._missing import missing_attribute
from ._more_math_linalg import _type_name
from ._operands import operands
from ._out_argument import accept_out_in
from ._pointwise import clone
from ._products import linalg_cross as cross
from ._reductions import _return_type, _scalar_type
from ._reductions import norm as _tensor_norm
from ._shapes import permute, reshape, unsqueeze
from ._tensor import Tensor, _wrap_dim


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
    outputs = [Tensor._make(np.asarray(sign, data.dtype)),
               Tensor._make(np.asarray(logabsdet, data.real.dtype))]
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
    return _recording.output("linalg_inv", lapack_layout(values.astype(data.dtype)), (A,),
                             (_recording.RESULT,))


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """X with A X = B (B a vector or a batch of them, or matrices), or X A = B."""
    data, right, vector = _solve_operands(A, B, left, "torch.linalg.solve")
    try:
        values = np.linalg.solve(data, right)
    except np.linalg.LinAlgError:
        raise _LinAlgError("torch.linalg.solve: The solver failed because the input matrix is "
                           "singular.") from None
    return _solution(A, B, values, vector, left)


def _solve_operands(A: Tensor, B: Tensor, left: bool, name: str) -> tuple:
    """A's and B's arrays as A X = B solves them (for X A = B, transposed), torch's checks
    first; and whether B is a vector (or a batch of them)."""
    if A.dtype != B.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_type_name(A)} and B of type {_type_name(B)} instead")
    data = _square(A, name)
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])
    right = B._data[..., None] if vector else B._data
    if (data.shape[-1] != right.shape[-2]) if left else (data.shape[-2] != right.shape[-1]):
        raise RuntimeError("linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({data.shape[-2]}x{data.shape[-1]}"
                           f" and {right.shape[-2]}x{right.shape[-1]})")
    if not left:
        return np.swapaxes(data, -1, -2), np.swapaxes(right, -1, -2), vector
    return data, right, vector


def _solution(A: Tensor, B: Tensor, values: np.ndarray, vector: bool, left: bool) -> Tensor:
    """The solution as torch lays it out (LAPACK's columns, or rows for X A = B)."""
    values = values[..., 0] if vector else values
    values = values.astype(np.result_type(A._data, B._data))
    values = lapack_layout(values) if left else np.ascontiguousarray(np.swapaxes(values, -1, -2))
    return _recording.output("linalg_solve", values, (A, B), (A, _recording.RESULT, vector, left))


def vector_norm(x: Tensor, ord=2, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    if isinstance(ord, str):
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        "str")
    return _tensor_norm(x, ord, dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,
                dtype=None) -> Tensor:
    """'fro' (a vector norm), 'nuc' and ±2 (of the singular values, the two dims moved to the
    end first), ±1 and ±inf (the largest or smallest column or row sum): torch's ops."""
    data = A._data
    if data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if data.dtype.kind not in "fc":
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_type(data.dtype)}")
    dims = list(dim) if isinstance(dim, tuple | list) else [dim]
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(map(str, dims)))
    first, second = (_wrap_dim(d, data.ndim) for d in dims)
    if first == second:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({first}, "
                           f"{second})")
    if ord == "fro":
        return vector_norm(A, 2, (first, second), keepdim)
    if ord != "nuc" and (isinstance(ord, str) or abs(ord) not in (1, 2, math.inf)):
        text = ord if isinstance(ord, str) or not float(ord).is_integer() else int(ord)
        raise RuntimeError(f"linalg.matrix_norm: Order {text} not supported.")
    extreme = _reductions.amax if ord == "nuc" or ord > 0 else _reductions.amin
    if ord == "nuc" or abs(ord) == 2:
        order = [d for d in range(data.ndim) if d not in (first, second)] + [first, second]
        values = svdvals(permute(A, *order))
        result = _reductions.sum(values, -1, keepdim) if ord == "nuc" else \
            extreme(values, -1, keepdim)
        if keepdim:
            result = permute(unsqueeze(result, -1), *np.argsort(order).tolist())
        return result
    if abs(ord) == math.inf:
        first, second = second, first
    if not keepdim and first < second:
        second -= 1
    return extreme(vector_norm(A, 1, (first,), keepdim), second, keepdim)


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """A vector norm, or a matrix norm where ``ord`` is given for two dims (or a matrix)."""
    dims = None if dim is None else tuple(dim) if isinstance(dim, tuple | list) else (dim,)
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                           f"{list(dims)}")
    if dims is None and ord is not None and A.ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.ndim}D.")
    if isinstance(ord, str) or (ord is not None and len(dims or range(A.ndim)) == 2):
        return matrix_norm(A, ord, dims if dims is not None else (0, 1), keepdim)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim)


_top_slogdet = _return_type("slogdet", ("sign", "logabsdet"))


def top_level_slogdet(A: Tensor):
    """torch.slogdet: linalg's, under its own name."""
    return _top_slogdet(*slogdet(A))


Tensor.det, Tensor.inverse, Tensor.logdet = det, inv, logdet  # x.det(), x.inverse()...
Tensor.slogdet = top_level_slogdet

# ----- more of torch.linalg (values and gradients: _more_math_linalg.py) -----------------------
_inv_ex_result = _return_type("linalg_inv_ex", ("inverse", "info"))
_solve_ex_result = _return_type("linalg_solve_ex", ("result", "info"))
_cholesky_ex_result = _return_type("linalg_cholesky_ex", ("L", "info"))
_lstsq_result = _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))


@binds("matrix_power")
def matrix_power(A: Tensor, n: int) -> Tensor:
    """A^n by torch's products: a copy for 0 and 1, an inverse for negative n, squarings."""
    data = A._data
    if data.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if data.shape[-1] != data.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they "
                           f"are {data.shape[-2]} by {data.shape[-1]} matrices")
    if n == 0:
        return clone(A).copy_(Tensor._make(np.eye(data.shape[-1], dtype=data.dtype)))
    if n == 1:
        return clone(A)
    a, n = (inv(A) if n < 0 else A), abs(n)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def solve_triangular(A: Tensor, B: Tensor, *, upper=None, left: bool = True,
                     unitriangular: bool = False, out=None) -> Tensor:
    """X with A X = B (X A = B if not ``left``), A triangular: substitution."""
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: '
                        '"upper"')
    data = _square(A, "linalg.solve_triangular")
    rows, columns = (B.shape[-2], B.shape[-1]) if B.ndim >= 2 else (0, 0)
    if (rows if left else columns) != data.shape[-1]:
        raise RuntimeError("linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {'AX = B' if left else 'XA = B'} ({data.shape[-2]}x"
                           f"{data.shape[-1]} and {rows}x{columns})")
    a, b = operands(A, B)
    values = _more_math_linalg._solve_triangular_of(None, a, b, upper, left, unitriangular)
    return _recording.output("linalg_solve_triangular", lapack_layout(values), (A, B),
                             (A, _recording.RESULT, upper, left, unitriangular))


@lower_precision
def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    if x._data.dtype.kind not in "fc":
        raise RuntimeError("linalg.vecdot: Expected a floating point or complex tensor as input. "
                           f"Got {_scalar_type(x._data.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError("linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {_more_math_linalg._type_name(x)} and y of type "
                           f"{_more_math_linalg._type_name(y)} instead")
    if x.ndim == 1 and y.ndim == 1:
        return _more_math_linalg.vdot(x, y)
    return _reductions.sum(x * y, dim)


def matrix_rank(A: Tensor, tol=None, hermitian: bool = False, *, atol=None, rtol=None,
                out=None) -> Tensor:
    """The count of singular values above max(atol, rtol·σ_max) (``tol``: the legacy atol)."""
    data = A._data
    if data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    values = np.abs(eigvalsh(A)._data) if hermitian else np.linalg.svd(data, compute_uv=False)
    keep = _more_math_linalg.kept(values, tol if atol is None else atol, rtol, data.shape,
                                  data.dtype)
    return Tensor._make(np.asarray(np.sum(keep, axis=-1), np.int64))


_CONDITION_ORDERS = (None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc")


def cond(A: Tensor, p=None, *, out=None) -> Tensor:
    """σ_max / σ_min (p None or ±2), else ‖A‖ ‖A⁻¹‖ (an inverse of inf where A is singular)."""
    if p not in _CONDITION_ORDERS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if p in (None, 2, -2):
        values = svdvals(A)
        last = values.shape[-1] - 1
        top, bottom = values.narrow(-1, 0, 1), values.narrow(-1, last, 1)
        return (bottom / top if p == -2 else top / bottom).squeeze(-1)
    name = p if isinstance(p, str) else str(int(p)) if abs(p) != math.inf else \
        "-9223372036854775808"
    _square(A, f"linalg.cond(ord={name})")
    inverse, info = inv_ex(A)
    # in place, as torch's: its inv_ex node saved the inverse, so backward fails as torch's
    inverse.masked_fill_(Tensor._make((info._data > 0)[..., None, None]), math.inf)
    return (matrix_norm(A, p) * matrix_norm(inverse, p)).nan_to_num(math.inf, math.inf,
                                                                    -math.inf)


def _lu_solve(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int]:
    """LAPACK's getrf (partial pivoting) and its solve, for one matrix that may be singular:
    the solution (inf or NaN past a zero pivot, as torch's) and the info (the first zero
    pivot, from 1)."""
    packed = a.copy()
    order = row_order(getrf(packed))
    zeros = np.flatnonzero(np.diagonal(packed) == 0)
    half = _more_math_linalg.substitute(packed, b[order], False, True)
    return _more_math_linalg.substitute(packed, half, True, False), \
        int(zeros[0]) + 1 if zeros.size else 0


def _solved(data: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(solutions, infos) of A X = B over a batch, singular matrices included."""
    shape = np.broadcast_shapes(data.shape[:-2], right.shape[:-2])
    a = np.broadcast_to(data, shape + data.shape[-2:]).reshape(-1, *data.shape[-2:])
    b = np.broadcast_to(right, shape + right.shape[-2:]).reshape(-1, *right.shape[-2:])
    values, infos = np.empty(b.shape, np.result_type(a, b)), np.zeros(len(a), np.int32)
    for index in range(len(a)):
        try:
            values[index] = np.linalg.solve(a[index], b[index])
        except np.linalg.LinAlgError:
            values[index], infos[index] = _lu_solve(a[index], b[index])
    return values.reshape(shape + right.shape[-2:]), infos.reshape(shape)


def inv_ex(A: Tensor, *, check_errors: bool = False, out=None):
    data = _square(A, "linalg.inv")
    values, info = _solved(data, np.eye(data.shape[-1], dtype=data.dtype))
    if check_errors and info.any():
        raise _LinAlgError(f"linalg.inv_ex: The diagonal element {int(info.flat[0])} is zero, "
                           "the inversion could not be completed because the input matrix is "
                           "singular.")
    inverse = _recording.output("linalg_inv", lapack_layout(values.astype(data.dtype)), (A,),
                                (_recording.RESULT,))
    return _inv_ex_result(inverse, Tensor._make(info))


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out=None):
    data, right, vector = _solve_operands(A, B, left, "linalg.solve")
    values, info = _solved(data, right)
    if check_errors and info.any():
        raise _LinAlgError("torch.linalg.solve_ex: The solver failed because the input matrix "
                           "is singular.")
    return _solve_ex_result(_solution(A, B, values, vector, left), Tensor._make(info))


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False, out=None):
    data = _square(A, "linalg.cholesky")
    flat = data.reshape(-1, *data.shape[-2:])
    factors = [_more_math_linalg.partial_cholesky(matrix) for matrix in flat]
    info = np.array([order for _, order in factors], np.int32).reshape(data.shape[:-2])
    if check_errors and info.any():
        raise _LinAlgError("linalg.cholesky_ex: The factorization could not be completed "
                           "because the input is not positive-definite (the leading minor of "
                           f"order {int(info.flat[0])} is not positive-definite).")
    if not info.any():
        return _cholesky_ex_result(cholesky(A, upper=upper), Tensor._make(info))
    lower = np.stack([factor for factor, _ in factors]).reshape(data.shape)
    factor = lapack_layout(np.swapaxes(lower, -1, -2) if upper else lower)
    L = _recording.output("linalg_cholesky", factor, (A,), (_recording.RESULT, upper))
    return _cholesky_ex_result(L, Tensor._make(info))


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):
    """The least-squares solution of A X = B (NumPy's gelsd: the same solution as torch's
    gelsy default where A has full rank), with what each driver reports beside it."""
    if A.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if A.dtype != B.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {_type_name(A)} and other's dtype "
                           f"{_type_name(B)}")
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])
    if A.shape[-2] != B.shape[-1 if vector else -2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match "
                           f"other.size({-1 if vector else -2})")
    a, b = operands(A, B)
    b = b[..., None] if vector else b
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    m, n = a.shape[-2:]
    flat_a = np.broadcast_to(a, shape + a.shape[-2:]).reshape(-1, m, n)
    flat_b = np.broadcast_to(b, shape + b.shape[-2:]).reshape(-1, m, b.shape[-1])
    limit = np.finfo(a.dtype).eps * max(m, n) if rcond is None else rcond
    answers = [np.linalg.lstsq(x, y, rcond=limit) for x, y in zip(flat_a, flat_b, strict=True)]
    solution = np.stack([s for s, *_ in answers]).reshape(shape + (n, b.shape[-1]))
    solution = (solution[..., 0] if vector else solution).astype(a.dtype)
    ranks = np.array([rank for _, _, rank, _ in answers], np.int64).reshape(shape)
    empty = np.zeros((0,), a.dtype)
    driver = driver or "gelsy"
    residuals = empty
    if driver != "gelsy" and m > n and (ranks == n).all():
        residuals = np.stack([r for _, r, *_ in answers]).reshape(shape + (-1,)).astype(a.dtype)
    singular = np.stack([s for *_, s in answers]).reshape(shape + (-1,)).astype(a.dtype) \
        if driver in ("gelsd", "gelss") else empty
    rank = np.zeros((0,), np.int64) if driver == "gels" else ranks
    outputs = [Tensor._make(lapack_layout(solution)), Tensor._make(residuals)]
    _recording.record_several("linalg_lstsq", outputs, (A, B), (A, B, outputs[0], vector))
    return _lstsq_result(*outputs, Tensor._make(rank), Tensor._make(singular))


def pinv(A: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None, out=None):
    """The pseudo-inverse from the SVD (eigh if ``hermitian``), singular values at most
    max(atol, rtol·σ_max) dropped (the legacy ``rcond`` is rtol)."""
    data = A._data
    if data.ndim < 2 or data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.pinv({_more_math_linalg._type_name(A)}{{{list(A.shape)}}}): "
                           "expected a tensor with 2 or more dimensions of float, double, cfloat "
                           "or cdouble types")
    rtol = rcond if rtol is None and atol is None else rtol
    values = _more_math_linalg.pinv_values(data, atol, rtol, hermitian)
    return _recording.output("linalg_pinv", values, (A,), (A, _recording.RESULT))


@binds("pinverse")
def pinverse(self: Tensor, rcond: float = 1e-15) -> Tensor:
    return pinv(self, rcond)


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of A read as a matrix (its first ``ind`` sides against the rest), shaped
    as torch shapes it: the rest first."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, columns = math.prod(A.shape[:ind]), math.prod(A.shape[ind:])
    if rows != columns:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {columns} != {rows}")
    try:
        inverse = inv(reshape(A, (rows, columns)))
    except _LinAlgError as error:  # (torch's words here: "inv: ...")
        raise _LinAlgError(str(error).removeprefix("linalg.")) from None
    return reshape(inverse, (*A.shape[ind:], *A.shape[:ind]))


def tensorsolve(A: Tensor, B: Tensor, dims=None) -> Tensor:
    """X with tensordot(A, X, X.ndim) = B; ``dims``: A's sides moved to its end first."""
    if dims is not None:
        dims = [d % A.ndim for d in dims]
        A = permute(A, [d for d in range(A.ndim) if d not in dims] + dims)
    shape = tuple(A.shape[B.ndim:])
    rows, columns = math.prod(B.shape), math.prod(shape)
    if rows != columns:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {columns} != {rows}")
    return reshape(solve(reshape(A, (rows, columns)), reshape(B, (rows,))), shape)


matrix_exp = _more_math_linalg.matrix_exp


__all__ = ["det", "slogdet", "inv", "solve", "vector_norm", "matrix_norm", "norm",
           "LinAlgError", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals", "cross",
           "multi_dot", "matrix_power", "solve_triangular", "vecdot", "matrix_rank", "cond",
           "inv_ex", "solve_ex", "cholesky_ex", "lstsq", "pinv", "matrix_exp",
           "householder_product", "tensorinv", "tensorsolve"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.linalg")

# torch's out= for every function here (_out_argument.py)
accept_out_in(globals())
