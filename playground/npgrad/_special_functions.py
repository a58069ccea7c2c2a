"""torch.special's own functions: entr, erfcx, ndtr, ndtri, log_ndtr, xlog1py, sinc and the
modified Bessel functions i0, i0e, i1, i1e, with torch's nodes and derivatives. Values are
computed in float64 (series, asymptotic expansions and Newton steps accurate to its last
bits) and rounded once to the tensor's dtype."""

from __future__ import annotations

import math

import numpy as np

from ._bindings import binds
from ._formula_kit import Kit
from ._operands import floating
from ._out_argument import accept_out_in
from ._recording import RESULT, output
from ._tensor import Tensor

_ERFC = np.vectorize(math.erfc, otypes=[np.float64])
_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)


def _wide(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float64)


def _entr_values(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(x > 0, -x * np.log(np.where(x > 0, x, 1)), np.where(x == 0, 0, -np.inf))
    return np.where(np.isnan(x), x, values)


def _erfcx_values(x: np.ndarray) -> np.ndarray:
    """exp(x²)·erfc(x): directly below 25, by its asymptotic series above (erfc underflows)."""
    result = np.empty_like(x)
    large = x >= 25
    small = ~large
    with np.errstate(over="ignore", invalid="ignore"):
        result[small] = np.exp(x[small] ** 2) * _ERFC(x[small]) if small.any() else 0
    if large.any():
        z = x[large]
        term, total = np.ones_like(z), np.ones_like(z)
        for k in range(1, 12):
            term = term * -(2 * k - 1) / (2 * z * z)
            total = total + term
        result[large] = total / (z * _SQRT_PI)
    return result


def _log_ndtr_values(x: np.ndarray) -> np.ndarray:
    """log Φ(x): through erfcx far left (log of erfcx(-x/√2)/2 - x²/2), else log(erfc/2)."""
    with np.errstate(divide="ignore"):
        left = np.log(_erfcx_values(-x / math.sqrt(2)) / 2) - x * x / 2
        right = np.log1p(-_ERFC(x / math.sqrt(2)) / 2)
        middle = np.log(_ERFC(-x / math.sqrt(2)) / 2)
    return np.where(x < -5, left, np.where(x > 5, right, middle))


def _ndtri_values(p: np.ndarray) -> np.ndarray:
    """Φ⁻¹(p): a rational first guess, then Newton steps on log Φ (accurate in both tails)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.minimum(p, 1 - p)
        t = np.sqrt(-2 * np.log(np.where(q > 0, q, 1)))
        guess = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (
            1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3)
        x = np.where(p < 0.5, -guess, guess)
        for _ in range(6):
            log_cdf = _log_ndtr_values(x)
            density_over_cdf = np.exp(-x * x / 2 - log_cdf) / _SQRT_2PI
            x = x - (log_cdf - np.log(np.where(p > 0, p, 1))) / density_over_cdf
    x = np.where(p == 0.5, 0.0, x)
    x = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, x))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)


def _bessel_series(x: np.ndarray, order: int) -> np.ndarray:
    """I_order(x) = Σ (x/2)^(2k+order) / (k! (k+order)!), for moderate |x|."""
    half = x / 2
    term = half ** order / math.factorial(order)
    total = term.copy()
    square = half * half
    for k in range(1, 120):
        term = term * square / (k * (k + order))
        total = total + term
    return total


def _scaled_bessel_asymptotic(x: np.ndarray, order: int) -> np.ndarray:
    """e^-|x| I_order(|x|) for large |x|: Hankel's expansion, 4ν² = mu."""
    mu = 4 * order * order
    z = np.abs(x)
    term, total = np.ones_like(z), np.ones_like(z)
    for k in range(1, 30):
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8 * z)
        total = total + term
    return total / np.sqrt(2 * math.pi * z)


def _scaled_bessel(x: np.ndarray, order: int) -> np.ndarray:
    """e^-|x| I_order(x) (odd in x for order 1)."""
    z = np.abs(x)
    near = z <= 30
    result = np.empty_like(z)
    with np.errstate(over="ignore", invalid="ignore"):
        result[near] = _bessel_series(z[near], order) * np.exp(-z[near])
    result[~near] = _scaled_bessel_asymptotic(z[~near], order)
    return np.where(x < 0, -result, result) if order == 1 else result


def _bessel(x: np.ndarray, order: int) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):
        return _scaled_bessel(x, order) * np.exp(np.abs(x))


_VALUES = {"special_entr": _entr_values, "special_erfcx": _erfcx_values,
           "special_log_ndtr": _log_ndtr_values, "special_ndtri": _ndtri_values,
           "i0": lambda x: _bessel(x, 0), "special_i0e": lambda x: _scaled_bessel(x, 0),
           "special_i1": lambda x: _bessel(x, 1), "special_i1e": lambda x: _scaled_bessel(x, 1)}
# what each saves for its derivative
_SAVES = {"special_entr": "self", "special_erfcx": "both", "special_log_ndtr": "both",
          "special_ndtri": "result", "i0": "self", "special_i0e": "both", "special_i1": "both",
          "special_i1e": "both"}


def _unary(op: str, name: str):
    def apply(self: Tensor) -> Tensor:
        data = floating(self)
        values = _VALUES[op](_wide(data)).astype(data.dtype)
        saves = {"self": (self,), "result": (RESULT,), "both": (self, RESULT)}[_SAVES[op]]
        return output(op, values, (self,), saves)

    apply.__name__ = name
    return apply


entr = _unary("special_entr", "entr")
erfcx = _unary("special_erfcx", "erfcx")
log_ndtr = _unary("special_log_ndtr", "log_ndtr")
ndtri = _unary("special_ndtri", "ndtri")
i0 = binds("i0")(_unary("i0", "i0"))
i0e = _unary("special_i0e", "i0e")
i1 = _unary("special_i1", "i1")
i1e = _unary("special_i1e", "i1e")


def ndtr(self: Tensor) -> Tensor:
    """Φ(x), as torch composes it: (1 + erf(x/√2)) · 0.5."""
    from ._arithmetic import add_scalar, mul_scalar

    return mul_scalar(add_scalar(mul_scalar(floating_tensor(self), 0.7071067811865476).erf(),
                                 1), 0.5)


def floating_tensor(self: Tensor) -> Tensor:
    return self if self._data.dtype.kind == "f" else Tensor._make(floating(self))


def xlog1py(self, other) -> Tensor:
    """self · log1p(other), 0 where self is 0 (other not NaN): SpecialXlog1PyBackward0, or 1/2
    when self or other is a number."""
    if not isinstance(self, Tensor):
        data = _xlog1py_values(np.asarray(self, floating(other).dtype), floating(other))
        return output("special_xlog1py_self_scalar", data, (other,), (self, other))
    if not isinstance(other, Tensor):
        data = _xlog1py_values(floating(self), np.asarray(other, floating(self).dtype))
        return output("special_xlog1py_other_scalar", data, (self,), (self, other))
    a, b = floating(self), floating(other)
    target = np.result_type(a, b)
    return output("special_xlog1py", _xlog1py_values(a.astype(target), b.astype(target)),
                  (self, other), (self, other))


def _xlog1py_values(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        values = x * np.log1p(y)
    return np.where((x == 0) & ~np.isnan(y), np.zeros((), values.dtype), values)


# ----- derivatives ------------------------------------------------------------------------------
def bessel_of(k, value, order: int, scaled: bool):
    """I₀, I₁ (or their scaled forms) of a saved value, for a formula."""
    if isinstance(value, np.ndarray):
        function = _scaled_bessel if scaled else _bessel
        return function(_wide(value), order).astype(value.dtype)
    raise NotImplementedError("the second derivative of a modified Bessel function is not in "
                              "the built-in NumPy engine; switch the engine to torch")


def i1_grad(k, grad, self, result, scaled: bool):
    """torch's i1_backward and i1e_backward: I₀(x) - I₁(x)/x (scaled: minus sgn(x)·I₁e too),
    1/2 at 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = result / self
        if scaled:
            ratio = result * (np.sign(self) + 1 / self)
        slope = bessel_of(k, self, 0, scaled) - ratio
    return grad * np.where(self == 0, np.asarray(0.5, slope.dtype), slope)


for _function in (bessel_of, i1_grad):
    setattr(Kit, _function.__name__, _function)
Kit.sqrt_2pi = _SQRT_2PI
Kit.sqrt_pi = _SQRT_PI


def xlog1py_grad(k, grad, x, y):
    """torch's: xlog1py(grad, y), 0 where x is 0 and y <= -1."""
    if isinstance(x, Tensor) or isinstance(y, Tensor) or isinstance(grad, Tensor):
        raise NotImplementedError("the second derivative of torch.special.xlog1py is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    dtype = grad.dtype
    values = _xlog1py_values(grad, np.asarray(y, dtype))
    return np.where((np.asarray(x) == 0) & (np.asarray(y) <= -1), np.zeros((), dtype), values)


Kit.xlog1py_grad = xlog1py_grad


@binds("sinc")
def sinc(self: Tensor) -> Tensor:
    """sin(πx) / (πx), 1 at 0 (computed in the input's dtype, as torch's kernel)."""
    data = floating(self)
    with np.errstate(all="ignore"):
        product = data * data.dtype.type(math.pi)
        wide = np.complex128 if data.dtype.kind == "c" else np.float64
        values = np.where(data == 0, 1, np.sin(product.astype(wide)).astype(data.dtype)
                          / product)
    return output("sinc", values.astype(data.dtype), (self,), (self,))


def sinc_grad(k, grad, self):
    """torch's sinc_backward: (πx cos πx - sin πx) / (πx²), 0 where x is 0."""
    self_pi = k.times(self, math.pi)
    squared = k.times(self * self, math.pi)
    out = grad * (self_pi * k.cos(self_pi) - k.sin(self_pi)) / squared
    return k.where(squared == 0, 0, out)


Kit.sinc_grad = sinc_grad

# torch's out= for every function here (_out_argument.py)
accept_out_in(globals())
