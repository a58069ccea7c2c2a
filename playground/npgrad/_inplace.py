"""In-place operations (``add_``, ``x[i] = v``, ...): the write, the version bump, the new node.

torch records an in-place op as a node that replaces the tensor's grad_fn and takes the
tensor's previous history as its input; the write bumps the version counter the tensor shares
with its views, so that a node that saved the old values refuses to run (``_nodes.py``).
"""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_method, binds
from ._complex_nodes import complex_variant
from ._deprecations import warn_once
from ._forward import DualLevel, refuse_inplace, set_tangent, tangent_of_write
from ._grad_mode import GradMode
from ._indexing import in_torch_words, index_array
from ._meta import shape_only
from ._nested_data import checked_fill
from ._no_grad_views import refused as refused_view
from ._nodes import NODE_CLASSES
from ._numerics import (
    addcdiv_values,
    addcmul_values,
    lerp_values,
    plus_scaled,
    power_by_number,
    refuse_negative_integer_power,
    tensor_power,
)
from ._operands import (
    as_tensor_operand,
    compute,
    float_operands,
    floating,
    operands,
    tensor_or_none,
)
from ._pointwise import UNARY, clamp, masked_values
from ._recording import RESULT, attach_node, output
from ._rules import RULES
from ._tensor import Tensor, bump_version, shared_counter
from ._versions import note_writer
from ._view_places import positions_in
from ._view_writes import record_through_view

_make = Tensor._make


def _torch_kind_name(numpy_dtype) -> str:
    return dtypes.from_numpy_dtype(numpy_dtype).legacy_name.replace("Tensor", "")


def _write_inplace(self: Tensor, result: np.ndarray) -> None:
    """Store ``result`` into self's own memory (views see it) and bump the version counter."""
    result = np.asarray(result)
    target = self._data.dtype
    if result.dtype != target and not dtypes.castable(result.dtype, target):
        raise RuntimeError(
            f"result type {_torch_kind_name(result.dtype)} can't be cast to the desired output "
            f"type {_torch_kind_name(target)}"
        )
    if self._data.flags.writeable:
        np.copyto(self._data, result, casting="unsafe")
    else:
        self._data = result.astype(target)
    bump_version(self)


def _recording(self: Tensor, other: Tensor | None) -> bool:
    """Whether a write to self (of ``other``'s values) is recorded."""
    return GradMode.enabled and (self._rg or (other is not None and other._rg))


def _history(self: Tensor) -> Tensor:
    """Before a recorded write: the new node's first input, self as it was."""
    if self.grad_fn is None:
        return self
    history = _make(self._data, self.grad_fn, shared_counter(self))
    history._rg = self._rg
    history._grad_acc = self._grad_acc
    return history


def _node(op: str, self: Tensor, history: Tensor, other: Tensor | None, saved: tuple,
          *more: Tensor | None):
    """After a recorded write to self: the node ``op`` of ``history`` (and ``other``, and
    ``more``), the write's result being self's new values."""
    node_class = NODE_CLASSES[op]
    if self._data.dtype.kind == "c":
        node_class = complex_variant(node_class, True)
    holder = _make(self._data, None, shared_counter(self))
    inputs = (history, other, *more)
    if node_class.arity > 0:  # a node of one or two inputs; -1: as many as given
        inputs = inputs[:node_class.arity]
    attach_node(holder, node_class, inputs, saved)
    return holder._fn


def _recorded(op: str, self: Tensor, history: Tensor, other: Tensor | None,
              saved: tuple, *more: Tensor | None) -> Tensor:
    """After a recorded write: the write's node becomes self's grad_fn."""
    return became(self, _node(op, self, history, other, saved, *more))


def became(self: Tensor, node) -> Tensor:
    """Self, written in place, has the write's ``node`` as its history from now on."""
    self._fn, self._rg = node, True
    note_writer(shared_counter(self), node.name(), self._data.shape)
    if self._base is not None:  # (a view whose memory is its own now: this is its history)
        self._vv = bytes(self._vc)
    return self


def _inplace(op: str, self: Tensor, result: np.ndarray, other, saved: tuple,
             *more) -> Tensor:
    """Write ``result`` into self and, where autograd records it, give self the node ``op``
    of its old history and ``other`` (and ``more``: the third input of addcmul_, addcdiv_ and
    lerp_ with a tensor weight)."""
    self._check_inplace()
    refuse_other_shape(self, result)
    tangent = tangent_of_write(op, self, result, (self, tensor_or_none(other), *more), saved)
    written = _write_recorded(op, self, lambda: _write_inplace(self, result), other, saved,
                              *more)
    if tangent is not None:
        set_tangent(self, tangent)
    return written


def refuse_other_shape(self: Tensor, result: np.ndarray) -> None:
    """torch's refusal of an in-place result that does not broadcast to self's shape (one
    that does is written)."""
    if result.shape != self._data.shape:
        shape = np.broadcast_shapes(result.shape, self._data.shape)
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")


def record_fill(op: str, self: Tensor, write, chances: Tensor | None = None) -> Tensor:
    """A random fill (``normal_``...): ``write()`` puts the draws in self's memory; recorded
    as the row ``op``'s node (of self's history and ``chances``) as torch records it."""
    self._check_inplace()
    return _write_recorded(op, self, write, chances, ())


def _write_recorded(op: str, self: Tensor, write, other, saved: tuple, *more) -> Tensor:
    """``write()`` self's new values; where autograd records the write, self's old history
    (and ``other`` and ``more``) become the inputs of the node ``op``, self's grad_fn."""
    other = tensor_or_none(other)
    if more:
        more = tuple(tensor_or_none(tensor) for tensor in more)
    if not (_recording(self, other) or any(_recording(self, tensor) for tensor in more)):
        write()  # an optimizer's step, under no_grad
        return self
    if self._made:  # (one that needs no grad itself, written with one that does)
        raise refused_view(self, written_itself=True)
    # a view among the inputs points at its history as it is before the write (a write to
    # its base would make it a view of the write's own result)
    other = _history(other) if other is not None and other._base is not None else other
    if more:
        more = tuple(t if t is None or t._base is None else _history(t) for t in more)
    base = self._base
    if base is not None:  # a write through a view: torch's CopySlices on its base
        positions = positions_in(self._data, base._data)
        if positions is not None:
            history = _history(base)
            write()
            return record_through_view(self, _node(op, self, history, other, saved, *more),
                                       positions)
    history = _history(self)
    write()
    return _recorded(op, self, history, other, saved, *more)


def bind_variant(op: str, forward, *, function: bool = False):
    """Bind ``forward`` under the in-place names in rule ``op``'s row: ``mul_`` as a method (and
    a ``torch.*`` function with ``function``), ``__imul__`` as ``x *= y`` without options."""
    for name in RULES[op].inplace:
        if name.startswith("__i"):
            bind_method(name, _augmented(forward))
        else:
            binds(name, function=function)(forward)
    return forward


def _augmented(function):
    """``x += y`` and the like: the in-place op, without its keyword options."""

    def operator(self: Tensor, other) -> Tensor:
        return function(self, other)

    return operator


def _original(self: Tensor) -> Tensor:
    """A saved copy of self before an in-place op overwrites it."""
    return _make(self._data.copy())


def _shifted_inplace(op: str, ufunc):
    """add_ and sub_: ``self ± alpha * other``."""

    def apply(self: Tensor, other, *, alpha=1) -> Tensor:
        a, b = operands(self, other)
        if alpha != 1:
            values = compute(lambda x, y: plus_scaled(x, y, alpha, op == "sub"), a, b, a.shape)
        else:
            values = compute(ufunc, a, b, a.shape)
        return _inplace(op, self, values, other, (alpha,))

    apply.__name__ = f"{op}_"
    return bind_variant(op, apply)


add_ = _shifted_inplace("add", np.add)
sub_ = _shifted_inplace("sub", np.subtract)


def lerp_(self: Tensor, end: Tensor, weight) -> Tensor:
    """self moved toward ``end`` by ``weight`` in place, rounded as torch's kernel."""
    a, b = operands(self, end)
    if isinstance(weight, Tensor):
        values = lerp_values(a, b, weight._data)
        return _inplace("lerp_tensor", self, values, end, (_original(self), end, weight),
                        weight)
    return _inplace("lerp", self, lerp_values(a, b, weight), end, (weight,))


bind_variant("lerp", lerp_)  # lerp_tensor's row names the same method


def _pointwise_inplace(op: str, combine):
    """addcmul_ and addcdiv_: self += value * combine(tensor1, tensor2), as torch rounds."""

    def apply(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        a, b = operands(self, tensor1)
        _, c = operands(self, tensor2)
        values = combine(a, np.asarray(b, a.dtype), np.asarray(c, a.dtype), value)
        return _inplace(op, self, values, tensor1, (tensor1, tensor2, value), tensor2)

    apply.__name__ = f"{op}_"
    return bind_variant(op, apply)


addcmul_ = _pointwise_inplace("addcmul", addcmul_values)
addcdiv_ = _pointwise_inplace("addcdiv", addcdiv_values)


def masked_fill_(self: Tensor, mask, value) -> Tensor:
    data, saved = masked_values(self, mask, value)
    if data.shape != self._data.shape:  # a mask that broadcasts beyond self
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    return _inplace("masked_fill", self, data, None, saved)


bind_variant("masked_fill", masked_fill_)


def mul_(self: Tensor, other) -> Tensor:
    a, b = operands(self, other)
    saved = (_original(self), other)
    return _inplace("mul", self, compute(np.multiply, a, b, a.shape), other, saved)


def div_(self: Tensor, other) -> Tensor:
    a, b, _ = float_operands(self, other)
    saved = (_original(self), other)
    return _inplace("div", self, compute(np.true_divide, a, b, a.shape), other, saved)


def pow_(self: Tensor, exponent) -> Tensor:
    """``self ** exponent`` in place; a tensor exponent is PowBackward1's second input."""
    a, b = operands(self, exponent)
    refuse_negative_integer_power(a, exponent)
    if not isinstance(exponent, Tensor) and np.ndim(b) == 0:  # (torch's kernel of pow)
        values = power_by_number(a, b, exponent)
    else:
        values = compute(tensor_power, a, b, a.shape)
    if isinstance(exponent, Tensor):
        return _inplace("pow_tensor", self, values, exponent,
                        (_original(self), exponent, RESULT))
    return _inplace("pow", self, values, None, (_original(self), exponent))


def clamp_(self: Tensor, min=None, max=None) -> Tensor:
    self._check_inplace()  # (torch refuses a leaf's write before it looks at the bounds)
    result = clamp(self.detach(), min, max)._data
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _inplace("clamp_tensor", self, result, min, (_original(self), min, max), max)
    return _inplace("clamp", self, result, None, (_original(self), min, max))


def clamp_min_(self: Tensor, min) -> Tensor:
    result = clamp(self.detach(), min, None)._data
    op = "clamp_min_tensor" if isinstance(min, Tensor) else "clamp_min"
    return _inplace(op, self, result, tensor_or_none(min), (_original(self), min))


def clamp_max_(self: Tensor, max) -> Tensor:
    result = clamp(self.detach(), None, max)._data
    op = "clamp_max_tensor" if isinstance(max, Tensor) else "clamp_max"
    return _inplace(op, self, result, tensor_or_none(max), (_original(self), max))


@shape_only
def zero_(self: Tensor) -> Tensor:
    data = self._data
    if data.__class__ is np.ndarray and data.flags.writeable and DualLevel.current < 0 and (
            not GradMode.enabled or (not self._rg and self._base is None)):
        # a loop's ``w.grad.zero_()``: nothing to check, record or carry a tangent for (the
        # general write below costs it ten times as much)
        data.fill(0)
        bump_version(self)
        return self
    return _inplace("zero_", self, np.zeros_like(data), None, ())


@shape_only
def fill_(self: Tensor, value) -> Tensor:
    value = value.item() if isinstance(value, Tensor) else value
    value = checked_fill(value, self._data.dtype)
    return _inplace("fill_", self, np.full_like(self._data, value), None, ())


@shape_only
def copy_(self: Tensor, source: Tensor, non_blocking: bool = False) -> Tensor:
    """source's values written into self, cast to self's dtype as torch casts (floats to
    integers toward zero, to bool by being non-zero, complex to real without the imaginary
    part, with torch's warning); recorded as torch's CopyBackwards where self can carry a
    gradient (a copy into an integer tensor is not recorded, as in torch)."""
    values = np.broadcast_to(as_tensor_operand(source)._data, self._data.shape)
    target = self._data.dtype
    if values.dtype != target:
        if values.dtype.kind == "c" and target.kind not in "cb":
            warn_once("complex to real")
            values = values.real
        values = values.astype(target)
    if target.kind not in "fc":
        source = None
    return _inplace("copy", self, values, source, ())


for _op, _forward in (("mul", mul_), ("div", div_), ("pow", pow_), ("clamp", clamp_),
                      ("clamp_min", clamp_min_), ("clamp_max", clamp_max_),
                      ("zero_", zero_), ("fill_", fill_), ("copy", copy_)):
    bind_variant(_op, _forward)


def setitem(self: Tensor, index, value) -> None:
    """``x[index] = value``: torch's CopySlices when the write is recorded, its
    IndexPutBackward0 where every index is a tensor (or a list)."""
    advanced = isinstance(index, Tensor | list) or (
        isinstance(index, tuple) and bool(index) and
        all(isinstance(i, Tensor | list) for i in index))
    items = index if isinstance(index, tuple) else (index,)  # (as given: for torch's errors)
    if isinstance(index, Tensor) or (
        isinstance(index, tuple) and any(isinstance(i, Tensor | list) for i in index)
    ):
        index = tuple(index_array(i) for i in index) if isinstance(index, tuple) else (
            index_array(index))
    elif isinstance(index, list):
        index = index_array(index)
    _check_inplace_view_message(self)
    refuse_inplace(self, value)
    value_tensor = value if isinstance(value, Tensor) else None
    source = value._data if value_tensor is not None else value
    if value_tensor is not None and value_tensor.ndim:
        source = _squeezed_to(source, np.ndim(self._data[index]))

    def write() -> None:
        if not self._data.flags.writeable:
            self._data = self._data.copy()
        try:
            self._data[index] = source
        except IndexError as error:
            raise in_torch_words(error, items, self.ndim) from None
        bump_version(self)

    _write_recorded("index_put" if advanced else "copy_slices", self, write, value_tensor,
                    (index,))


bind_variant("copy_slices", setitem)


def _squeezed_to(source: np.ndarray, ndim: int) -> np.ndarray:
    """torch copies a (1, n) value into an (n,) place: leading ones beyond the place's
    dimensions are dropped (NumPy refuses a sequence where it sees one element)."""
    while source.ndim > ndim and source.shape[0] == 1:
        source = source[0]
    return source


def _check_inplace_view_message(self: Tensor) -> None:
    """Item assignment writes through a view in torch, hence its 'view of a leaf' message."""
    if GradMode.enabled and self.grad_fn is None and self._rg:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    self._check_inplace()


def copy_for_grad(grad: Tensor) -> Tensor:
    """What a create_graph backward stores as a leaf's first .grad: a recorded copy."""
    return output("copy", grad._data.copy(), (None, grad))


def _unary_inplace(op: str, declared) -> None:
    """``x.sin_()`` and ``torch.sin_(x)`` for every declared function of one tensor: the
    values written into x, the node the op's own (torch: ``SinBackward0``) unless a row
    ``<op>_`` names another (``asinh_``: AsinhBackward1)."""
    if f"{op}_" in RULES:
        op = f"{op}_"
    saves = NODE_CLASSES[op].rule.saves

    def apply(self: Tensor) -> Tensor:
        data = floating(self) if declared.floats and self._data.dtype.kind != "f" else \
            self._data
        saved = (_original(self),) if saves == ("self",) else \
            (RESULT,) if saves == ("result",) else ()
        return _inplace(op, self, declared.on_arrays(data), None, saved)

    apply.__name__ = apply.__qualname__ = f"{op}_"
    bind_variant(op, apply, function=True)


for _op, _declared in list(UNARY.items()):
    _unary_inplace(_op, _declared)


def neg_(self: Tensor) -> Tensor:
    return _inplace("neg", self, np.negative(self._data), None, ())


bind_variant("neg", neg_, function=True)


def index_add_(self: Tensor, dim: int, index, source: Tensor, *, alpha=1) -> Tensor:
    """self.index_add(...) written into self (torch's IndexAddBackward0 on its history)."""
    result = self.detach().index_add(dim, index, source.detach(), alpha=alpha)._data
    positions = index_array(index).reshape(-1)
    return _inplace("index_add", self, result, source,
                    (dim % max(self.ndim, 1), positions, alpha))


bind_variant("index_add", index_add_)
