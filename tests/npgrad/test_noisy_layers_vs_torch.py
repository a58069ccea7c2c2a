"""Layers that draw random numbers, masked writes and NaN-aware extremes on npgrad against
real torch, run here: F.rrelu (training draws from torch's generator, eval, in place),
F.alpha_dropout and F.feature_alpha_dropout and their modules, masked_scatter (in place too)
and fmax/fmin; values, gradients, second derivatives, reprs and torch's refusals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 5, requires_grad=True)
y = x * 1
F.rrelu(y, training=True, inplace=True)
print(y, y.grad_fn.name())
z = F.rrelu(x, training=True)
print(z, z.grad_fn.name())
g, = torch.autograd.grad(z.pow(2).sum(), x, create_graph=True)
print(g, g.grad_fn.name(), torch.autograd.grad(g.sum(), x))
print(torch.nn.RReLU(), torch.nn.AlphaDropout(0.2), torch.nn.FeatureAlphaDropout())
a = F.alpha_dropout(x, 0.3, training=True)
b = torch.randn(2, 3, 2, requires_grad=True)
c = F.feature_alpha_dropout(b, 0.4, training=True)
print(a, c)
(a.sum() + c.sum()).backward()
print(x.grad, b.grad)
print(torch.rrelu(x), torch.rrelu(x, training=True), torch.alpha_dropout(x, 0.5, False) is x)
rrelu = torch.nn.RReLU(0.1, 0.3)
print(rrelu(x))
rrelu.eval()
print(rrelu(x))
dropout = torch.nn.AlphaDropout(0.5)
print(dropout(x))
dropout.eval()
print(dropout(x) is x, F.alpha_dropout(x, 1.0, training=True))
source = torch.randn(12, requires_grad=True)
mask = x.detach() > 0
scattered = x.masked_scatter(mask, source)
scattered.backward(torch.arange(10.0).reshape(2, 5))
print(scattered, x.grad, source.grad)
second, = torch.autograd.grad((x.masked_scatter(mask, source) ** 2).sum(), source,
                              create_graph=True)
print(second.grad_fn.name(), torch.randn(3).masked_scatter_(torch.tensor([True, False, True]),
                                                           torch.tensor([9.0, 8.0])))
p = torch.tensor([1.0, float("nan"), 2.0, 3.0], requires_grad=True)
q = torch.tensor([1.0, 0.0, float("nan"), 4.0], requires_grad=True)
for function in (torch.fmax, torch.fmin):
    p.grad = q.grad = None
    result = function(p, q)
    result.backward(torch.ones(4))
    print(result, p.grad, q.grad)
for bad in ("x.masked_scatter(mask, torch.randn(2))", "x.masked_scatter(mask.int(), source)",
            "x.masked_scatter(mask, source.double())", "F.alpha_dropout(x, 1.5)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_noisy_layers_and_masked_writes_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
