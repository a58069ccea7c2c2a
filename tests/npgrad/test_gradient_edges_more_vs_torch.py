"""Gradients at the edges, on npgrad against real torch, run here: var and std without
degrees of freedom (one element, or a correction past the count: torch's inf and NaN, and no
graph for a second derivative; the gradient divided 2.0 by zero in Python), cdist's pairs
that coincide (+0 for both sides, whatever the incoming sign) and its p = 0 (flat)."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import torch

def g(f, *vals, create=False):
    xs = [torch.tensor(v, requires_grad=True) for v in vals]
    out = f(*xs)
    out.sum().backward()
    return [x.grad for x in xs]
show("std one", lambda: g(lambda x: x.std(), [1.]))
show("var one", lambda: g(lambda x: x.var(), [1.]))
show("var dim one", lambda: g(lambda x: x.var(0), [[1., 2.]]))
show("std dim one", lambda: g(lambda x: x.std(1), [[1.], [2.]]))
show("var corr2", lambda: g(lambda x: x.var(correction=2), [1., 3.]))
show("var corr3", lambda: g(lambda x: x.var(correction=3), [1., 3.]))
show("std_mean one", lambda: g(lambda x: torch.std_mean(x)[0], [1.]))
show("var_mean one", lambda: g(lambda x: torch.var_mean(x)[0], [5.]))
x = torch.tensor([2.], requires_grad=True)
show("var double", lambda: torch.autograd.grad(
    torch.autograd.grad(x.var(), x, create_graph=True)[0].sum(), x))
a = torch.tensor([[1., 3.], [2., 2.]])
show("fwd", lambda: (a.var(correction=4), a.var(correction=5), a.std(0, correction=2),
                    a.var(1, correction=2), a.var(1, correction=3, keepdim=True), a[:1].var(0),
                    torch.tensor([[1.]]).std((0, 1))))
show("fwd complex", lambda: torch.tensor([1 + 1j, 2 + 0j]).var(correction=2))
show("fwd f64", lambda: a.double().var(correction=4))
show("grad dims neg", lambda: g(lambda x: x.var(1, correction=3), [[1., 3.], [2., 2.]]))
show("grad std neg", lambda: g(lambda x: x.std(correction=5), [[1., 3.], [2., 2.]]))

for p in (0.0, 1.0, 2.0, float("inf")):
    x = torch.tensor([[1., 1.], [0., 2.]], requires_grad=True)
    y = torch.tensor([[1., 1.], [3., -1.]], requires_grad=True)
    d = torch.cdist(x, y, p=p)
    (d * torch.tensor([[-1., 2.], [1., -3.]])).sum().backward()
    print(p, d, x.grad, y.grad)
"""


def test_gradients_at_the_edges_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
