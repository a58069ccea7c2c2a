"""torch.autograd.grad's newer forms against torch run here: inputs given as a dict (the
gradients come back under its keys), as GradientEdges (get_gradient_edge: a non-leaf's node,
a leaf's AccumulateGrad, the second output of a node with several) and outputs given as one;
materialize_grads' zeros (requiring grad under create_graph), only_inputs' FutureWarning and
torch's refusals; torch.autograd.graph.increment_version; set_multithreading_enabled; and
torch.autograd.grad_mode."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import collections
import torch
from torch.autograd.graph import GradientEdge, get_gradient_edge
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * w
z = y.exp().sum()
print(torch.autograd.grad(z, {"x": x, "w": w}, retain_graph=True))
for bad in ((), [], collections.OrderedDict(x=x)):
    try:
        torch.autograd.grad(z, bad, retain_graph=True)
    except (RuntimeError, TypeError) as error:
        print(type(error).__name__, error)
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.autograd.grad(z, x, retain_graph=True, only_inputs=False))
print([str(w.message) for w in caught])
unused = torch.ones(2, requires_grad=True)
g = torch.autograd.grad(z, [x, unused], retain_graph=True, materialize_grads=True)
print(g, g[1].requires_grad)
g = torch.autograd.grad(z, [x, unused], retain_graph=True, materialize_grads=True,
                        create_graph=True)
print(g[1], g[1].requires_grad)
edge = get_gradient_edge(y)
print(type(edge).__name__, edge.node.name(), edge.output_nr, edge.ownership_token, len(edge))
print(torch.autograd.grad(z, edge, retain_graph=True))
print(torch.autograd.grad(z, [get_gradient_edge(x), w], retain_graph=True))
leaf_edge = get_gradient_edge(x)
print(leaf_edge.node.name(), leaf_edge.node.variable is x)
print(torch.autograd.grad(edge, x, torch.ones(3), retain_graph=True))
a, b = torch.stack([x, w]).unbind()
loss = (a * 3).sum() + (b * b).sum()
print(torch.autograd.grad(loss, [get_gradient_edge(b), get_gradient_edge(a)], retain_graph=True))
print(get_gradient_edge(b).output_nr, get_gradient_edge(b).node.name())
try:
    get_gradient_edge(torch.ones(2))
except RuntimeError as error:
    print(error)
try:
    torch.autograd.grad(z, [edge, unused], retain_graph=True, materialize_grads=True)
except RuntimeError as error:
    print(error)
v = torch.ones(2)
print(v._version)
torch.autograd.graph.increment_version(v)
print(v._version)
with torch.autograd.set_multithreading_enabled(False):
    print(torch.autograd.grad((x * x).sum(), x))
print(torch.autograd.grad_mode.no_grad, torch.autograd.grad_mode.set_grad_enabled(True))
with torch.autograd.grad_mode.inference_mode():
    print(torch.is_inference_mode_enabled())
'''


def test_grad_forms_print_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
