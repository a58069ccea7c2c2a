"""torch.func against torch run here, where the function closes over a tensor that requires
grad (a model's parameter): grad, vjp, jvp, jacrev and jacfwd then give results that stay
differentiable in it, with torch's nodes and gradients (the engine dropped their graph, so a
loss built on them had no gradient for the parameter); and ``torch.func.linearize``, with its
tangent checks in torch's words."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import torch
from torch.func import grad, grad_and_value, jacfwd, jacrev, jvp, linearize, vjp
x = torch.tensor([0.5, 1.0, 2.0])
w = torch.tensor([1.0, -0.5, 2.0], requires_grad=True)
f = lambda t: (t * w).tanh()
print(jvp(f, (x,), (x,)))
print(vjp(f, x)[0], vjp(f, x)[1](torch.ones(3)))
print(grad_and_value(lambda t: f(t).sum())(x))
print(jacrev(f)(x).grad_fn.name(), jacfwd(f)(x).grad_fn.name())
for name, result in (("grad", grad(lambda t: f(t).sum())(x)), ("jvp", jvp(f, (x,), (x,))[1]),
                     ("jacrev", jacrev(f)(x)), ("jacfwd", jacfwd(f)(x)),
                     ("vjp", vjp(f, x)[1](x)[0])):
    w.grad = None
    (result * torch.arange(1.0, result.numel() + 1).reshape(result.shape)).sum().backward()
    print(name, w.grad)
xs = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
print(jvp(torch.sin, (xs,), (torch.ones(3),)))
print(vjp(torch.sin, xs)[0], grad_and_value(lambda t: t.sin().sum())(xs))
print(jvp(torch.sin, (x,), (torch.ones(3),)), grad(lambda t: t.sin().sum())(x))

out, jvp_fn = linearize(torch.sin, x)
print(out, jvp_fn(torch.ones(3)), jvp_fn(torch.tensor([1.0, 0.0, 2.0])))
def two(a, b):
    return (a * b).exp(), a.sum()
out, jvp_fn = linearize(two, x, torch.tensor([1.0, -1.0, 0.5]))
print(out, jvp_fn(torch.ones(3), torch.zeros(3)))
out, jvp_fn = linearize(f, x)
print(out, jvp_fn(x))
for tangents in ((torch.ones(2),), (torch.ones(3), torch.ones(3)),
                 (torch.ones(3, dtype=torch.float64),)):
    try:
        jvp_fn(*tangents)
    except RuntimeError as error:
        print(error)
'''


def test_transforms_keep_the_outer_graph_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
