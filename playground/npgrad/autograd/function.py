"""torch.autograd.Function: user-written forward and backward, one graph node per call.

As in torch, subclassing Function makes a node class named ``<Name>Backward``; ``apply`` runs
the forward without recording and makes a node of that class the output's grad_fn. The node
is also the ``ctx`` the forward and backward see (``y.grad_fn.k`` is what ``ctx.k`` was).
The backward engine calls ``run_backward`` instead of a derivative rule; under
``create_graph`` the user's backward is recorded like any code, so it can be differentiated
again (unless it is ``once_differentiable``). A forward with several differentiable outputs
gives each its NodeOutput (``_recording.record_outputs``), and the backward one gradient each.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np

from .. import _forward, _nodes, _recording, _saved_hooks, _tensor
from .._grad_mode import GradMode, no_grad
from .._nodes import FREED_GRAPH_MESSAGE, Node, OutputGrads, legacy_type_name
from .._recording import edge, record_outputs
from .._view_places import positions_in
from .._view_writes import record_through_view

__all__ = ["BackwardCFunction", "Function", "FunctionCtx", "InplaceFunction",
           "NestedIOFunction", "once_differentiable"]

class FunctionCtx:
    """What ``forward``/``setup_context`` tell ``backward``: saved tensors, flags, attributes."""

    def save_for_backward(self, *tensors) -> None:
        for position, tensor in enumerate(tensors):
            if tensor is not None and not isinstance(tensor, _tensor.Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument "
                                f"{position} is of type {type(tensor).__name__}")
        self._to_save = tuple(tensors)
        self._saved_versions = tuple(None if t is None else bytes(_tensor.shared_counter(t))
                                     for t in tensors)

    def save_for_forward(self, *tensors) -> None:
        self._saved_for_forward = tuple(tensors)

    @property
    def saved_tensors(self) -> tuple:
        if getattr(self, "_in_jvp", False):  # inside jvp: what save_for_forward kept
            return getattr(self, "_saved_for_forward", ())
        saved = self._to_save
        if saved is _FREED:
            raise RuntimeError(FREED_GRAPH_MESSAGE)
        if any(t.__class__ is _saved_hooks.Packed for t in saved):  # saved_tensors_hooks'
            return tuple(t if t is None else _saved_hooks.unpack(t) for t in saved)
        for tensor, version in zip(saved, self._saved_versions, strict=True):
            if tensor is not None and bytes(tensor._vc) != version:
                raise _modified_error(tensor, version)
        return saved

    def mark_dirty(self, *tensors) -> None:
        self._dirty = tuple(tensors)

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


_FREED = object()  # what a node's saved tensors become after a backward without retain_graph


def _modified_error(tensor, version: bytes) -> RuntimeError:
    where = ""
    if tensor.grad_fn is not None:
        where = f", which is output 0 of {tensor.grad_fn.name().removesuffix('Backward0')},"
    current = _tensor.version_of(tensor)
    expected = _tensor.counter_value(version)
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {legacy_type_name(tensor._data)}{where} is at version {current}; expected "
        f"version {expected} instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
        "check_nan=False).")


class _UserRule:
    """What the graph and the inspector show as the rule of a custom Function's node."""

    saves: tuple = ()

    def __init__(self, function_class: type) -> None:
        self.function_class = function_class
        self.node_name = function_class.__name__ + "Backward"

    def describe(self) -> str:
        return custom_rule_text(self.function_class)


# A node's engine state before its first backward: no edges, nothing saved, no hooks.
_FRESH_NODE = {"_nx": (), "_saved": (), "_versions": (), "_shape": None, "_np_dtype": None,
               "_hooks": None, "_deps": None, "_exact": False, "_pending": None}


class BackwardCFunction(Node, FunctionCtx):
    """The node (and ctx) of one call of a custom Function."""

    custom = True
    plain = False
    arity = -1
    _forward_cls: type
    __module__ = "torch.autograd.function"

    def __init__(self) -> None:
        for name, value in _FRESH_NODE.items():  # the engine's slots, as the op nodes have
            setattr(self, name, value)
        self._seq = _nodes.new_sequence_number()
        self._to_save = self._saved_versions = self._dirty = self._non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad: tuple = ()
        self._tensor_positions: tuple = ()
        self._view_shapes: dict = {}  # a dirty view's position: its shape (the edge: its base)
        # per tensor output: (its place among the differentiable ones or None, shape, dtype)
        self._output_layout: tuple = ((0, None, None),)

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"

    def saved_values(self) -> dict[str, Any]:
        saved = self._to_save
        if saved is _FREED:
            return {}
        return {f"saved_tensors[{n}]": t for n, t in enumerate(saved)
                if t is not None and t.__class__ is not _saved_hooks.Packed}

    def release(self) -> None:
        """After a backward without retain_graph: the saved tensors go, as torch's do."""
        if self._to_save:
            self._to_save = _FREED

    # ----- backward ---------------------------------------------------------------------------
    def run_backward(self, grad, as_tensors: bool) -> tuple:
        """The gradients of the forward's tensor inputs, from the user's backward."""
        received = grad if type(grad) is OutputGrads else (grad,)
        grads = [self._output_grad(received, *layout) for layout in self._output_layout]
        backward = self._forward_cls.backward
        if not as_tensors:
            with no_grad():
                returned = backward(self, *grads)
        else:
            returned = backward(self, *grads)
        returned = returned if isinstance(returned, tuple) else (returned,)
        results = self._checked(returned)
        if as_tensors:
            return results
        return tuple(None if g is None else g._data for g in results)

    def _output_grad(self, received: tuple, place: int | None, shape, dtype):
        """The gradient the backward gets for one tensor output: what it received, else
        zeros (None when the forward said set_materialize_grads(False)), as torch gives."""
        grad = None if place is None else received[place]
        if grad is not None:
            return grad if isinstance(grad, _tensor.Tensor) else _tensor.Tensor._make(grad)
        return _tensor.Tensor._make(np.zeros(shape, dtype)) if self.materialize_grads else None

    def _checked(self, returned: tuple) -> tuple:
        """One gradient per forward input, as torch checks them; those of tensor inputs."""
        expected = len(self.needs_input_grad)
        if len(returned) > expected and all(g is None for g in returned[expected:]):
            returned = returned[:expected]
        if len(returned) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {expected}, got {len(returned)})")
        tensors = set(self._tensor_positions)
        for gradient in returned:
            if gradient is not None and not isinstance(gradient, _tensor.Tensor):
                raise RuntimeError(f"expected Variable or None (got {_c_type_name(gradient)})")
        for position, gradient in enumerate(returned):
            if gradient is not None and position not in tensors:
                raise RuntimeError(f"function {self.name()} returned a gradient different than "
                                   f"None at position {position + 1}, but the corresponding "
                                   "forward input was not a Variable")
        results = []
        for position, next_node in zip(self._tensor_positions, self._nx, strict=True):
            gradient = returned[position]
            if next_node is not None and gradient is not None:
                _check_shape(self, position, gradient,
                             self._view_shapes.get(position, next_node._shape))
            results.append(gradient if next_node is not None else None)
        return tuple(results)


def _c_type_name(value) -> str:
    """The type's name as CPython's C code writes it (tp_name): a class defined in Python by
    its name, an extension type with its module (``numpy.ndarray``), a builtin bare."""
    kind = type(value)
    heap_type = bool(kind.__flags__ & (1 << 9))  # Py_TPFLAGS_HEAPTYPE
    if heap_type or kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def _check_shape(node: Node, position: int, gradient, wanted: tuple | None) -> None:
    shape = tuple(gradient.shape)
    if wanted is None or shape == wanted:
        return
    # like torch: a gradient larger than the input (the input's shape broadcasts to it) is
    # summed down to it; any other shape is an error
    padded = (1,) * (len(shape) - len(wanted)) + wanted if len(wanted) <= len(shape) else None
    if padded is None or any(a != b and a != 1 for a, b in zip(padded, shape, strict=True)):
        got = "[" + ", ".join(map(str, shape)) + "]"
        expected = "[" + ", ".join(map(str, wanted)) + "]"
        raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index "
                           f"{position} - got {got} but expected shape compatible with "
                           f"{expected}")


class Function(FunctionCtx):
    """Subclass with static ``forward(ctx, *args)`` (or ``forward(*args)`` and
    ``setup_context(ctx, inputs, output)``) and ``backward(ctx, *grads)``; call ``apply``."""

    _backward_cls: type

    def __init_subclass__(cls, **options) -> None:
        super().__init_subclass__(**options)
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "rule": _UserRule(cls),
                                  "__module__": "torch.autograd.function"})

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs: tuple, output) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        node = cls._backward_cls()
        recording = GradMode.enabled
        node.needs_input_grad = tuple(
            recording and isinstance(a, _tensor.Tensor) and a.requires_grad for a in args)
        node._tensor_positions = tuple(n for n, a in enumerate(args)
                                       if isinstance(a, _tensor.Tensor))
        with no_grad():
            if cls.setup_context is Function.setup_context:
                output = cls.forward(node, *args, **kwargs)
            else:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(node, args, output)
        wrapped = _wrap_outputs(node, args, output, any(node.needs_input_grad))
        _forward_tangents(cls, node, args, wrapped)
        return wrapped


def _wrap_outputs(node: BackwardCFunction, args: tuple, output, differentiable: bool):
    """The forward's outputs, the differentiable one with the node as its grad_fn."""
    outputs = output if isinstance(output, tuple) else (output,)
    dirty = {id(t) for t in node._dirty}
    inputs = {id(a) for a in args if isinstance(a, _tensor.Tensor)}
    for tensor in node._dirty:
        if differentiable and tensor.grad_fn is None and tensor._rg:
            raise RuntimeError("a leaf Variable that requires grad has been used in an "
                               "in-place operation.")
    quiet = {id(t) for t in node._non_differentiable}
    wrapped, graded = [], []
    for item in outputs:
        if isinstance(item, _tensor.Tensor):
            if id(item) in inputs and id(item) not in dirty:  # an input returned: an alias
                item = _tensor.Tensor._make(item._data, None, _tensor.shared_counter(item))
            if differentiable and id(item) not in quiet and item._data.dtype.kind in "fc":
                graded.append(item)
        wrapped.append(item)
    for tensor in node._dirty:  # written in place: torch counts the marking as a write too
        _tensor.bump_version(tensor)
    if differentiable:
        through_views = _dirty_views(node)
        _connect(node, args, graded, tuple(wrapped), through_views)  # (an input returned
        for view, positions, _ in through_views.values():  # is its alias now)
            record_through_view(view, node, positions)
    return tuple(wrapped) if isinstance(output, tuple) else wrapped[0]


def _dirty_views(node: BackwardCFunction) -> dict:
    """The views among the tensors the forward wrote in place, by id: each view, its places
    in its base and the base, whose history the node takes for that input's edge (torch then
    hangs the node from CopySlices on the base, as for its own in-place ops)."""
    found = {}
    for tensor in node._dirty:
        base = tensor._base
        positions = positions_in(tensor._data, base._data) if base is not None else None
        if positions is not None:
            found[id(tensor)] = (tensor, positions, base)
    return found


def _forward_tangents(cls, node: BackwardCFunction, args: tuple, wrapped) -> None:
    """Under forward-mode AD with a dual input: the outputs' tangents from the user's jvp,
    given one tangent per tensor input (zeros for those without one), as torch does."""
    if _forward.DualLevel.current < 0:
        return
    tangents = [_forward.tangent_of(a) if isinstance(a, _tensor.Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    given = [t if t is not None or not isinstance(a, _tensor.Tensor) else
             _tensor.Tensor._make(np.zeros_like(a._data)) for a, t in zip(args, tangents,
                                                                          strict=True)]
    node._in_jvp = True  # (its saved_tensors are what forward saved for it)
    try:
        with no_grad(), _recording.tangents_paused():
            returned = cls.jvp(node, *given)
    finally:
        node._in_jvp = False
    outputs = wrapped if isinstance(wrapped, tuple) else (wrapped,)
    returned = returned if isinstance(returned, tuple) else (returned,)
    for out, tangent in zip(outputs, returned, strict=False):
        if isinstance(out, _tensor.Tensor) and tangent is not None:
            _forward.set_tangent(out, tangent)


def _connect(node: BackwardCFunction, args: tuple, graded: list, outputs: tuple,
             through_views: dict) -> None:
    if not graded:
        return
    for tensor in node._to_save:  # only now are they saved for backward, as in torch
        if tensor is not None:
            _tensor.check_savable(tensor._vc)
    if _saved_hooks.HOOKS:
        node._to_save = tuple(None if t is None else _saved_hooks.pack(t) for t in node._to_save)
    inputs = [through_views[id(a)][2] if id(a) in through_views else a for a in args
              if isinstance(a, _tensor.Tensor)]
    node._view_shapes = {position: args[position]._data.shape for position in
                         node._tensor_positions if id(args[position]) in through_views}
    node._nx = tuple(edge(a) if a.requires_grad else None for a in inputs)
    places = {id(t): place for place, t in enumerate(graded)}
    node._output_layout = tuple((places.get(id(t)), t._data.shape, t._data.dtype)
                                for t in outputs if isinstance(t, _tensor.Tensor))
    record_outputs(node, graded)


class Error(Node):
    """torch's DelayedError node: differentiating through it raises ``message`` (what a
    ``once_differentiable`` backward's outputs hang from under create_graph)."""

    custom = True
    plain = False
    arity = -1
    __slots__ = ("message",)

    def __init__(self, message: str, inputs: list) -> None:
        for name, value in _FRESH_NODE.items():
            setattr(self, name, value)
        self._nx = tuple(edge(t) for t in inputs)
        self._seq = _nodes.new_sequence_number()
        self.message = message

    def name(self) -> str:
        return "torch::autograd::Error"

    def run_backward(self, grad, as_tensors: bool) -> tuple:
        raise RuntimeError(self.message)

    def release(self) -> None:
        """Nothing saved, nothing to free."""


_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


def _delayed_error(outputs: tuple):
    """The backward's outputs again, each from a fresh leaf through an Error node, so that
    only differentiating them raises (torch's way: a gradient that requires grad must)."""
    leaves = [None if t is None else t.detach().requires_grad_() for t in outputs]
    node = Error(_TWICE, [t for t in leaves if t is not None])
    aliases = [None if t is None else _tensor.Tensor._make(t._data) for t in leaves]
    record_outputs(node, [t for t in aliases if t is not None])
    return aliases[0] if len(aliases) == 1 else tuple(aliases)


def once_differentiable(backward):
    """Marks a backward that may not itself be differentiated: it runs without recording,
    and under create_graph its gradients, if those it got require grad, raise when used."""

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with no_grad():
            outputs = backward(ctx, *grads)
        if not GradMode.enabled or not any(
                isinstance(g, _tensor.Tensor) and g.requires_grad for g in grads):
            return outputs
        return _delayed_error(outputs if isinstance(outputs, tuple) else (outputs,))

    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace: bool = False) -> None:
        self.inplace = inplace


class NestedIOFunction(Function):
    pass


def custom_rule_text(function_class: type) -> str:
    """The rule the inspector shows for a custom Function's node: the user's backward as
    written (both engines' nodes name their Function class)."""
    name = function_class.__name__ + "Backward"
    try:
        source = inspect.getsource(function_class.backward)
    except (OSError, TypeError):  # written where Python keeps no source
        return f"{name}: the backward of {function_class.__name__}"
    lines = inspect.cleandoc(source).splitlines()
    while lines and lines[0].startswith("@"):  # @staticmethod, @once_differentiable
        lines.pop(0)
    return f"{name}: {function_class.__name__}.backward, as written:\n" + "\n".join(lines)
