"""Nodes run in torch's order (seen through torch's Node hooks), with the same gradients."""

from __future__ import annotations

import numpy as np
import pytest


def _graph_nodes(roots) -> list:
    """Breadth-first from the roots: a node order both libraries' graphs share."""
    order, seen = [], set()
    queue = [r.grad_fn if r.grad_fn is not None else r.grad_fn for r in roots]
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        queue.extend(next_node for next_node, _ in node.next_functions)
    return order


def _recorder(roots):
    """(record(node, incoming_grads), steps): steps name nodes by their place in the graph."""
    position = {id(n): i for i, n in enumerate(_graph_nodes(roots))}
    steps = []

    def record(node, grads) -> None:
        arrays = [None if g is None else g.detach().numpy().copy() for g in grads]
        steps.append((position[id(node)], node.name(), arrays))

    return record, steps


def _torch_trace(torch, roots, run):
    """torch's execution order, seen through Node pre-hooks on every node of the graph."""
    record, steps = _recorder(roots)
    handles = [node.register_prehook(lambda grads, node=node: record(node, grads))
               for node in _graph_nodes(roots)]
    try:
        run()
    finally:
        for handle in handles:
            handle.remove()
    return steps


def _engine_trace(engine, roots, run):
    """npgrad's execution order, seen through its observer."""
    record, steps = _recorder(roots)
    with engine.autograd.observe(lambda step: record(step.node, step.incoming)):
        run()
    return steps


def _seed_style_weights(m):
    a = m.tensor([4.0])
    weights = [m.tensor([v], requires_grad=True) for v in (2.0, 5.0, 9.0, 7.0)]
    w1, w2, w3, w4 = weights
    loss = 10 - (w3 * (w1 * a) + w4 * (w2 * a))
    return [loss], lambda: loss.backward()


def _affine(m):
    x = m.tensor(3.0, requires_grad=True)
    a = m.tensor(4.0, requires_grad=True)
    b = m.tensor(5.0, requires_grad=True)
    z = a * x + b
    return [z], lambda: z.backward()


def _diamond(m):
    x = m.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y + y.exp() - y.sin() * x).sum()
    return [z], lambda: z.backward()


def _doubling_loop(m):
    x = m.tensor([3.0, 2.0, 1.0], requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    v = m.tensor([0.1, 1.0, 0.0001])
    return [y], lambda: y.backward(v)


def _layers(m):
    rng = np.random.default_rng(3)
    x = m.tensor(rng.normal(size=(4, 3)), dtype=m.float32)
    w1 = m.tensor(rng.normal(size=(3, 5)), dtype=m.float32, requires_grad=True)
    b1 = m.tensor(rng.normal(size=(5,)), dtype=m.float32, requires_grad=True)
    w2 = m.tensor(rng.normal(size=(5, 2)), dtype=m.float32, requires_grad=True)
    hidden = (x @ w1 + b1).relu()
    logits = hidden @ w2
    loss = -logits.log_softmax(dim=1)[:, 0].mean() + (w1 * w1).sum() * 0.01
    return [loss], lambda: loss.backward()


def _shared_leaf_many_uses(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([0.5, -0.5], requires_grad=True)
    parts = [x * w, x + w, (x * x).sigmoid(), m.cat([x, w]).tanh()[:2]]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    out = total.sum()
    return [out], lambda: out.backward()


def _two_roots(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y1 = (x * 3).sum()
    y2 = (x.exp()).sum()
    return [y1, y2], lambda: m.autograd.backward([y1, y2])


def _grad_call(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([3.0, 4.0], requires_grad=True)
    y = ((x * w).exp() + w).sum()
    return [y], lambda: m.autograd.grad(y, [x])


def _many_leaves_at_once(m):
    """Seven AccumulateGrads become ready together: their order is the heap's tie order."""
    leaves = [m.tensor([float(i)], requires_grad=True) for i in range(7)]
    out = (m.stack(leaves) * m.cat(leaves[:3] + leaves[3:]).exp()).sum()
    return [out], lambda: out.backward()


GRAPHS = [_many_leaves_at_once, _seed_style_weights, _affine, _diamond, _doubling_loop, _layers,
          _shared_leaf_many_uses, _two_roots, _grad_call]


@pytest.mark.parametrize("build", GRAPHS, ids=lambda f: f.__name__.strip("_"))
def test_backward_order_and_gradients_match_torch(build, torch, engine):
    torch_roots, torch_run = build(torch)
    engine_roots, engine_run = build(engine)
    expected = _torch_trace(torch, torch_roots, torch_run)
    actual = _engine_trace(engine, engine_roots, engine_run)
    assert [(p, n) for p, n, _ in actual] == [(p, n) for p, n, _ in expected]
    for (_, name, grads), (_, _, torch_grads) in zip(actual, expected, strict=True):
        for grad, torch_grad in zip(grads, torch_grads, strict=True):
            np.testing.assert_allclose(grad, torch_grad, rtol=2e-5, err_msg=name)
