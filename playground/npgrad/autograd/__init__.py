"""``torch.autograd``: backward() and grad() over the engine, and observing a backward pass."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator, Mapping

import numpy as np

from .. import _graph_tasks, _sparse
from .._engine import BackwardStep, Observers, execute
from .._grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .._graph_order import needed_nodes
from .._missing import missing_attribute
from .._nodes import AccumulateGrad, GraphRoot, Node
from .._sparse_grads import sparse_gradient
from .._tensor import Tensor
from . import _gradient_edges, anomaly_mode, grad_mode, graph
from ._gradient_edges import GradientEdge
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .grad_mode import set_multithreading_enabled

__all__ = [
    "backward", "grad", "observe", "BackwardStep", "Node", "no_grad", "enable_grad",
    "set_grad_enabled", "is_grad_enabled", "inference_mode", "anomaly_mode", "detect_anomaly",
    "set_detect_anomaly", "set_multithreading_enabled", "grad_mode",
]


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, Tensor):
        return (value,)
    return tuple(value)


def _make_grads(outputs: tuple, grads: tuple) -> list:
    """torch's _make_grads: check given gradients, create ones for scalar outputs."""
    if grads and len(grads) != len(outputs):
        raise RuntimeError(
            f"got {len(grads)} tensors and {len(outputs)} gradients"
        )
    result = []
    for index, output in enumerate(outputs):
        given = grads[index] if grads else None
        if given is None:
            if output._rg and output._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if output._rg and output._data.dtype.kind == "c":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {output.dtype}")
            result.append(np.ones(output._data.shape, dtype=output._data.dtype))
            continue
        if not isinstance(given, Tensor):
            raise TypeError(
                f"gradients can be either Tensors or None, but got {type(given).__name__}"
            )
        if given._data.shape != output._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{index}] has a shape of {given.shape} and "
                f"output[{index}] has a shape of {output.shape}."
            )
        if given._data.dtype != output._data.dtype:
            given = given.to(output.dtype)  # torch casts a root gradient to the output's dtype
        result.append(given)
    return result


def _root_nodes(outputs: tuple) -> list[Node]:
    nodes = []
    for index, output in enumerate(outputs):
        node = output._grad_edge()[0]
        if node is None:
            raise RuntimeError(
                f"element {index} of tensors does not require grad and does not have a grad_fn"
            )
        nodes.append(node)
    return nodes


def _root(nodes: list[Node], grads: list, as_tensors: bool):
    values = [_value(g, as_tensors) for g in grads]
    if len(nodes) == 1:
        return nodes[0], values[0]
    root = GraphRoot(nodes, values)
    return root, None


def _value(grad, as_tensors: bool):
    if as_tensors:
        return grad if isinstance(grad, Tensor) else Tensor._make(grad)
    if not isinstance(grad, Tensor):
        return grad
    coo = _sparse.parts(grad)  # a sparse gradient given stays sparse (SparseSumBackward0's)
    return grad._data if coo is None else sparse_gradient(grad._data.shape, (coo,))


def _notify(callbacks: list, *args):
    """Call each callback; whether any wants the call's steps (an ``on_start`` that returns
    False does not: the call then runs on the fast path). One that returns a list wants them
    written there (the fast path can: ``_engine._execute_plain``), when it is the only one."""
    answers = [callback(*args) for callback in list(callbacks)]
    if len(answers) == 1 and answers[0].__class__ is list:
        return answers[0]
    return not answers or any(answer is not False for answer in answers)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate into the leaves' ``.grad`` the gradient of ``tensors``."""
    outputs = _as_tuple(tensors)
    # observers hear of a call that fails its checks too, as a wrapper of torch's does
    observed = _notify(Observers.backward_started, ("backward", outputs))
    try:
        _backward(outputs, grad_tensors if grad_tensors is not None else grad_variables,
                  retain_graph, create_graph, inputs, observed)
    finally:
        _notify(Observers.backward_finished, ("backward", outputs))


def _backward(outputs: tuple, grad_tensors, retain_graph, create_graph: bool, inputs,
              observed: bool | list) -> None:
    grads = _make_grads(outputs, _as_tuple(grad_tensors))
    keep_graph = create_graph if retain_graph is None else retain_graph
    nodes = _root_nodes(outputs)
    root, root_grad = _root(nodes, grads, create_graph)
    needed = None
    if inputs is not None:
        targets = {t._grad_edge()[0] for t in _as_tuple(inputs)}
        if None in targets:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        needed = needed_nodes(root, targets) | targets
    _graph_tasks.start(root, needed, ())
    try:
        execute(root, root_grad, keep_graph=keep_graph, create_graph=create_graph,
                captures={} if needed is not None else None, needed=needed, observed=observed)
    finally:
        _graph_tasks.finish()


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False,
         materialize_grads=False) -> tuple:
    """The gradients of ``outputs`` w.r.t. ``inputs``, returned instead of accumulated (as
    a dict of the same keys when ``inputs`` is one). Tensors or GradientEdges, both."""
    outputs = _gradient_edges.as_outputs(
        (outputs,) if isinstance(outputs, GradientEdge) else _as_tuple(outputs))
    names, inputs = _named_inputs(inputs)
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). "
                      "To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=2)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    observed = _notify(Observers.backward_started, ("grad", outputs))
    try:
        found = _grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                      bool(allow_unused) or materialize_grads, materialize_grads, observed)
    finally:
        _notify(Observers.backward_finished, ("grad", outputs))
    return found if names is None else dict(zip(names, found, strict=True))


def _named_inputs(inputs) -> tuple[list | None, tuple]:
    """grad()'s inputs: a tensor or edge, a sequence of them, or a dict (its keys kept)."""
    if isinstance(inputs, Tensor | GradientEdge):
        found, names = (inputs,), None
    elif type(inputs) is dict:
        found, names = tuple(inputs.values()), list(inputs)
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    else:
        found, names = tuple(inputs), None
    if not found:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    return names, found


def _batched_grad(outputs: tuple, inputs, grad_outputs, retain_graph, create_graph,
                  allow_unused, materialize_grads) -> tuple:
    """is_grads_batched: the first dimension of every grad_output is a batch of them; one
    backward per entry (torch vmaps it; the values are the same), stacked."""
    from .._shapes import stack

    batches = _as_tuple(grad_outputs)
    count = batches[0].shape[0]
    keep = create_graph if retain_graph is None else retain_graph
    rows = [grad(outputs, inputs, tuple(batch[index] for batch in batches),
                 retain_graph=True if index < count - 1 else keep, create_graph=create_graph,
                 allow_unused=allow_unused, materialize_grads=materialize_grads)
            for index in range(count)]
    return tuple(None if column[0] is None else stack(list(column))
                 for column in zip(*rows, strict=True))


def _grad(outputs: tuple, inputs: tuple, grad_outputs, retain_graph, create_graph: bool,
          allow_unused: bool, materialize_grads: bool, observed: bool | list) -> tuple:
    grads = _make_grads(outputs, _as_tuple(grad_outputs))
    keep_graph = create_graph if retain_graph is None else retain_graph
    captures: dict[Node, list[int]] = {}
    nodes = _root_nodes(outputs)  # (torch checks the outputs first)
    for index, tensor in enumerate(inputs):
        node = _gradient_edges.engine_edge(tensor)
        if node is None:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        captures.setdefault(node, []).append(index)
    root, root_grad = _root(nodes, grads, create_graph)
    needed = needed_nodes(root, set(captures))
    _graph_tasks.start(root, needed, captures)
    try:
        captured = execute(root, root_grad, keep_graph=keep_graph, create_graph=create_graph,
                           captures=captures, needed=needed, accumulate=False,
                           observed=observed)
    finally:
        _graph_tasks.finish()
    captured = captured + [None] * (len(inputs) - len(captured))
    return tuple(_result(value, index, tensor, allow_unused, materialize_grads, create_graph)
                 for index, (value, tensor) in enumerate(zip(captured, inputs, strict=True)))


def _result(value, index, tensor, allow_unused, materialize, create_graph):
    if value is None:
        if not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {index} appears to not have been used in "
                "the graph. Set allow_unused=True if this is the desired behavior."
            )
        if not materialize:
            return None
        if isinstance(tensor, GradientEdge):
            raise RuntimeError("materialize_grads cannot be used when the given input is a "
                               "GradientEdge")
        return Tensor._make(np.zeros_like(tensor._data)).requires_grad_(create_graph)
    if isinstance(value, Tensor):
        return value if create_graph else Tensor._make(value._data)
    return Tensor._make(np.array(value, copy=True, subok=True))  # (a bfloat16 one stays so)


@contextlib.contextmanager
def observe(on_step: Callable[[BackwardStep], None],
            on_start: Callable | None = None,
            on_finish: Callable | None = None) -> Iterator[None]:
    """Call ``on_step`` for every node each backward()/grad() executes while the block runs.

    ``on_start``/``on_finish`` receive ``(kind, outputs)`` around each call, where kind is
    ``"backward"`` or ``"grad"``; an ``on_start`` returning False skips that call's steps
    (when no started callback wants them). Steps arrive in execution order, which is torch's.
    """
    registrations = [(Observers.callbacks, on_step), (Observers.backward_started, on_start),
                     (Observers.backward_finished, on_finish)]
    for callbacks, callback in registrations:
        if callback is not None:
            callbacks.append(callback)
    try:
        yield
    finally:
        for callbacks, callback in registrations:
            if callback is not None and callback in callbacks:
                callbacks.remove(callback)


__all__ += ["AccumulateGrad", "graph"]


ACCUMULATE_RULE = "AccumulateGrad: leaf.grad = leaf.grad + grad"


def describe_rule(node_name: str) -> str | None:
    """The derivative rule a backward node of this name applies, as the table states it."""
    if node_name == "AccumulateGrad":
        return ACCUMULATE_RULE
    from .._rules import TABLE

    for rule in TABLE:
        if rule.node_name == node_name:
            return rule.describe()
    return None

# torch.autograd.functional and torch.autograd.forward_ad, there after import torch
from . import forward_ad, functional  # noqa: E402, F401
from .function import Function  # noqa: E402
from .gradcheck import gradcheck, gradgradcheck  # noqa: E402

__all__ += ["Function", "Variable", "gradcheck", "gradgradcheck"]


class _VariableType(type):
    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor)  # every tensor is a Variable, as in torch


class Variable(metaclass=_VariableType):
    """The old wrapper: ``Variable(t, requires_grad=True)`` is a new leaf sharing t's data."""

    def __new__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        from .._tensor import shared_counter

        result = Tensor._make(data._data, None, shared_counter(data))
        return result.requires_grad_(True) if requires_grad else result

# What the engine lacks, said with torch's module name and what to do.
_lacking = missing_attribute("torch.autograd")


def __getattr__(name: str):
    """``torch.autograd.profiler``, loaded on first use; what the engine lacks, said."""
    if name == "profiler":
        import importlib

        return importlib.import_module(f"{__name__}.profiler")
    return _lacking(name)
