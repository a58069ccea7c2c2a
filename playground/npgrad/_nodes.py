"""Autograd graph nodes (torch's grad_fn objects), their hooks, and what they save for backward.

The backward engine that runs them is ``_engine.py``; recording them during the forward is
``_recording.py``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _tensor
from ._bfloat16 import DENSE_ARRAYS, gradient_dtype
from ._dtype import from_numpy_dtype
from ._formula_compiler import COMPILED_HOOKS
from ._hook_lists import NodeHooks, RemovableHandle, node_metadata
from ._rules import RULES
from ._saved_hooks import Packed, pack_order, unpack, unpacked_in_place
from ._strides import laid_like
from ._versions import grad_fn_after_write

_sequence_numbers = itertools.count()
# torch gives AccumulateGrad the largest sequence number so it runs as soon as it is ready.
ACCUMULATE_GRAD_SEQUENCE = 2**64 - 1

FREED_GRAPH_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


class Node:
    """One backward function of the graph (torch's ``grad_fn`` objects)."""

    # The next nodes live in slots, not in a tuple: a tuple of nodes would be one more object
    # per op for Python's garbage collector to walk, and that walk dominates long graphs.
    # ``arity`` (a class attribute) says which: 1 -> _n0, 2 -> _n0 and _n1, -1 -> the tuple _nx.
    # _exact: every gradient this node sends already has its input's shape and dtype (set by
    # the fast paths, which know it from the forward), so backward can skip checking.
    __slots__ = ("_n0", "_n1", "_nx", "_saved", "_versions", "_seq", "_shape", "_np_dtype",
                 "_hooks", "_deps", "_pending", "_exact", "__weakref__")
    rule: Any = None
    arity = 0
    # Rule-driven nodes are "plain"; AccumulateGrad and GraphRoot take the special step.
    plain = True
    # A custom Function's node runs the user's backward (autograd/function.py), not a rule.
    custom = False

    @property
    def _next(self) -> tuple:
        """The next node per input (None for inputs that need no gradient)."""
        arity = self.arity
        if arity == 1:
            return (self._n0,)
        if arity == 2:
            return (self._n0, self._n1)
        if arity == 0:
            return ()
        return self._nx

    def _set_next(self, edges: tuple) -> None:
        arity = self.arity
        if arity == 1:
            self._n0 = edges[0]
        elif arity == 2:
            self._n0, self._n1 = edges
        elif arity < 0:
            self._nx = edges

    @property
    def next_functions(self) -> tuple:
        """((node, input_nr), ...) per input, as torch: None for inputs that need no grad."""
        return tuple(node.edge_pair() if type(node) is NodeOutput else (node, 0)
                     for node in self._next)

    def name(self) -> str:
        return type(self).__name__

    def _sequence_nr(self) -> int:
        """When the node was made, as torch numbers its nodes (AccumulateGrad: the largest)."""
        return self._seq

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    @property
    def metadata(self) -> dict:
        return node_metadata(self)

    def _hook_lists(self) -> NodeHooks:
        if self._hooks is None:
            self._hooks = NodeHooks()
        return self._hooks

    def register_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs)`` runs after this node; torch's argument names."""
        hooks = self._hook_lists().post
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_prehook(self, hook: Callable) -> RemovableHandle:
        """``hook(grad_outputs)`` runs before this node and may return replacement gradients."""
        hooks = self._hook_lists().pre
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def __getattr__(self, name: str):
        """torch's ``grad_fn._saved_self``, ``_saved_other``, ``_saved_result``: what the node
        saved under the rule's name (a number as a tensor; freed after backward: torch's
        error). Only names a node does not have come here."""
        key = name[len("_saved_"):] if name.startswith("_saved_") else None
        rule = type(self).rule
        saves = rule.saves if rule is not None else ()
        key = _SAVED_ALIASES.get(key, key)
        if key not in saves:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        index = saves.index(key)
        packed = self._saved[index] if self._saved is not None else None
        # (a hooked value alone through its unpack hook, as torch reads it)
        value = unpacked_in_place(packed, self) if packed.__class__ is Packed else \
            unpack_saved(self, True)[index]
        if isinstance(value, np.ndarray | np.generic) or \
                (isinstance(value, bool | int | float) and rule.numbers_are_tensors):
            return _tensor.Tensor._make(np.asarray(value))  # torch's wrapped-number tensor
        return tuple(value) if key == "shape" else value

    def saved_values(self) -> dict[str, Any]:
        """What this node saved for backward, by the rule's names (tensors as tensors)."""
        if self.rule is None or self._saved is None:
            return {}
        if any(v.__class__ is Packed for v in self._saved):  # only the user's hook reads them
            return {}
        return dict(zip(self.rule.saves, saved_as_tensors(self), strict=True))


# torch's names for what our rules call otherwise
_SAVED_ALIASES = {"self_sym_sizes": "shape"}
# For an op with several outputs: how many, and which of its saved values are its own outputs
# (saved index -> output index), learnt when the op first records (_recording.record_several).
# Under create_graph they come back on the graph as that output, so a second derivative flows
# through them (Q and R of a QR; U, S and Vh of an SVD), as through torch's saved outputs.
SAVED_OUTPUTS: dict[str, tuple[int, dict[int, int]]] = {}


class AccumulateGrad(Node):
    """The sink of a leaf tensor: adds the incoming gradient into ``variable.grad``."""

    __slots__ = ("variable",)
    plain = False

    def __init__(self, variable) -> None:
        self.variable = variable
        self._saved = ()
        self._versions = ()
        self._seq = ACCUMULATE_GRAD_SEQUENCE
        self._shape = variable._data.shape
        self._np_dtype = gradient_dtype(variable._data)
        self._hooks = None
        self._deps = None
        self._exact = False

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"


class GraphRoot(Node):
    """Feeds the given gradients to several roots at once, as torch's engine does."""

    __slots__ = ("grads",)
    arity = -1
    plain = False

    def __init__(self, roots: list[Node], grads: list) -> None:
        self._nx = tuple(roots)
        self.grads = grads
        self._saved = ()
        self._versions = ()
        self._seq = next(_sequence_numbers)
        self._shape = None
        self._np_dtype = None
        self._hooks = None
        self._deps = None
        self._exact = False

    def name(self) -> str:
        return "torch::autograd::GraphRoot"


class NodeOutput(Node):
    """Output ``index`` of a node with several (a custom Function's): what the ops that use
    that output point at, so that its gradient stays apart from the other outputs'.

    The engine sums and shapes the gradients reaching it as for any node, then it hands them
    on to its owner in an ``OutputGrads``; users never see it (``next_functions`` and the
    tensor's ``grad_fn`` name the owner, as torch's edges do).
    """

    __slots__ = ("index", "count")
    arity = 1
    plain = False

    def __init__(self, owner: Node, index: int, count: int, data: np.ndarray) -> None:
        self._n0 = owner
        self.index = index
        self.count = count
        self._saved = ()
        self._versions = ()
        self._seq = owner._seq  # ready with its owner's priority, as torch's one node is
        self._shape = data.shape
        self._np_dtype = gradient_dtype(data)
        self._hooks = None
        self._deps = None
        self._exact = False

    def edge_pair(self) -> tuple:
        return (self._n0, self.index)

    def name(self) -> str:
        return self._n0.name()

    def pass_on(self, grad) -> tuple:
        """The one gradient for the owner: this output's, in its place among the others."""
        grads = [None] * self.count
        grads[self.index] = grad
        return (OutputGrads(grads),)


class OutputGrads(tuple):
    """The gradient a node with several outputs receives: one per output, None where none
    came. The engine sums what arrives (``+``) and compares its shape and dtype with the
    node's, which are None too, so it is neither reduced nor cast on the way."""

    __slots__ = ()
    shape = None
    dtype = None
    size = 0  # never summed in place

    @property
    def _data(self):  # a create_graph backward reads a gradient's ``_data.dtype``
        return self

    def __add__(self, other):
        return OutputGrads(a if b is None else b if a is None else a + b
                           for a, b in zip(self, other, strict=True))


def incoming(grad) -> tuple:
    """The gradients a node received, as tensors: one per output."""
    if type(grad) is OutputGrads:
        return tuple(as_tensor(g) for g in grad)
    return (as_tensor(grad),)


def edge_of(tensor):
    """The node an op that uses ``tensor`` points at, when the tensor has a grad_fn: the
    grad_fn, or the grad_fn's ``NodeOutput`` for the tensor (kept in ``_grad_acc``, which a
    non-leaf tensor does not use otherwise)."""
    fn = tensor._fn  # (its callers regenerated a view written through since)
    output = tensor._grad_acc
    if type(output) is NodeOutput and output._n0 is fn:
        return output
    return fn


# One Node subclass per row of the derivative table, named as torch names it.
NODE_CLASSES: dict[str, type[Node]] = {
    op: type(rule.node_name, (Node,),
             {"__slots__": (), "rule": rule, "formulas": rule.formulas, "__module__": "torch",
              "arity": -1 if rule.variadic or len(rule.inputs) > 2 else len(rule.inputs)})
    for op, rule in RULES.items()
}
# torch's nodes made in C++ by hand, not from its derivatives table, name themselves in full
for _node_class in NODE_CLASSES.values():
    if _node_class.__name__ in ("CopySlices", "CopyBackwards", "NotImplemented"):
        _node_class.name = lambda self, _full=f"torch::autograd::{_node_class.__name__}": _full
    elif _node_class.__name__ == "CppFunction":  # (a C++ function without a class of its own)
        _node_class.name = lambda self: "torch::autograd::Identity"
COMPILED_HOOKS.append(lambda rule: setattr(NODE_CLASSES[rule.op], "formulas", rule.formulas)
                      if NODE_CLASSES.get(rule.op, Node).rule is rule else None)


# Every recorded node takes the next number; torch's priority rule runs the latest first.
new_sequence_number = _sequence_numbers.__next__
# A number between the nodes made before and those made after (drawn, where torch's
# _get_sequence_nr peeks; anomaly mode's numbering, which replaces the one above, draws here too).
sequence_mark = _sequence_numbers.__next__


def legacy_type_name(data: np.ndarray) -> str:
    """torch's ``[torch.FloatTensor [2, 2]]`` description of an array, used in messages."""
    shape = ", ".join(str(size) for size in data.shape)
    return f"[torch.{from_numpy_dtype(data.dtype).legacy_name} [{shape}]]"


def _version_error(node: Node, index: int, current: int, expected: int,
                   counter: bytearray) -> RuntimeError:
    """torch's message: a saved input is named by its grad_fn as it is now (an in-place write
    changed it), a saved output by the node that saved it and its place among the node's
    outputs (R is output 1 of LinalgQr)."""
    rule, name = node.rule, None
    places = SAVED_OUTPUTS.get(rule.op, (0, {}))[1]
    if rule.saves[index] == "result" or index in places:
        producer = node
    else:
        position = rule.input_of_saved[index]
        producer = node._next[position] if position is not None else None
        name = grad_fn_after_write(counter, np.shape(node._saved[index]))
    if name is None and producer is not None and not isinstance(producer, AccumulateGrad):
        name = producer.name()
    short_name = name and re.sub(r"Backward\d*$", "", name)
    where = "" if name is None else f", which is output {places.get(index, 0)} of {short_name},"
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: {legacy_type_name(node._saved[index])}{where} is at version {current}; "
        f"expected version {expected} instead. Hint: enable anomaly detection to find the "
        "operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def check_versions(node: Node) -> None:
    """Raise torch's error if a saved tensor was changed in place after it was saved."""
    checks = node._versions
    for position in range(0, len(checks), 3):
        counter = checks[position + 1]
        if counter != checks[position + 2]:
            raise _version_error(node, checks[position], _tensor.counter_value(counter),
                                 _tensor.counter_value(checks[position + 2]), counter)


def saved_as_tensors(node: Node, saved: tuple | None = None) -> list:
    """The saved values (``saved``, or the node's) with tensors rebuilt on the graph, for a
    create_graph backward.

    A saved input becomes the leaf itself, or a tensor whose grad_fn is the node that produced
    it; the saved output becomes a tensor whose grad_fn is this node.
    """
    values = list(node._saved if saved is None else saved)
    rule = node.rule
    tensor_type = _tensor.Tensor
    checks = node._versions
    count, outputs = SAVED_OUTPUTS.get(rule.op, (0, {}))  # (a node with several outputs)
    for position in range(0, len(checks), 3):
        index = checks[position]
        data = values[index]
        if rule.saves[index] == "result":
            values[index] = tensor_type._make(data, node, checks[position + 1])
            continue
        input_position = rule.input_of_saved[index]
        source = node._next[input_position] if input_position is not None else None
        if source is None and index in outputs:
            values[index] = tensor_type._make(data, node, checks[position + 1])
            values[index]._grad_acc = NodeOutput(node, outputs[index], count, data)
        elif type(source) is AccumulateGrad:
            values[index] = source.variable
        elif type(source) is NodeOutput:  # an output of a node with several, as it was
            values[index] = tensor_type._make(data, source._n0, checks[position + 1])
            values[index]._grad_acc = source
        else:
            values[index] = tensor_type._make(data, source, checks[position + 1])
    return values


def unpack_saved(node: Node, as_tensors: bool) -> list | tuple:
    """The node's saved values, checked against in-place changes since they were saved."""
    if node._saved is None:
        raise RuntimeError(FREED_GRAPH_MESSAGE)
    if node._hooks is not None and any(v.__class__ is Packed for v in node._saved):
        # through the unpack hooks (saved_tensors_hooks), each time; no version is checked
        values = list(node._saved)
        for index in pack_order(node.rule.saves):  # (torch reads them back in that order too)
            if values[index].__class__ is Packed:
                values[index] = unpack(values[index])._data
        return saved_as_tensors(node, tuple(values)) if as_tensors else tuple(values)
    check_versions(node)
    return saved_as_tensors(node) if as_tensors else node._saved


# ----- saved values after a backward ------------------------------------------------------------
def release_saved(node: Node) -> None:
    """Free what the node saved, as torch does after a backward without retain_graph.

    Only nodes holding tensors are freed (a shape or a number is kept), which is why torch lets
    ``(x + 1).sum()`` be backpropagated twice but not ``(x * x).sum()``.
    """
    if node.custom:
        node.release()
        return
    saved = node._saved
    if not saved:
        return
    if node._versions or (node.rule.releases and any(i is not None for i in saved)):
        node._saved = None


# ----- hooks and gradient accumulation, as the engine runs them ---------------------------------
def as_tensor(value):
    if value is None or type(value) is _tensor.Tensor:
        return value
    return _tensor.Tensor._make(value, None, None)


def as_value(tensor_or_array, as_tensors: bool):
    if tensor_or_array is None:
        return None
    if as_tensors:
        return as_tensor(tensor_or_array)
    return tensor_or_array._data if type(tensor_or_array) is _tensor.Tensor else tensor_or_array


def run_pre_hooks(node: Node, grad, as_tensors: bool):
    hooks = node._hooks
    if hooks.tensor_pre:
        grad = call_tensor_hooks(hooks.tensor_pre, grad, as_tensors)
    if hooks.retain is not None:
        owner = hooks.retain()
        if owner is not None:
            accumulate_into(owner, grad, as_tensors, retain=True)
    for hook in list(hooks.pre):
        result = hook(incoming(grad))
        if result is not None:
            values = tuple(as_value(g, as_tensors) for g in result)
            grad = OutputGrads(values) if type(grad) is OutputGrads else values[0]
    return grad


def call_tensor_hooks(hooks: list, grad, as_tensors: bool):
    for hook in list(hooks):
        given = as_tensor(grad)
        result = hook(given)
        if result is not None:
            _check_hook_result(hook, given, result)
            grad = as_value(result, as_tensors)
    return grad


def leaf_hooked(node, grad, as_tensors: bool):
    """A leaf's gradient as grad() captures it: its tensor hooks run first, as torch's."""
    if type(node) is AccumulateGrad and node.variable._hooks:
        return call_tensor_hooks(node.variable._hooks, grad, as_tensors)
    return grad


def _check_hook_result(hook, given, result) -> None:
    """A tensor hook may replace the gradient, not change its kind: torch's checks."""
    if not isinstance(result, _tensor.Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    name = getattr(hook, "__name__", type(hook).__name__)
    if tuple(result.shape) != tuple(given.shape):
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if result.dtype != given.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {given.type()} "
                           f"got {result.type()})")


def accumulate_into(tensor, grad, as_tensors: bool, retain: bool = False) -> None:
    """torch's AccumulateGrad: steal-or-copy the first gradient, add later ones in place."""
    current = tensor._grad
    if not as_tensors and (grad.__class__ not in DENSE_ARRAYS  # (a sparse embedding's)
                           or (current is not None and "_coo" in current.__dict__)):
        from . import _sparse_grads

        grad = _sparse_grads.accumulated_sparsely(tensor, grad)
        if grad is None:
            return
    if current is None:
        if as_tensors:
            from ._inplace import copy_for_grad  # the ops record nodes: they import this module

            tensor._grad = grad.clone() if retain else copy_for_grad(grad)
        else:
            tensor._grad = _tensor.Tensor._make(laid_like(grad, tensor._data), None, None)
        wanted = tensor._grad_dtype  # (a leaf's grad_dtype, where set to a dtype)
        if wanted and tensor._grad._data.dtype != wanted.numpy:
            tensor._grad = tensor._grad.to(wanted)
    elif as_tensors:
        tensor._grad = current + grad
    elif retain:
        tensor._grad = _tensor.Tensor._make(current._data + grad, None, None)
    else:
        np.add(current._data, grad, out=current._data, casting="unsafe")
        _tensor.bump_version(current)


def run_post_hooks(node: Node, grad, outputs, as_tensors: bool):
    wrapped = tuple(as_tensor(g) for g in outputs)
    for hook in list(node._hooks.post):
        result = hook(wrapped, incoming(grad))
        if result is not None:
            wrapped = tuple(result)
            outputs = tuple(as_value(g, as_tensors) for g in wrapped)
    return outputs

