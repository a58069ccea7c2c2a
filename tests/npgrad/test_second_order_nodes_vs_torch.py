"""The graph a create_graph backward leaves, as torch names its nodes, and the derivative
through it: a gradient penalty or a PINN draws these graphs. Each script printed by python
with real torch and by ``playground run``."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """import torch
import torch.nn.functional as F

torch.manual_seed(0)
functions = {
    "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": F.relu,
    "leaky_relu": lambda x: F.leaky_relu(x, 0.1), "softplus": F.softplus,
    "log_sigmoid": F.logsigmoid,
    "max_pool": lambda x: F.max_pool1d(x.unsqueeze(0), 2),
    "relu through a layer": lambda x: F.relu(x @ torch.ones(3, 2, dtype=x.dtype)),
}


def names(tensor):
    found, waiting, seen = set(), [tensor.grad_fn], set()
    while waiting:
        node = waiting.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        found.add(node.name())
        waiting += [next_node for next_node, _ in node.next_functions]
    return sorted(found)


for dtype in (torch.float32, torch.float64):
    for name, function in functions.items():
        x = (torch.randn(2, 3, dtype=dtype) * 2).requires_grad_()
        (first,) = torch.autograd.grad(function(x).sum(), x, create_graph=True)
        (second,) = torch.autograd.grad((first * first).sum(), x, create_graph=True)
        print(name, names(first), first.requires_grad, second)
"""


def test_second_derivative_graphs_name_torchs_nodes(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
