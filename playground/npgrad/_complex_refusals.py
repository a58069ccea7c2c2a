"""The ops torch refuses for complex tensors, with torch's words: comparisons, orderings,
rounding, clamping and the real-only special functions (the engine's NumPy kernels would
otherwise compare real parts or drop imaginary ones and answer where torch raises)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from ._dtype import scalar_type_name
from ._tensor import Tensor

_NI, _RT = NotImplementedError, RuntimeError


def _kernel(name: str) -> tuple[type, str]:
    """torch's dispatch error: the kernel has no complex case."""
    return _NI, f'"{name}" not implemented for \'{{kind}}\''


_ORDERED = {"lt": "lt", "less": "lt", "__lt__": "lt", "le": "le", "less_equal": "le",
            "__le__": "le", "gt": "gt", "greater": "gt", "__gt__": "gt", "ge": "ge",
            "greater_equal": "ge", "__ge__": "ge"}
_CLAMPS = ("clamp", "clamp_", "clamp_min", "clamp_max", "clip", "clip_", "relu", "relu_",
           "hardtanh", "hardtanh_", "relu6")

# torch's name → (error, message); {kind} is ComplexFloat or ComplexDouble
REFUSALS: dict[str, tuple[type, str]] = {
    **{name: _kernel(f"{kernel}_cpu") for name, kernel in _ORDERED.items()},
    **{name: (_NI, "clamp is not supported for complex types") for name in _CLAMPS},
    **{name: (_RT, f"{name} not implemented for complex tensors.")
       for name in ("maximum", "minimum", "fmax", "fmin")},
    **{name: (_RT, f"{name}(): does not support complex input") for name in ("argmax", "argmin")},
    **{name: (_RT, " Sort does not support complex dtypes on CPU")
       for name in ("sort", "argsort", "msort")},
    "topk": (_RT, " topk does not support complex dtypes on CPU"),
    "amax": _kernel("max_values_cpu"), "amin": _kernel("min_values_cpu"),
    "aminmax": _kernel("aminmax_cpu"), "histc": _kernel("aminmax_cpu"),
    "floor": (_NI, "floor is not supported for complex inputs"),
    "ceil": (_NI, "ceil is not supported for complex inputs"),
    "trunc": (_NI, "trunc is not supported for complex inputs"),
    "fix": (_NI, "trunc is not supported for complex inputs"),
    "sign": (_NI, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please "
                  "use torch.sgn instead."),
    "round": _kernel("round_vml_cpu"), "frac": _kernel("frac_cpu"),
    "remainder": _kernel("remainder_cpu"), "__mod__": _kernel("remainder_cpu"),
    "fmod": _kernel("fmod_cpu"), "floor_divide": _kernel("div_floor_cpu"),
    "__floordiv__": _kernel("div_floor_cpu"),
    "median": _kernel("median_cpu"), "nanmedian": _kernel("median_cpu"),
    "kthvalue": _kernel("kthvalue_cpu"), "cummax": _kernel("cummax_cpu"),
    "cummin": _kernel("cummin_cpu"), "unique": _kernel("unique"),
    "erf": _kernel("erf_vml_cpu"), "erfc": _kernel("erfc_vml_cpu"),
    "erfinv": _kernel("erfinv_vml_cpu"), "lgamma": _kernel("lgamma_vml_cpu"),
    "digamma": _kernel("digamma"), "logit": _kernel("logit_cpu"), "atan2": _kernel("atan2_cpu"),
    "arctan2": _kernel("atan2_cpu"), "hypot": _kernel("hypot_cpu"),
    "copysign": _kernel("copysign_cpu"), "xlogy": _kernel("xlogy_cpu"),
    "heaviside": (_RT, "heaviside is not yet implemented for complex tensors."),
    "softmax": _kernel("softmax_lastdim_kernel_impl"),
    "log_softmax": _kernel("log_softmax_lastdim_kernel_impl"),
    "searchsorted": _kernel("searchsorted_out_cpu"), "bucketize": _kernel("searchsorted_out_cpu"),
    "isin": (_RT, "Unsupported input type encountered for isin(): {kind}"),
    "isposinf": (_RT, "isposinf does not support complex inputs."),
    "isneginf": (_RT, "isneginf does not support complex inputs."),
    "signbit": (_NI, "signbit is not implemented for complex tensors."),
    "deg2rad": (_RT, "deg2rad is not supported for complex tensors."),
    "rad2deg": (_RT, "rad2deg is not supported for complex tensors."),
    "abs_": (_RT, "In-place abs is not supported for complex tensors."),
}
# with a dim, max and min say it in other words
_WITH_DIM = {"max": (_RT, "max(): does not support complex input"),
             "min": (_RT, "min(): does not support complex input")}
REFUSALS.update(max=_kernel("max_all"), min=_kernel("min_all"))

# torch.nn.functional's own (the rest reach a refusing op above)
FUNCTIONAL_REFUSALS: dict[str, tuple[type, str]] = {
    "gelu": _kernel("GeluKernelImpl"), "mse_loss": _kernel("mse_cpu"),
    "leaky_relu": _kernel("leaky_relu_cpu"), "elu": _kernel("elu_cpu"),
    "softplus": _kernel("softplus_cpu"), "cross_entropy": REFUSALS["log_softmax"],
    **{name: REFUSALS[name] for name in ("relu", "relu6", "hardtanh", "hardtanh_", "softmax",
                                         "log_softmax")},
}


def refused_for_complex(name: str):
    """A decorator: the torch.nn.functional function ``name`` refusing complex tensors."""
    return lambda forward: refusing_complex(name, forward, FUNCTIONAL_REFUSALS)


def _complex_operand(args: tuple) -> Tensor | None:
    for value in args[:2]:
        if isinstance(value, Tensor) and value._data.dtype.kind == "c":
            return value
    return None


def refusing_complex(name: str, forward: Callable, table: dict = REFUSALS) -> Callable:
    """``forward``, raising torch's error first when its tensor (or the other operand of a
    binary op) is complex; ``forward`` itself for ops torch runs on complex numbers."""
    if name not in table or not callable(forward):
        return forward
    error, text = table[name]

    @functools.wraps(forward)
    def real_only(*args, **kwargs):
        found = _complex_operand(args)
        if found is not None:
            refusal, words = _WITH_DIM[name] if name in _WITH_DIM and (
                len(args) > 1 or "dim" in kwargs) else (error, text)
            raise refusal(words.format(kind=scalar_type_name(found._data.dtype)))
        return forward(*args, **kwargs)

    return real_only
