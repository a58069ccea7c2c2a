"""Recording: once an op has computed its value, the node it leaves in the graph (its grad_fn).

One protocol for every op: ``output`` wraps the value and, when grad mode is on and an input
needs a gradient, ``attach_node`` gives it a node of the op's rule that points at the inputs'
nodes and saves what the rule's formulas read, each saved tensor with its version (torch's
in-place check). ``fast_elementwise`` is the same protocol inlined into the elementwise ops of
tutorial code; ``FAST_PATHS`` lists them for the test that holds the two to the same nodes.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable

import numpy as np

from ._bfloat16 import (
    BFloat16Array,
    InUse,
    carries_bfloat16,
    gradient_dtype,
    marked_bfloat16,
)
from ._complex_nodes import complex_variant
from ._grad_mode import GradMode
from ._no_grad_views import mark as mark_view
from ._no_grad_views import refused as refused_view
from ._nodes import (
    NODE_CLASSES,
    SAVED_OUTPUTS,
    Node,
    NodeHooks,
    NodeOutput,
    edge_of,
    new_sequence_number,
)
from ._operands import broadcast_error, typed_scalar
from ._parallel import SPLIT_FROM
from ._parallel import apply as split_ufunc
from ._result_layouts import LAID_OUT, as_torch_lays_out
from ._saved_hooks import HOOKS as SAVED_TENSOR_HOOKS
from ._saved_hooks import pack, pack_order
from ._tensor import (
    TENSOR_CLASSES,
    ZERO_VERSION,
    InferenceCounter,
    Tensor,
    check_savable,
    new_counter,
)
from ._view_places import positions_in

_ndarray = np.ndarray
_next_sequence = new_sequence_number
_make = Tensor._make
_new = object.__new__
# Marks "this op's own output" in a saved tuple: the output array is saved in its place.
RESULT = object()
SAVE_RESULT = (RESULT,)


# The functions in this module run once per op: they are written for speed, not elegance.
# Ops whose result is in their input's dtype whatever their weights' (torch's mixed-type
# normalizations: a bfloat16 input with float32 weights gives bfloat16)
INPUT_TYPED = frozenset(("batch_norm", "layer_norm", "group_norm"))


def output(op: str, data, inputs: tuple, saved: tuple = (), counter=None, base=None,
           typed: bool = False) -> Tensor:
    """Wrap ``data`` as the op's result; record a node when grad mode is on and inputs need it.

    ``inputs`` are the tensors (or None) the rule's formulas give gradients to, in its order;
    ``saved`` the rule's saved values (tensors, RESULT, arrays, numbers); a view passes its
    base's version ``counter`` and the ``base`` itself. A float32 result of bfloat16 inputs
    is bfloat16's (rounded: _bfloat16.py), unless the op was ``typed`` (given a dtype).
    """
    if data.__class__ is not _ndarray and data.__class__ is not BFloat16Array:
        data = np.asarray(data)
    if op in LAID_OUT:
        data = as_torch_lays_out(op, data, inputs, saved)
    if InUse.made and data.__class__ is _ndarray and not typed and carries_bfloat16(
            data, inputs[:1] if op in INPUT_TYPED else inputs):
        data = marked_bfloat16(data)
    out = _make(data, None, counter)
    if base is not None:
        out._base = base if base._base is None else base._base  # (torch's: the first base)
        out._vv = bytes(counter)
        if not GradMode.enabled or base._made:
            mark_view(out, base, GradMode.enabled)
    if GradMode.enabled:
        for tensor in inputs:
            if tensor is not None and tensor._rg:
                # as in torch, an integer or bool result (x.long(), x.bool()) is not differentiable
                kind = data.dtype.kind
                if kind == "f":
                    node_class = NODE_CLASSES[op]
                    if tensor._data.dtype.kind == "c":  # (abs, angle, norm of z)
                        node_class = complex_variant(node_class, False)
                    attach_node(out, node_class, inputs, saved)
                elif kind == "c":
                    attach_node(out, complex_variant(NODE_CLASSES[op], True), inputs, saved)
                break
    if _tangents is not None:
        _tangents(out, op, inputs, saved)
    return out


# While a forward-mode dual level is open: what gives an op's result its tangent
# (``_forward.propagate``; set to None while a tangent is being worked out), what gives the
# outputs of one node theirs (split's pieces), and the fast paths' dtypes, put aside so that
# every op comes here.
_tangents: Callable | None = None
_piece_tangents: Callable | None = None
_fast_dtypes_aside: dict = {}


def open_dual_level(propagate: Callable, propagate_pieces: Callable) -> None:
    global _tangents, _piece_tangents
    _tangents, _piece_tangents = propagate, propagate_pieces
    _fast_dtypes_aside.update(FAST_DTYPES)
    FAST_DTYPES.clear()


@contextlib.contextmanager
def tangents_paused():
    """Ops inside record no tangents: a custom Function's jvp runs so, as torch runs it with
    forward-mode AD off (its result is a tangent, not a dual number)."""
    global _tangents
    kept, _tangents = _tangents, None
    try:
        yield
    finally:
        _tangents = kept


def close_dual_level() -> None:
    global _tangents, _piece_tangents
    # (both let go: a kernel reads a function left set as a script's change to the engine)
    _tangents = _piece_tangents = None
    FAST_DTYPES.update(_fast_dtypes_aside)
    _fast_dtypes_aside.clear()


def edge(tensor):
    """The node an op on ``tensor`` points at: its grad_fn, its AccumulateGrad, or None."""
    if tensor is None:
        return None
    fn = tensor._fn
    if tensor._base is not None and tensor._vv != tensor._vc:  # its base written since
        fn = rebased_view(tensor)
    if fn is not None:
        return fn if tensor._grad_acc is None else edge_of(tensor)
    if not tensor._rg or tensor._made:  # (a view made under no_grad leads nowhere)
        return None
    accumulator = tensor._grad_acc
    if accumulator is not None:
        accumulator = accumulator()
        if accumulator is not None:
            return accumulator
    return tensor._grad_edge()[0]


def rebased_view(view: Tensor):
    """A view whose base was written since its grad_fn was set (itself, or through another
    view): as torch regenerates it, an as_strided view of the base's history as it is now.
    A view that did not require grad starts to, as torch's does."""
    if view._made:  # made under no_grad (or of such a view): torch refuses to say
        if view._rg:
            raise refused_view(view, written_itself=False)
        view._vv = bytes(view._vc)
        return view._fn
    base = view._base
    positions = positions_in(view._data, base._data) if base._rg else None
    if positions is None:
        view._vv = bytes(view._vc)
        return view._fn
    return as_strided_of(view, base, positions)


def as_strided_of(view: Tensor, base: Tensor, positions) -> Node:
    """Make ``view`` (its elements at ``positions`` in ``base``) an as_strided view of the
    base's history as it is now: torch's AsStridedBackward0."""
    view._vv = bytes(view._vc)
    attach_node(view, NODE_CLASSES["as_strided"], (base,), (base._data.shape, positions))
    view._grad_acc = None
    return view._fn


def record_several(op: str, tensors: list, inputs: tuple, saved: tuple) -> None:
    """One ``op`` node as the grad_fn of each of ``tensors`` (an output each: split's pieces,
    an LSTM layer's sequence and states), recorded when ``output`` would record one."""
    if _tangents is not None and tensors and inputs:
        _piece_tangents(tensors, inputs, op, saved)
    if not (tensors and GradMode.enabled and tensors[0]._data.dtype.kind in "fc" and
            any(t is not None and t._rg for t in inputs)):
        return
    if op not in SAVED_OUTPUTS:
        SAVED_OUTPUTS[op] = (len(tensors), {
            index: place for index, value in enumerate(saved)
            for place, tensor in enumerate(tensors) if value is tensor})
    node_class = NODE_CLASSES[op]
    if any(t is not None and t._data.dtype.kind == "c" for t in (*inputs, *tensors)):
        node_class = complex_variant(node_class, True)
    attach_node(tensors[0], node_class, inputs, saved)
    record_outputs(tensors[0].grad_fn, tensors)


def record_outputs(node, tensors: list) -> None:
    """Make ``node`` (already linked to its inputs) the grad_fn of each tensor. With several,
    each tensor keeps its own NodeOutput of the node (in ``_grad_acc``, unused by non-leaf
    tensors) for the ops that use it to point at, as torch's edges name an output."""
    several = len(tensors) > 1
    # One output's gradient comes alone, shaped and cast for it; several come as OutputGrads,
    # which have no shape or dtype.
    node._shape = None if several else tensors[0]._data.shape
    node._np_dtype = None if several else gradient_dtype(tensors[0]._data)
    for index, tensor in enumerate(tensors):
        tensor._fn = node
        tensor._rg = True
        tensor._grad_acc = NodeOutput(node, index, len(tensors), tensor._data) if several else None


def attach_node(out: Tensor, node_class, inputs: tuple, saved: tuple) -> None:
    """Make a node of ``node_class`` ``out``'s grad_fn (see ``output``)."""
    node = _new(node_class)  # (a complex op's variant is its callers' choice: complex_variant)
    if len(inputs) == 1:
        edges = (edge(inputs[0]),)
    elif len(inputs) == 2:
        edges = (edge(inputs[0]), edge(inputs[1]))
    else:
        edges = tuple([edge(t) for t in inputs])
    node._set_next(edges)
    node._seq = _next_sequence()
    data = out._data
    node._shape = data.shape
    node._np_dtype = data.dtype if data.__class__ is _ndarray else gradient_dtype(data)
    node._hooks = None
    node._deps = None
    # Whether each gradient the node sends already has its input's shape and dtype, so that
    # backward may skip checking: only the fast path knows it from the forward.
    node._exact = False
    out._rg = True
    out._fn = node
    if not saved:
        node._saved = ()
        node._versions = ()
    else:
        node._saved, node._versions = _save(node_class.rule.save_gates, edges, saved, out)
        if SAVED_TENSOR_HOOKS:
            _pack_saved(node, saved, out)


def _pack_saved(node, saved: tuple, out: Tensor) -> None:
    """The saved tensors through the innermost pack hook, in torch's order; the node then
    takes the general path of backward, which unpacks them (saved_tensors_hooks)."""
    items = list(node._saved)
    checks = node._versions
    tensors = {checks[position]: saved[checks[position]] for position in range(0, len(checks), 3)}
    for index in pack_order(node.rule.saves):
        if index in tensors:
            tensor = tensors[index]
            items[index] = pack(out, output=True) if tensor is RESULT else pack(tensor)
    node._saved = tuple(items)
    if node._hooks is None:
        node._hooks = NodeHooks()


def _save(gates: tuple, edges: tuple, saved: tuple, out: Tensor) -> tuple[tuple, tuple]:
    """Arrays for the formulas, and (index, counter, version) triples to check them later.

    Tensors are saved as their arrays, not as tensor objects: a tuple of arrays and numbers is
    invisible to Python's garbage collector, which otherwise spends more time walking a long
    graph than the graph takes to build. torch saves a value only if the formula of an input
    that needs a gradient reads it (the gates).
    """
    items = []
    checks = []
    for index, item in enumerate(saved):
        gate = gates[index]
        if gate is not None:
            for position in gate:
                if edges[position] is not None:
                    break
            else:
                item = None
        if item.__class__ in TENSOR_CLASSES or item is RESULT:
            tensor = out if item is RESULT else item
            counter = tensor._vc
            if counter is None:
                counter = tensor._vc = new_counter()
            else:
                check_savable(counter)
            checks += (index, counter, bytes(counter))
            item = tensor._data
        items.append(item)
    return tuple(items), tuple(checks)


# ----- the fast path ----------------------------------------------------------------------------
# A measured hot path. The elementwise ops of tutorial code (x * 2, y + w, x.tanh()) on float32
# and float64 tensors and Python numbers run ``output`` and ``attach_node`` above with every
# call inlined and every question the rule answers once asked here, at declaration: a call
# less per op is 2-3% of benchmarks/engine_vs_torch.py (a), the general protocol 20% (measured
# for issue 22). Anything else (other dtypes, mixed dtypes, odd operands, keyword options) goes
# to the op's general forward. tests/npgrad/test_fast_paths.py runs every op in FAST_PATHS both
# ways and compares values, dtypes, nodes, saved values and versions, and gradients.

# Per fast dtype, Python numbers already turned into read-only 0-d arrays of that dtype.
FAST_DTYPES: dict = {np.dtype(np.float32): {}, np.dtype(np.float64): {}}
# op -> (general forward, fast forward), for the test.
FAST_PATHS: dict[str, tuple[Callable, Callable]] = {}
# The default of a fast op's second operand: a unary op given one, or a binary op given none,
# is a call for the general forward's TypeError.
_MISSING = object()


def _scalar_array(value: float | int, dtype) -> np.ndarray:
    """A read-only 0-d array for a Python number: NumPy multiplies by it twice as fast."""
    cache = FAST_DTYPES[dtype]
    if len(cache) > 256:
        cache.clear()
    array = typed_scalar(value, dtype)  # (torch's error for an int beyond 64 bits)
    array.flags.writeable = False
    cache[value] = array
    return array


def fast_elementwise(op: str, ufunc, general: Callable, reflected: bool = False) -> Callable:
    """``ufunc(self)`` or ``ufunc(self, other)`` recorded as ``general`` records it, fast.

    The op's rule says which: one input (``exp``) or two (``mul``); ``reflected`` is ``number
    op self`` (``10 - x``: one edge, the number first). The rule must save nothing but numbers
    (add's alpha), its result, its input, or its two operands.
    """
    node_class = NODE_CLASSES[op]
    rule = node_class.rule
    if rule.saves not in ((), ("alpha",), ("result",), ("self",), ("self", "other")):
        raise ValueError(f"{op!r} saves {rule.saves}: it has no fast path")
    unary = len(rule.inputs) == 1 and not reflected
    two_edges = len(rule.inputs) == 2 and not reflected
    saves_numbers = rule.saves in ((), ("alpha",))
    saves_result = rule.saves == ("result",)
    # add's alpha, 1 on this path: kept even where the general forward's gate drops it (no
    # formula reads it there), as torch keeps a Scalar.
    numbers = (1,) if rule.saves else ()
    self_gated = not unary and rule.save_gates[0] is not None
    other_gated = not unary and rule.save_gates[-1] is not None
    missing = _MISSING
    split_from = SPLIT_FROM
    saved_tensor_hooks = SAVED_TENSOR_HOOKS

    def fallback(self, other):
        return general(self) if other is missing else general(self, other)

    def operator(self, other=missing):
        a = self._data
        dtype = a.dtype
        if unary:  # (a bfloat16 tensor's float32 values: the general forward marks them)
            if other is not missing or dtype not in FAST_DTYPES or a.__class__ is not _ndarray:
                return fallback(self, other)
            data = ufunc(a)  # (a unary op's function splits large arrays itself)
            other_tensor = None
            exact = True
        else:
            scalars = FAST_DTYPES.get(dtype)
            if scalars is None or a.__class__ is not _ndarray:
                return fallback(self, other)
            if other.__class__ in TENSOR_CLASSES and not reflected:
                b = other._data
                if dtype is not b.dtype:
                    return general(self, other)
                other_tensor = other
            elif other.__class__ is float or other.__class__ is int:
                b = scalars.get(other)
                if b is None:
                    b = _scalar_array(other, dtype)
                other_tensor = None
            else:
                return fallback(self, other)
            try:
                if a.size < split_from:
                    data = ufunc(b, a) if reflected else ufunc(a, b)
                else:
                    data = split_ufunc(ufunc, b, a) if reflected else split_ufunc(ufunc, a, b)
            except ValueError:
                raise broadcast_error(a.shape, b.shape) from None
            # Same dtypes by construction; same shapes unless the operands broadcast.
            exact = other_tensor is None or a.shape == b.shape
        if data.__class__ is not _ndarray:
            if data.__class__ is BFloat16Array:  # (bfloat16's node: the general forward's)
                return fallback(self, other)
            data = np.asarray(data)
        out = _make(data)
        if not (GradMode.enabled and (self._rg or (other_tensor is not None and other_tensor._rg))):
            return out
        # attach_node, inlined:
        node = _new(node_class)
        # (a tensor with a grad_fn and a _grad_acc is an output of a node with several)
        first = self._fn
        if first is None or self._grad_acc is not None or self._base is not None:
            first = edge(self)
        second = None
        if other_tensor is not None:
            second = other_tensor._fn
            if other_tensor._base is not None:
                second = edge(other_tensor)
            elif second is None:
                if other_tensor._rg:
                    # A leaf (a weight, usually): its AccumulateGrad, alive while a node uses it.
                    accumulator = other_tensor._grad_acc
                    second = accumulator() if accumulator is not None else None
                    if second is None:
                        second = edge(other_tensor)
            elif other_tensor._grad_acc is not None:
                second = edge(other_tensor)
        node._n0 = first
        if two_edges:
            node._n1 = second
        node._seq = _next_sequence()
        node._shape = data.shape
        node._np_dtype = dtype
        node._hooks = None
        node._deps = None
        node._exact = exact
        out._rg = True
        out._fn = node
        if saved_tensor_hooks and not saves_numbers:  # the general way, through the hooks
            saved = (RESULT,) if saves_result else (self,) if unary else (
                self, b if other_tensor is None else other_tensor)
            edges = (first,) if unary else (first, second)
            node._saved, node._versions = _save(rule.save_gates, edges, saved, out)
            _pack_saved(node, saved, out)
            return out
        # _save, inlined for the rule's saved values:
        if saves_numbers:
            node._saved = numbers
            node._versions = ()
            return out
        if saves_result:
            counter = out._vc = new_counter()
            node._saved = (data,)
            node._versions = (0, counter, ZERO_VERSION)
            return out
        saved_self = None
        if not self_gated or second is not None:
            self_counter = self._vc
            if self_counter is None:
                self_counter = self._vc = new_counter()
                self_version = ZERO_VERSION
            else:
                if self_counter.__class__ is InferenceCounter:  # inlined check_savable
                    check_savable(self_counter)
                self_version = bytes(self_counter)
            saved_self = a
        if unary:
            node._saved = (a,)
            node._versions = (0, self_counter, self_version)
            return out
        saved_other = None
        other_counter = None
        if not other_gated or first is not None:
            saved_other = b
            if other_tensor is not None:
                other_counter = other_tensor._vc
                if other_counter is None:
                    other_counter = other_tensor._vc = new_counter()
                    other_version = ZERO_VERSION
                else:
                    if other_counter.__class__ is InferenceCounter:  # inlined check_savable
                        check_savable(other_counter)
                    other_version = bytes(other_counter)
        node._saved = (saved_self, saved_other)
        if saved_self is None:
            node._versions = () if other_counter is None else (1, other_counter, other_version)
        elif other_counter is None:
            node._versions = (0, self_counter, self_version)
        else:
            node._versions = (0, self_counter, self_version, 1, other_counter, other_version)
        return out

    operator.__name__ = operator.__qualname__ = op
    operator.__doc__ = general.__doc__
    # What it takes is the general forward's positional parameters (named calls with keyword
    # options reach the general forward first: _arithmetic.arithmetic).
    signature = inspect.signature(general)
    operator.__signature__ = signature.replace(parameters=[
        p for p in signature.parameters.values() if p.kind is not p.KEYWORD_ONLY])
    FAST_PATHS[op] = (general, operator)
    return operator
