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
    "softmax": lambda x: F.softmax(x, -1) * torch.arange(3, dtype=x.dtype),
    "log_softmax": lambda x: F.log_softmax(x, 0) * torch.arange(3, dtype=x.dtype),
    "mse": lambda x: F.mse_loss(x, torch.ones_like(x)),
    "nll": lambda x: F.nll_loss(F.log_softmax(x, -1), torch.tensor([0, 2])),
    "cross_entropy": lambda x: F.cross_entropy(x, torch.tensor([1, 2]), reduction="sum"),
    "abs": lambda x: x.abs() * x, "softsign": F.softsign, "silu": F.silu,
    "sqrt": lambda x: (x * x + 1).sqrt(), "atan": torch.atan, "norm": lambda x: x.norm(),
    "var": lambda x: x.var(), "std along a dim": lambda x: x.std(1, keepdim=True),
    "smooth_l1": lambda x: F.smooth_l1_loss(x, torch.ones_like(x)),
    "huber": lambda x: F.huber_loss(x, torch.zeros_like(x), reduction="sum"),
    "bce": lambda x: F.binary_cross_entropy(x.sigmoid(), torch.full_like(x, 0.3)),
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


# The gradients' own nodes differentiated for every input they have: the gradient flowing in
# (``grad_outputs`` that require grad), the input, mse's target; each reduction.
THROUGH_EVERY_INPUT = """import torch
import torch.nn.functional as F

torch.manual_seed(1)


def show(name, loss_of, x, *others):
    out = loss_of(x, *others)
    v = torch.rand_like(out).requires_grad_()
    grads = torch.autograd.grad(out, (x, *others), v, create_graph=True)
    total = sum((g * torch.linspace(-1, 1, g.numel(), dtype=g.dtype).view_as(g)).sum()
                for g in grads)
    wrt = torch.autograd.grad(total, (x, v, *others), allow_unused=True)
    print(name, grads[0].grad_fn.name(), [None if g is None else g.round(decimals=5)
                                          for g in wrt])


for dtype in (torch.float32, torch.float64):
    x = torch.randn(3, 4, dtype=dtype, requires_grad=True)
    target = torch.randn(3, 4, dtype=dtype, requires_grad=True)
    labels = torch.tensor([3, 0, 1])
    show("softmax", lambda a: F.softmax(a, 1), x)
    show("log_softmax", lambda a: F.log_softmax(a, 0), x)
    for reduction in ("mean", "sum", "none"):
        show(f"mse {reduction}", lambda a, b: F.mse_loss(a, b, reduction=reduction), x, target)
        show(f"smooth_l1 {reduction}", lambda a, b: F.smooth_l1_loss(
            a, b, reduction=reduction, beta=0.7), x, target)
        show(f"huber {reduction}", lambda a, b: F.huber_loss(
            a, b, reduction=reduction, delta=0.8), x, target)
        show(f"bce {reduction}", lambda a, b: F.binary_cross_entropy(
            a.sigmoid(), b.sigmoid(), reduction=reduction), x, target)
        show(f"bce_with_logits {reduction}", lambda a: F.binary_cross_entropy_with_logits(
            a, target.detach().sigmoid(), reduction=reduction), x)
        show(f"nll {reduction}", lambda a: F.nll_loss(a, labels, reduction=reduction), x)
        show(f"cross_entropy {reduction}", lambda a: F.cross_entropy(
            a, labels, weight=torch.tensor([1.0, 2.0, 0.5, 1.0], dtype=dtype),
            reduction=reduction), x)
"""


def test_second_derivatives_through_every_input_of_the_gradients_nodes(tmp_path):
    assert_playground_prints_as_torch(THROUGH_EVERY_INPUT, tmp_path)


# binary cross entropy with a weight, a pos_weight or both (BCEWithLogitsLoss's), their
# losses' last bits (the weighted sum printed whole), the gradients and their derivatives
WEIGHTED = THROUGH_EVERY_INPUT.split("for dtype in")[0].replace("decimals=5", "decimals=4") + """
for dtype in (torch.float32, torch.float64):
    x = torch.randn(3, 4, dtype=dtype).requires_grad_()
    target = torch.rand(3, 4, dtype=dtype).requires_grad_()
    weight = torch.rand(4, dtype=dtype) + 0.5
    pos = torch.tensor([1.0, 2.0, 3.0, 0.5], dtype=dtype)
    for reduction in ("mean", "sum", "none"):
        print(F.binary_cross_entropy_with_logits(x, target, weight, reduction=reduction,
                                                 pos_weight=pos).sum().item())
        show(f"bce weight {reduction}", lambda a, b: F.binary_cross_entropy(
            a.sigmoid(), b, weight=weight, reduction=reduction), x, target)
        show(f"logits pos_weight {reduction}", lambda a, b: F.binary_cross_entropy_with_logits(
            a, b, pos_weight=pos, reduction=reduction), x, target)
        show(f"logits both {reduction}", lambda a, b: torch.nn.BCEWithLogitsLoss(
            weight=weight, pos_weight=pos, reduction=reduction)(a, b), x, target)
print(torch.nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)).state_dict(),
      torch.nn.BCELoss(weight=torch.ones(2)).state_dict(), torch.nn.BCELoss().state_dict())
"""


def test_weighted_binary_cross_entropy_is_torchs(tmp_path):
    assert_playground_prints_as_torch(WEIGHTED, tmp_path)
