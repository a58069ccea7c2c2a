"""torch._foreach_*: one op over lists of tensors, as EMA code and fused optimisers call it.
Each element is the op on its own tensor; an out-of-place result is recorded under torch's
Foreach node (ForeachMulBackward0List...), an in-place one under the op's own, as torch's.
_foreach_powsum (each tensor's Σ|x|^p, norm's sums without the root) has no derivative: one
NotImplemented node over every input, as torch's."""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np

from ._arithmetic import add_scalar, mul_scalar, sub_scalar
from ._factories import _floating_target
from ._grad_mode import no_grad
from ._inplace import _inplace, _original
from ._more_math import divide_by_number
from ._recording import record_several
from ._reductions import power_sum
from ._tensor import Tensor

UNARY = ("abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "erfc", "exp", "expm1",
         "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal",
         "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")
BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp_max", "clamp_min")
# torch's node for each binary op by the kind of its second argument (a 0-dim tensor other
# than for mul and div counts as a number)
_BINARY_NODES = {
    "add": ("0List", "1Scalar", "1ScalarList", "1Scalar"),
    "sub": ("0List", "1Scalar", "1ScalarList", "1Scalar"),
    "mul": ("0List", "1Scalar", "1ScalarList", "0Tensor"),
    "div": ("0", "1Scalar", "1ScalarList", "0Tensor"),
    "pow": ("0", "0Scalar", "1", "0Scalar"),
    "maximum": ("0List", "0", "1", "0"),
    "minimum": ("0List", "0", "1", "0"),
    "clamp_max": ("1List", "0Scalar", "0ScalarList", "0Scalar"),
    "clamp_min": ("1List", "0Scalar", "0ScalarList", "0Scalar"),
}
_KINDS = ("list", "scalar", "scalarlist", "tensor")
# maximum and minimum of a number are clamps (Tensor.maximum takes tensors only)
_OF_NUMBERS = {"maximum": "clamp_min", "minimum": "clamp_max"}


def _camel(op: str) -> str:
    return "".join(part.capitalize() for part in op.split("_"))


def _listed(value, name: str = "self") -> list:
    if isinstance(value, Tensor) or not isinstance(value, list | tuple):
        raise TypeError(f"_foreach op: argument '{name}' must be tuple of Tensors, not "
                        f"{type(value).__name__}")
    return list(value)


def _same_length(first: list, second: list, scalars: bool = False) -> None:
    if len(first) != len(second):
        if scalars:
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        raise RuntimeError(f"Tensor lists must have the same number of tensors, got "
                           f"{len(first)} and {len(second)}")


def _kind_and_others(tensors: list, other) -> tuple[str, list]:
    """The second argument's kind (a list of tensors, a number, numbers, one tensor) and one
    value of it for each tensor."""
    if isinstance(other, Tensor):
        return "tensor", [other] * len(tensors)
    if isinstance(other, numbers.Number):
        return "scalar", [other] * len(tensors)
    other = list(other)
    if other and all(isinstance(value, Tensor) for value in other):
        _same_length(tensors, other)
        return "list", other
    _same_length(tensors, other, scalars=True)
    return "scalarlist", other


def _renamed(result, name: str):
    """``result`` with its node shown as torch's Foreach node ``name`` (the same formulas)."""
    node = getattr(result, "_fn", None)
    if node is not None:
        result._fn.__class__ = _named_class(type(node), name)
    return result


_NAMED: dict = {}


def _named_class(node_class: type, name: str) -> type:
    key = (node_class, name)
    if key not in _NAMED:
        _NAMED[key] = type(name, (node_class,), {"__slots__": (), "__module__": "torch"})
    return _NAMED[key]


def _unary(op: str, in_place: bool) -> Callable:
    def apply(self):
        tensors = _listed(self)
        if in_place:
            for tensor in tensors:
                getattr(tensor, f"{op}_")()
            return self
        node = f"Foreach{_camel(op)}Backward0"
        return tuple(_renamed(getattr(tensor, op)(), node) for tensor in tensors)

    return apply


def _binary(op: str, in_place: bool) -> Callable:
    def apply(self, other, *, alpha=None):
        tensors = _listed(self)
        kind, others = _kind_and_others(tensors, other)
        if alpha is not None and kind == "scalarlist":
            raise TypeError("expected Tensor as element 0 in argument 1, but got "
                            f"{type(others[0]).__name__}")
        extra = {} if alpha is None else {"alpha": alpha}
        if kind == "tensor" and op not in ("mul", "div"):  # (a 0-dim tensor as its number)
            others = [other.item() for other in others]
        method = op if kind == "list" else _OF_NUMBERS.get(op, op)
        if in_place:
            for tensor, value in zip(tensors, others, strict=True):
                if op in _NUMBER_WRITES and not isinstance(value, Tensor):
                    _write_number(op, tensor, value)
                elif op in _OF_NUMBERS:
                    _write_extreme(op, tensor, value)
                else:
                    getattr(tensor, f"{method}_")(value, **extra)
            return self
        node = f"Foreach{_camel(op)}Backward{_BINARY_NODES[op][_KINDS.index(kind)]}"
        return tuple(_renamed(getattr(tensor, method)(value, **extra), node)
                     for tensor, value in zip(tensors, others, strict=True))

    return apply


# A number written in place goes through torch's Scalar overloads: AddBackward1, SubBackward1,
# MulBackward1, DivBackward1 (Tensor.add_(2.0) records AddBackward0). The engine's own forwards
# of those overloads compute the values; the row each records; whether it saves the number.
_NUMBER_WRITES = {"add": (add_scalar, "add_scalar", False),
                  "sub": (sub_scalar, "sub_scalar", False),
                  "mul": (mul_scalar, "mul_scalar", True),
                  "div": (divide_by_number, "div_by_number", True)}


def _write_number(op: str, tensor: Tensor, number) -> None:
    forward, recorded, saves_number = _NUMBER_WRITES[op]
    values = forward(tensor.detach(), number)._data
    _inplace(recorded, tensor, values, None, (number,) if saves_number else ())


def _write_extreme(op: str, tensor: Tensor, value) -> None:
    """maximum_ / minimum_: MaximumBackward0 of a tensor; of a number (a clamp's values),
    torch's node that has no derivative (NotImplemented)."""
    with no_grad():
        method = op if isinstance(value, Tensor) else _OF_NUMBERS[op]
        values = getattr(tensor, method)(value)._data
    if isinstance(value, Tensor):
        _inplace(op, tensor, values, value, (_original(tensor), value))
    else:
        _inplace(f"_foreach_{op}_", tensor, values, None, ())


def _pointwise(op: str, in_place: bool) -> Callable:
    """addcmul and addcdiv: self + value · t1 ⊙ (or ÷) t2, value one number or one each."""
    def apply(self, tensor1, tensor2, value=1):
        tensors = _listed(self)
        firsts, seconds = _listed(tensor1, "tensor1"), _listed(tensor2, "tensor2")
        _same_length(tensors, firsts)
        _same_length(tensors, seconds)
        scalars = isinstance(value, numbers.Number)
        values = [value] * len(tensors) if scalars else list(value)
        _same_length(tensors, values, scalars=True)
        if in_place:
            for args in zip(tensors, firsts, seconds, values, strict=True):
                getattr(args[0], f"{op}_")(args[1], args[2], value=args[3])
            return self
        node = f"Foreach{_camel(op)}Backward0{'Scalar' if scalars else 'ScalarList'}"
        return tuple(_renamed(getattr(t, op)(a, b, value=v), node)
                     for t, a, b, v in zip(tensors, firsts, seconds, values, strict=True))

    return apply


def _lerp(in_place: bool) -> Callable:
    def apply(self, tensors1, weight):
        tensors, ends = _listed(self), _listed(tensors1, "tensors1")
        _same_length(tensors, ends)
        scalar = isinstance(weight, numbers.Number)
        weights = [weight] * len(tensors) if scalar else _listed(weight, "weights")
        _same_length(tensors, weights)
        if in_place:
            for tensor, end, each in zip(tensors, ends, weights, strict=True):
                tensor.lerp_(end, each)
            return self
        node = "ForeachLerpBackward0Scalar" if scalar else "ForeachLerpBackward1List"
        return tuple(_renamed(tensor.lerp(end, each), node)
                     for tensor, end, each in zip(tensors, ends, weights, strict=True))

    return apply


def _norm(self, ord=2, dtype=None):
    from .linalg import vector_norm

    return tuple(_renamed(vector_norm(tensor, ord, dtype=dtype), "ForeachNormBackward0")
                 for tensor in _listed(self))


def _pow(self, exponent):
    """``_foreach_pow(list, exponent)``, and ``_foreach_pow(number, list)``: the number
    raised to each tensor (a 0-dim tensor for the number counts as one: ForeachPowBackward2)."""
    if isinstance(self, list | tuple):
        return _POW(self, exponent)
    base = self.item() if isinstance(self, Tensor) else self
    tensors = _listed(exponent, "exponent")
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    return tuple(_renamed(pow(base, tensor), "ForeachPowBackward2") for tensor in tensors)


def _powsum(self, ord=2, dtype=None):
    tensors = _listed(self)
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    sums = []
    for tensor in tensors:
        _floating_target(tensor._data.dtype, "powsum_cpu")
        data = tensor._data if dtype is None else tensor._data.astype(dtype.numpy)
        sums.append(Tensor._make(power_sum(data, ord)))  # (in ``dtype``, as norm's)
    record_several("foreach_powsum", sums, tuple(tensors), ())
    return tuple(sums)


def _mm(self, mat2):
    tensors, others = _listed(self), _listed(mat2, "mat2")
    if len(tensors) != len(others):
        raise RuntimeError("_foreach_mm: self and mat2 must have the same number of tensors")
    return tuple(_renamed(tensor.mm(other), "ForeachMmBackward0")
                 for tensor, other in zip(tensors, others, strict=True))


def _max(self):
    return tuple(tensor.max() for tensor in _listed(self))


def _zero_(self):
    for tensor in _listed(self):
        tensor.zero_()
    return self


def _copy_(self, src, non_blocking: bool = False):
    tensors, sources = _listed(self), _listed(src, "src")
    _same_length(tensors, sources)
    for tensor, source in zip(tensors, sources, strict=True):
        values = np.broadcast_to(source._data, tensor._data.shape).astype(tensor._data.dtype)
        _inplace("_foreach_copy_", tensor, values, source, ())  # (torch's: NotImplemented)
    return self


def _clone(self, *, memory_format=None):
    return tuple(_renamed(tensor.clone(), "ForeachCloneBackward0") for tensor in _listed(self))


def _table() -> dict[str, Callable]:
    table: dict[str, Callable] = {"_foreach_norm": _norm, "_foreach_max": _max,
                                  "_foreach_zero_": _zero_, "_foreach_copy_": _copy_,
                                  "_foreach_clone": _clone, "_foreach_powsum": _powsum,
                                  "_foreach_mm": _mm}
    for in_place in (False, True):
        tail = "_" if in_place else ""
        table.update({f"_foreach_{op}{tail}": _unary(op, in_place) for op in UNARY})
        table.update({f"_foreach_{op}{tail}": _binary(op, in_place) for op in BINARY})
        table.update({f"_foreach_{op}{tail}": _pointwise(op, in_place)
                      for op in ("addcmul", "addcdiv")})
        table[f"_foreach_lerp{tail}"] = _lerp(in_place)
    table["_foreach_pow"] = _pow  # (a list's power as _POW, a number's own)
    for name, function in table.items():
        function.__name__ = function.__qualname__ = name
    return table


_POW = _binary("pow", False)
FOREACH = _table()
