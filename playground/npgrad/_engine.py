"""The backward engine: runs a graph's nodes in torch's CPU order (nodes are ``_nodes.py``).

``execute`` is the general executor (hooks, observers, captures for ``grad()``, create_graph);
``_execute_plain`` is the same walk with its hot loop inlined, for the common backward.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

import numpy as np

from . import _formula_kit, _tensor
from ._anomaly import AnomalyMode, checked
from ._bfloat16 import BFloat16Array
from ._complex_nodes import cast_gradient, cast_gradient_tensor
from ._conforming import Unconformed
from ._conforming import conform as _conform
from ._formula_numpy import NUMPY_KIT
from ._formula_tensors import TENSOR_KIT
from ._grad_mode import GradMode
from ._graph_order import ReadyQueue, count_dependencies, heap_pop, heap_push, topological_order
from ._hook_lists import run_post_accumulate_hooks
from ._nodes import (
    FREED_GRAPH_MESSAGE,
    AccumulateGrad,
    GraphRoot,
    Node,
    NodeOutput,
    accumulate_into,
    as_tensor,
    call_tensor_hooks,
    check_versions,
    incoming,
    leaf_hooked,
    release_saved,
    run_post_hooks,
    run_pre_hooks,
    unpack_saved,
)
from ._observing import BackwardStep, Observers, grad_copy, logged  # noqa: F401 - (re-exported)
from ._parallel import FORMULA_OPERATORS, SPLIT_FROM
from ._parallel import apply as split_ufunc


def _kit(as_tensors: bool) -> _formula_kit.Kit:
    """The array functions formulas run on: tensors (recorded) under create_graph, else arrays."""
    return TENSOR_KIT if as_tensors else NUMPY_KIT


def _apply_function(node: Node, grad, as_tensors: bool, saved=None) -> tuple:
    """Run one rule-driven node: one formula per input that needs a gradient.

    ``saved`` is given by a caller that has already unpacked (and maybe released) it.
    """
    if node.custom:
        return node.run_backward(grad, as_tensors)
    rule = node.rule
    if saved is None:
        saved = unpack_saved(node, as_tensors) if rule.saves else ()
    kit = _kit(as_tensors)
    outputs = []
    formulas = rule.graph_formulas if as_tensors else \
        rule.split_formulas if _large(grad) else rule.formulas
    if rule.variadic:
        formula = formulas[0]
        for position, next_node in enumerate(node._next):
            outputs.append(None if next_node is None else formula(kit, grad, saved, position))
        return tuple(outputs)
    for next_node, formula in zip(node._next, formulas, strict=False):
        outputs.append(None if next_node is None else formula(kit, grad, saved))
    return tuple(outputs)


def _large(grad) -> bool:
    """An array gradient big enough for the formulas that split their arithmetic."""
    return grad.__class__ is np.ndarray and grad.size >= SPLIT_FROM


def execute(
    root: Node,
    root_grad,
    *,
    keep_graph: bool,
    create_graph: bool,
    captures: dict[Node, list[int]] | None = None,
    needed: set[Node] | None = None,
    accumulate: bool = True,
    observed: bool | list = True,
) -> list:
    """Run backward from ``root``; returns the gradients captured at ``captures`` nodes.
    Observers hear of each node unless the call is not ``observed``. Calls from several
    threads take turns: gradients accumulate into shared leaves (and the inlined loop keeps
    its state on the nodes), as torch's accumulation locks each leaf."""
    with _ONE_AT_A_TIME:
        return _execute(root, root_grad, keep_graph=keep_graph, create_graph=create_graph,
                        captures=captures, needed=needed, accumulate=accumulate,
                        observed=observed)


_ONE_AT_A_TIME = threading.RLock()  # re-entered by a hook calling backward


def _execute(root: Node, root_grad, *, keep_graph: bool, create_graph: bool,
             captures: dict[Node, list[int]] | None, needed: set[Node] | None,
             accumulate: bool, observed: bool | list) -> list:
    # ``observed``: True (observers hear of each step), False, or a list, the log of a call
    # the plain loop can run (its steps written there, cheaply); else observers hear
    log = observed if observed.__class__ is list else None
    observers = Observers.callbacks if observed is True else []
    if (not create_graph and captures is None and accumulate and not observers
            and not PlainBackward.running and not AnomalyMode.enabled):
        previous_mode = GradMode.enabled
        GradMode.enabled = False
        PlainBackward.running = True
        try:
            _execute_plain(root, root_grad, keep_graph, log)
        finally:
            GradMode.enabled = previous_mode
            PlainBackward.running = False
        return []
    if log is not None:  # a call the plain loop cannot run: observers hear of its steps
        observers = Observers.callbacks
    dependencies = count_dependencies(root)
    buffers: dict[Node, Any] = {root: root_grad}
    queue = ReadyQueue()
    queue.push(root)
    captured: list = [None] * (1 + max((i for idx in (captures or {}).values() for i in idx),
                                       default=-1))
    # Nodes that must be reached: those that run, plus those only captured (torch's exec_info).
    reached = None if needed is None else needed | set(captures or ())
    previous_mode = GradMode.enabled
    GradMode.enabled = create_graph
    try:
        while queue:
            node = queue.pop()
            grad = buffers.pop(node)
            if type(node) is GraphRoot:
                outputs = tuple(node.grads)
            else:
                if node._hooks is not None:
                    grad = run_pre_hooks(node, grad, create_graph)
                if captures is not None:
                    hooked = grad if node in needed else leaf_hooked(node, grad, create_graph)
                    for index in captures.get(node, ()):
                        captured[index] = hooked
                    if node not in needed:
                        continue
                if AnomalyMode.enabled:
                    outputs = checked(_execute_node, node, grad, create_graph, accumulate,
                                      observers)
                else:
                    outputs = _execute_node(node, grad, create_graph, accumulate, observers)
                if not keep_graph:
                    release_saved(node)
            _propagate(node, outputs, dependencies, buffers, queue, reached, create_graph)
    finally:
        GradMode.enabled = previous_mode
    return captured


class PlainBackward:
    """Whether the inlined loop is running: a backward started from inside it (a hook calling
    backward) takes the general path, because the loop keeps its state on the nodes."""

    running = False


def _prepare_plain(root: Node) -> None:
    """Count each reachable node's incoming edges into ``_deps`` and clear its ``_pending``.

    Written out per slot rather than looping over ``_next``: this runs once per node per
    backward, and the loop's temporary tuple costs a third of it.
    """
    root._pending = None
    stack = [root]
    while stack:
        node = stack.pop()
        arity = node.arity
        if arity < 0:
            for next_node in node._nx:
                if next_node is not None:
                    _count_edge(next_node, stack)
            continue
        if arity == 2:
            next_node = node._n1
            if next_node is not None:
                _count_edge(next_node, stack)
        if arity:
            next_node = node._n0
            if next_node is not None:
                # _count_edge, inlined for the one edge most nodes have.
                deps = next_node._deps
                if deps:
                    next_node._deps = deps + 1
                else:
                    next_node._deps = 1
                    next_node._pending = None
                    stack.append(next_node)


def _count_edge(next_node: Node, stack: list) -> None:
    deps = next_node._deps
    if deps:
        next_node._deps = deps + 1
    else:
        next_node._deps = 1
        next_node._pending = None
        stack.append(next_node)


def _execute_plain(root: Node, root_grad, keep_graph: bool, log: list | None = None) -> None:
    """The common backward (arrays, no observers, no captures), with its hot loop inlined.

    It must do exactly what ``execute`` does, and the tests run both against torch. Its state
    lives on the nodes (``_deps``, ``_pending``) instead of in dicts: attribute access is what
    makes this loop fast enough to beat torch's per-op overhead. With a ``log`` it writes each
    step there as ``(node, incoming, outgoing[, leaf grad before, after])``, the arrays
    themselves: the log's references keep the engine from adding into them in place or
    taking them as a leaf's .grad, so they stay as they were (the leaf's are copies); a step's
    outgoing gradients are logged as the formulas gave them (``logged_outgoing`` reads them).
    """
    _prepare_plain(root)
    root._pending = root_grad
    ready = [root]
    kit = NUMPY_KIT
    release = not keep_graph
    split_from = SPLIT_FROM
    bfloat16_values = BFloat16Array  # (a local: read on every edge)
    node = grad = None
    try:
        while ready:
            node = ready.pop() if len(ready) == 1 else heap_pop(ready)
            grad = node._pending
            node._pending = None
            node._deps = None
            if node._hooks is not None or not node.plain:
                edges, outputs = _special_step(node, grad, release, log)
                exact = False
            else:
                exact = node._exact
                saved = node._saved
                if saved is None:
                    raise RuntimeError(FREED_GRAPH_MESSAGE)
                checks = node._versions
                if checks:
                    if checks[1] != checks[2] or (
                            len(checks) > 3 and (len(checks) > 6 or checks[4] != checks[5])):
                        check_versions(node)
                    if release:
                        node._saved = None
                elif release and saved and node.rule.releases:
                    node._saved = None
                arity = node.arity
                formulas = node.formulas if grad.size < split_from else node.rule.split_formulas
                if arity == 1:
                    edges = (node._n0,)
                    outputs = (formulas[0](kit, grad, saved),)
                elif arity == 2:
                    first = node._n0
                    second = node._n1
                    edges = (first, second)
                    outputs = (None if first is None else formulas[0](kit, grad, saved),
                               None if second is None else formulas[1](kit, grad, saved))
                else:  # saved may be released already: pass the values unpacked above
                    edges = node._nx
                    outputs = _apply_function(node, grad, False, saved)
                if log is not None:  # raw: most logged calls are let go unread
                    log.append((node, grad, outputs if exact else Unconformed(edges, outputs)))
            for next_node, out in zip(edges, outputs, strict=True):
                if next_node is None:
                    continue
                if out is None:
                    _give_undefined(next_node, ready)
                    continue
                if not exact and (out.shape != next_node._shape
                                  or out.dtype != next_node._np_dtype
                                  or out.__class__ is bfloat16_values):
                    out = _conform(out, next_node)
                existing = next_node._pending
                if existing is None:
                    next_node._pending = out
                elif existing.size > _IN_PLACE_MIN_SIZE and _exclusively_pending(existing):
                    split_ufunc(np.add, existing, out, out=existing)
                else:
                    next_node._pending = add(existing, out)
                remaining = next_node._deps - 1
                next_node._deps = remaining
                if remaining == 0:
                    if ready:
                        heap_push(ready, next_node)
                    else:
                        ready.append(next_node)
            # Names left holding a gradient would keep AccumulateGrad from taking it as .grad
            # (it takes an array only the engine references, as torch does) and copy it.
            outputs = out = existing = None
    except BaseException:
        _clear_plain_state(root)
        if log is not None and node is not None and (not log or log[-1][0] is not node):
            log.append((node, grad, ()))  # where it failed: the node got its gradient
        raise


def _special_step(node: Node, grad, release: bool, log: list | None = None) -> tuple:
    """AccumulateGrad, GraphRoot and nodes with hooks: the general code, one node at a time."""
    if type(node) is GraphRoot:
        return node._nx, node.grads
    leaf = node.variable if type(node) is AccumulateGrad else None
    if leaf is not None and node._hooks is None and not leaf._hooks:
        before = None if log is None else grad_copy(leaf)
        if leaf._grad is None and log is None and _stealable(grad) and \
                leaf._data.flags.c_contiguous:
            # Like torch, keep the incoming array itself as .grad when nothing else sees it
            # (a log sees it: the step logged into the leaf shows it, unchanged by later
            # writes to .grad).
            leaf._grad = _tensor.Tensor._make(grad)
        else:
            accumulate_into(leaf, grad, False)
        if log is not None:
            log.append((node, grad, (), before, grad_copy(leaf)))
        return (), ()
    if node._hooks is not None:
        grad = run_pre_hooks(node, grad, False)
    # the general code tells a logged step as it tells observers (after the hooks)
    told = () if log is None else (lambda step: log.append(logged(step)),)
    outputs = _execute_node(node, grad, False, True, told)
    if release:
        release_saved(node)
    return node._next, outputs


def _conform_value(out, next_node: Node | None, as_tensors: bool):
    if out is None or next_node is None:
        return out
    if not as_tensors:
        if out.shape != next_node._shape or out.dtype != next_node._np_dtype or \
                out.__class__ is BFloat16Array:
            return _conform(out, next_node)
        return out
    if tuple(out.shape) != next_node._shape:
        out = TENSOR_KIT.sum_to(out, next_node._shape)
    if out._data.dtype != next_node._np_dtype or out._data.__class__ is BFloat16Array:
        out = cast_gradient_tensor(out, next_node._np_dtype)
    return out


def _give_undefined(next_node: Node, ready: list) -> None:
    """An undefined gradient still counts as arrived; a node that got only those is skipped."""
    stack = [next_node]
    while stack:
        node = stack.pop()
        remaining = node._deps - 1
        node._deps = remaining
        if remaining:
            continue
        if node._pending is not None:
            if ready:
                heap_push(ready, node)
            else:
                ready.append(node)
            continue
        node._deps = None
        stack.extend(after for after in node._next if after is not None)


def _clear_plain_state(root: Node) -> None:
    """After an error, drop the gradients left waiting on nodes (they would pin memory)."""
    for node in topological_order(root):
        node._pending = None
        node._deps = None


# Summing into a gradient buffer in place saves an allocation, which matters only for big arrays.
_IN_PLACE_MIN_SIZE = 1 << 14
# pending + incoming, split between the cores for large arrays
add = FORMULA_OPERATORS["_split_add"]
# References to a pending gradient when only the node holds it: the node's slot, the local name
# in the loop, this function's argument and getrefcount's own (torch checks use_count() alike).
_BUFFER_ONLY_REFERENCES = 4


def _stealable(array) -> bool:
    """Whether a gradient reaching AccumulateGrad is referenced only by the engine's frames
    (the loop's name, _special_step's argument, this argument, getrefcount's own)."""
    return (array.__class__ is np.ndarray and array.base is None and array.flags.writeable
            and array.flags.c_contiguous and sys.getrefcount(array) <= 4)


def _exclusively_pending(array: np.ndarray) -> bool:
    """Whether nothing but the waiting node sees this array, so adding in place is safe (a
    sparse gradient's rows are joined, not added: _sparse_grads.py)."""
    return (array.__class__ is np.ndarray and array.base is None and array.flags.writeable
            and sys.getrefcount(array) <= _BUFFER_ONLY_REFERENCES)


def _execute_node(node: Node, grad, as_tensors: bool, accumulate: bool, observers: list) -> tuple:
    if type(node) is AccumulateGrad:
        leaf = node.variable
        if leaf._hooks:
            grad = call_tensor_hooks(leaf._hooks, grad, as_tensors)
        before = leaf._grad.clone() if observers and leaf._grad is not None else None
        if accumulate:
            accumulate_into(leaf, grad, as_tensors)
            if leaf._hooks:
                run_post_accumulate_hooks(leaf)
        for hook in list(node._hooks.post if node._hooks else ()):
            hook((), (as_tensor(grad),))
        if observers:
            step = BackwardStep(node, (as_tensor(grad),), (), before,
                                leaf._grad.clone() if leaf._grad is not None else None)
            for callback in list(observers):
                callback(step)
        return ()
    if type(node) is NodeOutput:  # not a step of its own: torch's node has several inputs
        return node.pass_on(grad)
    try:
        outputs = _apply_function(node, grad, as_tensors)
    except Exception:
        # freed or modified saved values: observers still hear where it failed, as torch's
        # hooks do (the step got its gradient and sent nothing on)
        if observers:
            step = BackwardStep(node, incoming(grad), ())
            for callback in list(observers):
                callback(step)
        raise
    if not node._exact:
        # As torch validates outputs before post hooks: hooks and observers see each gradient
        # already reduced to its input's shape and cast to its dtype.
        outputs = tuple(_conform_value(out, next_node, as_tensors)
                        for next_node, out in zip(node._next, outputs, strict=False))
    if node._hooks is not None and node._hooks.post:
        outputs = run_post_hooks(node, grad, outputs, as_tensors)
    if observers:
        step = BackwardStep(node, incoming(grad), tuple(as_tensor(g) for g in outputs))
        for callback in list(observers):
            callback(step)
    return outputs


def _propagate(node, outputs, dependencies, buffers, queue, reached, as_tensors: bool) -> None:
    """Hand each output gradient to the next node; queue the nodes whose inputs are complete."""
    for next_node, grad in zip(node._next, outputs, strict=False):
        if next_node is None:
            continue
        remaining = dependencies[next_node] - 1
        dependencies[next_node] = remaining
        if reached is not None and next_node not in reached:
            continue
        if grad is not None:
            if grad.shape != next_node._shape:
                grad = _kit(as_tensors).sum_to(grad, next_node._shape)
            if not as_tensors and (grad.dtype != next_node._np_dtype
                                   or grad.__class__ is BFloat16Array):
                grad = cast_gradient(grad, next_node._np_dtype)
            elif as_tensors and (grad._data.dtype != next_node._np_dtype
                                 or grad._data.__class__ is BFloat16Array):
                grad = cast_gradient_tensor(grad, next_node._np_dtype)
            existing = buffers.get(next_node)
            buffers[next_node] = grad if existing is None else existing + grad
        elif next_node not in buffers:
            buffers[next_node] = None
        if remaining == 0:
            if buffers.get(next_node) is None:
                # torch skips a node whose every incoming gradient is undefined.
                buffers.pop(next_node, None)
                _skip_undefined(next_node, dependencies, buffers, queue, reached)
                continue
            queue.push(next_node)


def _skip_undefined(node, dependencies, buffers, queue, reached) -> None:
    """A node that received no gradient at all still releases its dependents' counts."""
    stack = [node]
    while stack:
        current = stack.pop()
        for next_node in current._next:
            if next_node is None:
                continue
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                if buffers.get(next_node) is None:
                    buffers.pop(next_node, None)
                    stack.append(next_node)
                elif reached is None or next_node in reached:
                    queue.push(next_node)
