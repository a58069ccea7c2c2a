"""More of torch's math, continued (_more_math.py imports it): special functions (logaddexp,
erfinv, logit, ...), products (inner, vdot, addmv, addbmm, chain_matmul), matrix_exp,
cov/corrcoef/vander, and the values and gradients behind torch.linalg's additions (linalg.py)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import _dtype as dtypes
from ._autocast import lower_precision
from ._bindings import binds
from ._factorizations import _floating
from ._linalg import bmm, check_three_dimensional, dot, mm
from ._numerics import complex_logaddexp, erf_values, sign_values
from ._operands import floating, operands
from ._products import tensordot
from ._recording import RESULT, output
from ._reductions import sum as _sum
from ._shapes import cat, expanded_shape, permute, reshape, squeeze, t, unsqueeze, view
from ._slicing import narrow
from ._tensor import Tensor
from ._vml import torch_kernel


# ----- special functions ------------------------------------------------------------------------
def _log_of_sums(op: str, ufunc):
    """logaddexp and logaddexp2: log(e^a + e^b) (in base 2), of float tensors only."""

    def apply(self: Tensor, other: Tensor) -> Tensor:
        a, b = operands(self, other)
        if a.dtype.kind not in "fc":
            raise NotImplementedError(f'"{op}_cpu" not implemented for '
                                      f"'{_type_name(self)}'")
        if a.dtype.kind == "c" and op != "logaddexp":
            raise NotImplementedError(f'"{op}_cpu" not implemented for '
                                      f"'{dtypes.scalar_type_name(a.dtype)}'")
        values = complex_logaddexp(a, b) if a.dtype.kind == "c" else ufunc(a, b)
        return output(op, values, (self, other), (self, other))

    apply.__name__ = op
    return binds(op)(apply)


logaddexp = _log_of_sums("logaddexp", np.logaddexp)
logaddexp2 = _log_of_sums("logaddexp2", np.logaddexp2)


def _erfinv_solved(data: np.ndarray) -> np.ndarray:
    """The inverse of erf: Winitzki's approximation, then Newton steps on erf in float64."""
    x = data.astype(np.float64).reshape(-1)
    with np.errstate(all="ignore"):
        log = np.log((1.0 - x) * (1.0 + x))
        middle = 2 / (math.pi * 0.147) + log / 2
        guess = np.sign(x) * np.sqrt(np.sqrt(middle * middle - log / 0.147) - middle)
        tail = np.abs(x) > 0.9  # solved on erfc there: 1 - |x| keeps its digits
        for _ in range(4):
            miss = x - erf_values(guess)
            miss[tail] = np.sign(x[tail]) * (_ERFC(np.abs(guess[tail])).astype(np.float64)
                                             - (1 - np.abs(x[tail])))
            step = miss / (1.1283791670955126 * np.exp(-guess * guess))
            guess = np.where(np.isfinite(step), guess + step, guess)
        guess = np.where(np.abs(x) > 1, np.nan, np.where(np.abs(x) == 1, x * np.inf, guess))
        guess = np.where(x == 0, x, guess)  # (a Newton step turned -0. into 0.)
    return guess.astype(data.dtype).reshape(data.shape)


_ERFC = np.frompyfunc(math.erfc, 1, 1)
# torch's (MKL's) where torch is installed, else solved
erfinv_values = torch_kernel("erfinv", _erfinv_solved)


@binds("erfinv")
def erfinv(self: Tensor) -> Tensor:
    return output("erfinv", erfinv_values(floating(self)), (self,), (self,))


def _erfinv_of(k, value):
    return erfinv(value) if isinstance(value, Tensor) else erfinv_values(value)


@binds("logit")
def logit(self: Tensor, eps=None) -> Tensor:
    if eps is not None and not isinstance(eps, int | float):
        raise TypeError(f"logit(): argument 'eps' must be float, not {type(eps).__name__}")
    data = floating(self)
    if eps is not None and eps >= 0:
        number = data.dtype.type
        data = np.clip(data, number(eps), number(1) - number(eps))
    with np.errstate(all="ignore"):
        ratio = data / (1 - data)
        values = np.log(ratio.astype(np.float64)).astype(data.dtype)
    eps = None if eps is None or eps < 0 else eps
    return output("logit", values, (self,), (self, eps))


def logit_grad(k, grad, self, eps):
    """torch's (infinitely differentiable) logit_backward: NaN outside [0, 1] without eps,
    0 outside [eps, 1 - eps] with it."""
    low, high, outside = (0.0, 1.0, float("nan")) if eps is None else (eps, 1.0 - eps, 0.0)
    return k.where((self >= low) & (self <= high), grad / (self * (1 - self)), outside)


@binds("heaviside")
def heaviside(self: Tensor, values: Tensor) -> Tensor:
    if self.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    a, b = operands(self, values)
    result = np.where(a == 0, b, a > 0).astype(a.dtype)
    return output("heaviside", result, (self, values))


@binds("float_power")
def float_power(self, exponent) -> Tensor:
    """``pow`` in float64: the tensors converted first (ToCopyBackward0 under PowBackward)."""
    base, power = (v.to(dtypes.float64) if isinstance(v, Tensor) and v.dtype != dtypes.float64
                   else v if isinstance(v, Tensor) else float(v) for v in (self, exponent))
    return base.pow(power) if isinstance(base, Tensor) else power.__rpow__(base)


def _angle_conversion(op: str, factor: float):
    def convert(self: Tensor) -> Tensor:
        data = floating(self)
        return output(op, data * np.asarray(factor, data.dtype), (self,))

    convert.__name__ = op
    return binds(op)(convert)


deg2rad = _angle_conversion("deg2rad", math.pi / 180)
rad2deg = _angle_conversion("rad2deg", 180 / math.pi)


@binds("sgn")
def sgn(self: Tensor) -> Tensor:
    """The sign; z/|z| of complex z (0 at 0), whose derivative is not flat."""
    if self._data.dtype.kind == "c":
        return output("sgn_complex", np.sign(self._data), (self,), (self, RESULT))
    return output("sgn", sign_values(self._data), (self,))


@binds("signbit")
def signbit(self: Tensor) -> Tensor:
    return Tensor._make(np.signbit(self._data))


# ----- products ---------------------------------------------------------------------------------
@binds("inner")
def inner(self: Tensor, other: Tensor) -> Tensor:
    """Σ over the last dimensions: torch's tensordot (a dot of two vectors)."""
    if self.ndim == 0 or other.ndim == 0:
        return self * other
    if self.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(self.shape)} and {list(other.shape)}")
    if self.ndim == 1 and other.ndim == 1:
        return reshape(dot(permute(self, 0), permute(other, 0)), ())
    return tensordot(self, other, ([-1], [-1]))


@binds("ger")
def ger(self: Tensor, vec2: Tensor) -> Tensor:
    """The outer product, as torch's: self viewed as a column times vec2."""
    for name, vector in (("self", self), ("vec2", vec2)):
        if vector.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector.ndim}-D")
    return reshape(self, (self.shape[0], 1)) * vec2


@binds("vdot")
def vdot(self: Tensor, other: Tensor) -> Tensor:
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors")
    if self.dtype != other.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{_type_name(self)} and {_type_name(other)}")
    if self.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{self.shape[0]}] and src "
            f"[{other.shape[0]}] to have the same number of elements, but got {self.shape[0]} "
            f"and {other.shape[0]} elements respectively")
    values = np.asarray(np.vdot(self._data, other._data))  # (self conjugated)
    op = "vdot_complex" if values.dtype.kind == "c" else "vdot"
    return output(op, values, (self, other), (self, other))


def _type_name(tensor: Tensor) -> str:
    return tensor.dtype.legacy_name[:-len("Tensor")]


@binds("addmv")
def addmv(self: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta·self + alpha·(mat @ vec), one AddmvBackward0 node."""
    if mat.ndim != 2 or vec.ndim != 1 or self.ndim > 1:
        raise RuntimeError("vector + matrix @ vector expected, got "
                           f"{self.ndim}, {mat.ndim}, {vec.ndim}")
    if mat.shape[1] != vec.shape[0] or (self.ndim and self.shape[0] not in (1, mat.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({self.shape[0] if self.ndim else 1}), "
                           f"mat ({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    product = mat._data @ vec._data
    values = _combined(self._data, product, beta, alpha)
    return output("addmv", values, (self, mat, vec), (mat, vec, beta, alpha))


def _combined(base: np.ndarray, product: np.ndarray, beta, alpha) -> np.ndarray:
    """beta·base + alpha·product in the product's dtype (beta 0: base is not read)."""
    number = product.dtype.type
    product = product * number(alpha) if alpha != 1 else product
    if beta == 0:
        return np.ascontiguousarray(product)
    base = np.broadcast_to(base, product.shape).astype(product.dtype)
    return (base * number(beta) if beta != 1 else base) + product


@binds("addbmm")
@lower_precision
def addbmm(self: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta·self + alpha·Σ_b batch1[b] @ batch2[b], one AddbmmBackward0 node."""
    expanded_shape(self.shape, (batch1.size(1), batch2.size(2)))
    check_three_dimensional(batch1, batch2)
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError("batch1 and batch2 must have same number of batches, got "
                           f"{batch1.shape[0]} and {batch2.shape[0]}")
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x"
                           f"{batch1.shape[2]} and {batch2.shape[1]}x{batch2.shape[2]})")
    product = np.matmul(batch1._data, batch2._data).sum(axis=0)
    values = _combined(self._data, product, beta, alpha)
    return output("addbmm", values, (self, batch1, batch2), (batch1, batch2, beta, alpha))


def addbmm_grad(k, grad, batch1, batch2, alpha, first: bool):
    """grad spread over the batch (expanded), then a bmm with the other factor."""
    spread = k.expand(k.unsqueeze(grad, 0), (batch1.shape[0], batch1.shape[1],
                                             batch2.shape[2]))
    if first:
        return k.scaled(k.bmm(spread, k.swapaxes(batch2, 1, 2)), alpha)
    return k.scaled(k.bmm(k.swapaxes(batch1, 1, 2), spread), alpha)


def _bmm_of(k, a, b):
    return bmm(a, b) if isinstance(a, Tensor) else np.matmul(a, b)


# ----- matrix functions -------------------------------------------------------------------------
_PADE = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
         129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
         40840800.0, 960960.0, 16380.0, 182.0, 1.0)


def expm_values(data: np.ndarray) -> np.ndarray:
    """e^A by scaling and squaring with Higham's degree-13 Padé approximant, in float64
    (complex128 for complex matrices)."""
    matrices = data.astype(np.complex128 if data.dtype.kind == "c" else np.float64).reshape(
        -1, *data.shape[-2:])
    result = np.empty_like(matrices)
    b = _PADE
    for index, A in enumerate(matrices):
        norm = np.abs(A).sum(axis=0).max() if A.size else 0.0
        squarings = max(0, math.ceil(math.log2(norm / 5.371920351148152))) if norm > 0 else 0
        A = A / 2.0 ** squarings
        eye = np.eye(A.shape[0])
        A2 = A @ A
        A4, A6 = A2 @ A2, A2 @ A2 @ A2
        U = A @ (A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4
                 + b[3] * A2 + b[1] * eye)
        V = A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + b[2] * A2 \
            + b[0] * eye
        R = np.linalg.solve(V - U, V + U)
        for _ in range(squarings):
            R = R @ R
        result[index] = R
    return result.reshape(data.shape).astype(data.dtype)


@binds("matrix_exp")
def matrix_exp(A: Tensor) -> Tensor:
    data = _floating(A, "linalg.matrix_exp")
    return output("linalg_matrix_exp", expm_values(data), (A,), (A,))


def matrix_exp_grad(k, grad, A):
    """torch's linalg_matrix_exp_differential: the top right block of exp([[Aᵀ, G], [0, Aᵀ]])."""
    n = A.shape[-1]
    if isinstance(A, Tensor):
        zeros = Tensor._make(np.zeros(A.shape, A._data.dtype))
        meta = cat([cat([A.mT, grad], -1), cat([zeros, A.mT], -1)], -2)
        return narrow(narrow(matrix_exp(meta), -2, 0, n), -1, n, n)
    top = np.concatenate([np.swapaxes(A, -1, -2), grad], -1)
    bottom = np.concatenate([np.zeros_like(A), np.swapaxes(A, -1, -2)], -1)
    return expm_values(np.concatenate([top, bottom], -2))[..., :n, n:]


def substitute(T: np.ndarray, B: np.ndarray, upper: bool, unit: bool) -> np.ndarray:
    """X with T X = B, T triangular (its other triangle is not read), row by row."""
    n = T.shape[-1]
    shape = np.broadcast_shapes(T.shape[:-2], B.shape[:-2]) + B.shape[-2:]
    X = np.zeros(shape, np.result_type(T, B))
    with np.errstate(all="ignore"):
        for i in (reversed(range(n)) if upper else range(n)):
            done = slice(i + 1, n) if upper else slice(0, i)
            row = B[..., i, :] - np.einsum("...j,...jk->...k", T[..., i, done], X[..., done, :])
            X[..., i, :] = row if unit else row / T[..., i, i, None]
    return X


def solve_triangular_grad(k, grad, A, X, upper, left, unitriangular, for_A: bool):
    """torch's linalg_solve_triangular_backward: G_B solves Aᴴ G_B = grad; G_A = -G_B Xᴴ,
    kept to A's triangle."""
    g_b = k.solve_triangular(k.mT(A), grad, not upper, left, unitriangular)
    if not for_A:
        return g_b
    g_a = -k.matmul(g_b, k.mT(X)) if left else -k.matmul(k.mT(X), g_b)
    if upper:
        return k.triu(g_a, 1 if unitriangular else 0)
    return k.tril(g_a, -1 if unitriangular else 0)


def _solve_triangular_of(k, A, B, upper, left, unitriangular):
    if isinstance(A, Tensor):
        from .linalg import solve_triangular

        return solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)
    if not left:
        return np.swapaxes(substitute(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2),
                                      not upper, unitriangular), -1, -2)
    return substitute(A, B, upper, unitriangular)


def partial_cholesky(a: np.ndarray) -> tuple[np.ndarray, int]:
    """LAPACK's unblocked potf2: column by column until a pivot is not positive (left in
    place, with the info its order)."""
    lower = np.tril(a).copy()
    for j in range(a.shape[-1]):
        pivot = a[j, j] - lower[j, :j] @ lower[j, :j]
        if not pivot > 0:
            lower[j, j] = pivot
            return lower, j + 1
        lower[j, j] = np.sqrt(pivot)
        lower[j + 1:, j] = (a[j + 1:, j] - lower[j + 1:, :j] @ lower[j, :j]) / lower[j, j]
    return lower, 0


def pinv_grad(k, grad, pinvA, A):
    """torch's pinv_backward, in the kit's ops (so that create_graph records it)."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = k.mT(pinvA), k.mT(grad)
    if m <= n:
        K = k.matmul(gradh, pinvA)
        KpinvAh = k.matmul(K, pinvAh)
        return (-k.mT(k.matmul(pinvA, K)) + KpinvAh - k.matmul(k.matmul(A, pinvA), KpinvAh)
                + k.matmul(k.matmul(pinvAh, pinvA), gradh - k.matmul(K, A)))
    K = k.matmul(pinvA, gradh)
    pinvAhK = k.matmul(pinvAh, K)
    return (-k.mT(k.matmul(K, pinvA)) + k.matmul(k.matmul(gradh - k.matmul(A, K), pinvA), pinvAh)
            + pinvAhK - k.matmul(k.matmul(pinvAhK, pinvA), A))


def _pinv_of(k, A):
    if isinstance(A, Tensor):
        from .linalg import pinv

        return pinv(A)
    return pinv_values(A, None, None, False)


def kept(values: np.ndarray, atol, rtol, shape: tuple, dtype) -> np.ndarray:
    """Which singular values exceed max(atol, rtol·σ_max) (torch's default rtol: eps·max(m, n),
    or 0 where only a positive atol is given)."""
    atol, rtol = (float(v) if isinstance(v, Tensor) else v for v in (atol, rtol))
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(dtype).eps * max(shape[-2:])
    largest = values.max(axis=-1, keepdims=True) if values.shape[-1] else values[..., :1]
    return values > np.maximum(0.0 if atol is None else atol, rtol * largest)


def pinv_values(data: np.ndarray, atol, rtol, hermitian: bool) -> np.ndarray:
    """V diag(1/σ) Uᴴ over the singular values above max(atol, rtol·σ_max)."""
    if hermitian:
        eigenvalues, vectors = np.linalg.eigh(data)
        u, s = vectors, np.abs(eigenvalues)
        vh = np.swapaxes(vectors * np.sign(eigenvalues)[..., None, :], -1, -2)
    else:
        u, s, vh = np.linalg.svd(data, full_matrices=False)
    keep = kept(s, atol, rtol, data.shape, data.dtype)
    with np.errstate(divide="ignore"):
        inverse = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(data.dtype)
    return (np.swapaxes(vh, -1, -2) * inverse[..., None, :]) @ np.swapaxes(u, -1, -2)


def lstsq_grad(k, grads, A, B, X, vector, for_A: bool):
    """torch's linalg_lstsq_backward: the solution's gradient through pinv(A) (X = pinv(A) B),
    the residuals' (|A X - B|² by column) through r = A X - B."""
    g_x, g_r = grads[0], grads[1]
    b = k.unsqueeze(B, -1) if vector else B
    result = None
    if g_x is not None:
        g = k.unsqueeze(g_x, -1) if vector else g_x
        pinvA = k.pinv(A)
        if for_A:
            result = k.pinv_grad(k.matmul(g, k.mT(b)), pinvA, A)
        else:
            g_b = k.matmul(k.mT(pinvA), g)
            result = k.squeeze_dim(g_b, -1) if vector else g_b
    if g_r is not None and math.prod(g_r.shape):
        x = k.unsqueeze(X, -1) if vector else X
        weighted = k.unsqueeze(g_r, -2) * (k.matmul(A, x) - b)
        if for_A:
            term = k.times(k.matmul(weighted, k.mT(x)), 2)
        else:
            term = k.times(weighted, -2)
            term = k.squeeze_dim(term, -1) if vector else term
        result = term if result is None else result + term
    return result


# ----- statistics and Vandermonde ---------------------------------------------------------------
def _weights_check(weights: Tensor, name: str, count: int, floats: bool) -> None:
    if weights.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {weights.ndim} dimensions")
    if (weights._data.dtype.kind == "f") != floats or weights.dtype == dtypes.bool:
        kind = "floating point" if floats else "integral"
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_type_name(weights)} dtype")
    if weights.numel() != count:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {weights.numel()} != {count}")
    if count and weights._data.min() < 0:
        raise RuntimeError(f"cov(): {name} cannot be negative")


_COV_WARNING = ("cov(): degrees of freedom is <= 0. Correction should be strictly less than "
                "the number of observations. (Triggered internally at /__w/pytorch/pytorch/"
                "aten/src/ATen/native/Correlation.cpp:129.)")


@binds("cov")
def cov(self: Tensor, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:
    """The covariance of the rows (variables) over the columns (observations): torch's
    composite of sum, div, sub, mm and squeeze."""
    if self.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {self.ndim} dimensions")
    if self.dtype == dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = view(self, (1, -1)) if self.ndim < 2 else self
    count, weights = x.shape[1], None
    if fweights is not None:
        _weights_check(fweights, "fweights", count, False)
        weights = fweights
    if aweights is not None:
        _weights_check(aweights, "aweights", count, True)
        weights = aweights if weights is None else weights * aweights
    total = _sum(weights) if weights is not None else Tensor._make(np.asarray(count, np.int64))
    if weights is not None and total.item() == 0:
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    mean = _sum(x * weights if weights is not None else x, 1) / total
    if weights is not None and correction != 0 and aweights is not None:
        norm = total - _sum(weights * aweights) * correction / total
    else:
        norm = total - correction
    if norm.item() <= 0:
        warnings.warn(_COV_WARNING, UserWarning, stacklevel=2)
        norm = Tensor._make(np.zeros_like(norm._data))
    x = x - unsqueeze(mean, 1)
    with np.errstate(divide="ignore", invalid="ignore"):  # (torch's division by 0 is silent)
        return squeeze(mm(x, t(x * weights if weights is not None else x)) / norm)


@binds("corrcoef")
def corrcoef(self: Tensor) -> Tensor:
    if self.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {self.ndim} dimensions")
    c = cov(self)
    if c.ndim == 0:
        return c / c
    spread = c.diagonal().sqrt()
    c = c / view(spread, (-1, 1))
    return (c / view(spread, (1, -1))).clamp(-1, 1)



def _register() -> None:
    from ._formula_kit import Kit

    Kit.erfinv, Kit.logit_grad = _erfinv_of, logit_grad
    Kit.addbmm_grad, Kit.bmm, Kit.matrix_exp_grad = addbmm_grad, _bmm_of, matrix_exp_grad
    Kit.solve_triangular_grad, Kit.solve_triangular = solve_triangular_grad, _solve_triangular_of
    Kit.pinv_grad, Kit.pinv, Kit.lstsq_grad = pinv_grad, _pinv_of, lstsq_grad


_register()
