"""torch.igamma and torch.igammac (torch.special.gammainc, gammaincc): the regularised lower and
upper incomplete gamma functions P(a, x) and Q(a, x), with torch's nodes (IgammaBackward0,
IgammacBackward0: a gradient for x only, none for a, as torch has none) and its values at the
edges (a = 0, x = 0, infinities, NaN for a negative a or x).

The values are computed in double and rounded once to the result's dtype: a power series below
x = a + 1, a continued fraction above it (each converging fast there). torch's float32 kernel
works in float, so a float32 value may differ from torch's in its last bit."""

from __future__ import annotations

import math

import numpy as np

from ._bindings import binds
from ._factories import _floating_target
from ._operands import operands
from ._recording import output
from ._tensor import Tensor

_EPSILON = 2.0 ** -53
_TINY = 1e-300
_MOST_TERMS = 100_000  # (a series near a = x takes some sqrt(a) terms: enough past a = 1e9)


def _edge(a: float, x: float) -> float | None:
    """P(a, x) where a or x is at an edge of the domain; None elsewhere."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0:
        return math.nan
    if a == 0:
        return 1.0 if x > 0 else math.nan
    if x == 0:
        return 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else 0.0
    if math.isinf(x):
        return 1.0
    return None


def _weight(a: float, x: float) -> float:
    """x^a e^-x / Γ(a), the factor both expansions share."""
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) = x^a e^-x / Γ(a + 1) · Σ x^n / ((a + 1)...(a + n)), for x < a + 1."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MOST_TERMS):
        denominator += 1.0
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * _weight(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) = x^a e^-x / Γ(a) · 1 / (x + 1 - a - 1·(1 - a) / (x + 3 - a - ...)), for
    x >= a + 1, evaluated from the front (Lentz's method)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    fraction = d
    for i in range(1, _MOST_TERMS):
        step = -i * (i - a)
        b += 2.0
        d = step * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + step / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        change = d * c
        fraction *= change
        if abs(change - 1.0) < _EPSILON:
            break
    return fraction * _weight(a, x)


def _lower(a: float, x: float) -> float:
    edge = _edge(a, x)
    if edge is not None:
        return edge
    return _lower_series(a, x) if x < a + 1.0 else 1.0 - _upper_fraction(a, x)


def _upper(a: float, x: float) -> float:
    edge = _edge(a, x)
    if edge is not None:
        return edge if math.isnan(edge) else 1.0 - edge
    return 1.0 - _lower_series(a, x) if x < a + 1.0 else _upper_fraction(a, x)


_ELEMENTWISE = {"igamma": np.frompyfunc(_lower, 2, 1), "igammac": np.frompyfunc(_upper, 2, 1)}


def _incomplete(op: str, alias: str):
    def forward(input: Tensor, other: Tensor) -> Tensor:
        for position, (name, value) in enumerate((("input", input), ("other", other)), 1):
            if not isinstance(value, Tensor):
                raise TypeError(f"{op}(): argument '{name}' (position {position}) must be "
                                f"Tensor, not {type(value).__name__}")
        a, x = operands(input, other)
        _floating_target(a.dtype, f"{op}_cpu")
        a, x = np.broadcast_arrays(a, x)
        values = _ELEMENTWISE[op](a.astype(np.float64), x.astype(np.float64))
        data = np.asarray(values, np.float64).astype(a.dtype)
        return output(op, data, (input, other), (input, other))

    forward.__name__ = op
    forward.__doc__ = f"torch.{op} (torch.special.{alias})."
    return binds(op)(forward)


igamma = _incomplete("igamma", "gammainc")
igammac = _incomplete("igammac", "gammaincc")
