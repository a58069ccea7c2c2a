"""In-place twins of out-of-place ops that have no write of their own (``atan2_``,
``fmod_``, ``cumsum_``, ``addmm_``...): the op run on self's values and history, its result
written back, its node self's grad_fn (through CopySlices for a view), as torch records an
in-place op."""

from __future__ import annotations

from collections.abc import Callable

from . import _dtype as dtypes
from ._bindings import FUNCTIONS, METHODS, bind_function
from ._grad_mode import GradMode, no_grad
from ._inplace import _inplace, _write_inplace, became, refuse_other_shape
from ._tensor import Tensor
from ._view_places import positions_in
from ._view_writes import record_through_view

# Methods whose in-place twin is made here. Made apart: float_power_ (below: torch refuses
# it on anything but a float64 self, in words of its own), polygamma_ and mvlgamma_ (_gamma.py:
# torch records them under nodes of their own).
TWINS = ("addbmm", "addmm", "addmv", "atan2", "arctan2", "baddbmm", "bitwise_left_shift",
         "bitwise_not", "bitwise_right_shift", "copysign", "cumprod", "cumsum", "deg2rad",
         "erfinv", "floor_divide", "fmod", "gcd", "heaviside", "hypot", "i0", "igamma",
         "igammac", "lcm", "ldexp",
         "logical_not", "logit", "nan_to_num", "nextafter", "rad2deg", "remainder", "sgn",
         "sinc", "xlogy")
# In-place methods torch also has as functions (``torch.clamp_(x, 0, 1)``)
FUNCTION_FORMS = ("clamp_", "clamp_max_", "clamp_min_", "clip_", "fill_", "zero_", "detach_",
                  "nan_to_num_", "sinc_", "deg2rad_", "rad2deg_", "logit_", "xlogy_",
                  "square_", "i0_", "ldexp_", "addmv_", "as_strided_")
# Twins of ops without a derivative: their node names the in-place op (its own row).
UNDERIVABLE = ("floor_divide_", "heaviside_")


def float_power_(self: Tensor, exponent) -> Tensor:
    """``pow_`` of a float64 self (a tensor exponent made float64 first): PowBackward0/1."""
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{dtypes.scalar_type_name(self._data.dtype)} but the operation's "
                           "result requires dtype Double")
    if isinstance(exponent, Tensor) and exponent.dtype is not dtypes.float64:
        exponent = exponent.to(dtypes.float64)
    return self.pow_(exponent)


def bind_twins() -> None:
    """``Tensor.<name>_`` for each name of TWINS the engine computes out of place; the
    function forms of FUNCTION_FORMS that torch's namespace does not have yet."""
    for name in TWINS:
        forward = getattr(Tensor, name, None)
        if forward is not None and not hasattr(Tensor, f"{name}_"):
            setattr(Tensor, f"{name}_", _twin(f"{name}_", forward))
    Tensor.float_power_ = float_power_
    for name in FUNCTION_FORMS:  # (a bound method's forward, wrapped as functions are)
        if name not in FUNCTIONS and hasattr(Tensor, name):
            bind_function(name, METHODS.get(name) or getattr(Tensor, name))


def _twin(name: str, forward: Callable) -> Callable:
    def in_place(self: Tensor, *args, **kwargs) -> Tensor:
        self._check_inplace()
        tensors = [value for value in (*args, *kwargs.values()) if isinstance(value, Tensor)]
        if not (GradMode.enabled and (self._rg or any(tensor._rg for tensor in tensors))):
            with no_grad():
                _write(self, forward(self, *args, **kwargs))
            return self
        if name in UNDERIVABLE:
            with no_grad():
                values = forward(self, *args, **kwargs)._data
            return _inplace(name, self, values, tensors[0] if tensors else None, ())
        base = self._base
        positions = positions_in(self._data, base._data) if base is not None else None
        result = forward(stand_in(self, base if positions is not None else self),
                         *args, **kwargs)
        _write(self, result)
        if positions is not None:  # a write through a view: CopySlices on its base
            return record_through_view(self, result._fn, positions)
        return became(self, result._fn)

    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``{name[:-1]}`` written into self, recorded as torch records it."
    return in_place


def stand_in(self: Tensor, owner: Tensor) -> Tensor:
    """Self's values before the write, as the op's input: a copy (what the op saves must
    not change with the write) whose history is ``owner``'s (self's, or a view's base's)."""
    stand_in = Tensor._make(self._data.copy(), owner.grad_fn)
    stand_in._rg = owner._rg
    stand_in._grad_acc = owner._grad_acc
    return stand_in


def _write(self: Tensor, result: Tensor) -> None:
    """The op's values into self's memory: torch refuses a result of another shape, and
    one of a kind self's dtype cannot hold."""
    refuse_other_shape(self, result._data)
    _write_inplace(self, result._data)
