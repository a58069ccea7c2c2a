"""Writes through views and views of written bases, as torch records them: the base's
CopySlices, as_strided views regenerated when their base changed, and the gradients through
both; each script printed by python with real torch and by ``playground run``."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

HEADER = """import torch


def names(*tensors):
    return [None if t.grad_fn is None else type(t.grad_fn).__name__ for t in tensors]


"""

SCRIPTS = {
    "views made under no_grad": """
def attempt(label, action):
    try:
        print(label, action())
    except RuntimeError as error:
        print(label, "RuntimeError:", error)


x = torch.ones(4, requires_grad=True)
y = x * 2
plain = torch.ones(4)
with torch.no_grad():
    v, w, q = x[:2], y[1:], plain[:2]
    pieces = y.split(2)
    made, of_view = (x * 3)[0], v[0]  # (a view of what no_grad made requires no grad)
print(made, of_view, w.view(3))
print(v.requires_grad, v.is_leaf, names(v, w, q), w.requires_grad, q.requires_grad,
      pieces[0].requires_grad, w._base is y)
z = v.sum()
print(names(z), z.grad_fn.next_functions)
z.backward()
print(x.grad, v.grad)
attempt("a leaf's view", lambda: v.mul_(2))
attempt("a view of y", lambda: w.add_(1))
attempt("a piece", lambda: pieces[1].mul_(2))
attempt("a plain base's view, with a tensor that requires grad",
        lambda: q.mul_(torch.ones(2, requires_grad=True)))
attempt("the same with a number", lambda: q.mul_(3))
with torch.no_grad():
    w.mul_(3)
print(y, w.requires_grad)
attempt("read after its base was written", lambda: w.grad_fn)
attempt("used after", lambda: w.sum())
print(w)
with torch.no_grad():
    e = y[1:3]
g, h = e[:1], e.view(2)
print(g.requires_grad, names(g, h))
attempt("a view of it, made with grad", lambda: g.add_(1))
attempt("another", lambda: h.add_(1))
""",
    "a method through a slice": """
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
a = torch.tensor([5., 6.], requires_grad=True)
y = x * 1
v = y[:2]
v.mul_(a)
print(y, v, names(y, v), y.grad_fn.next_functions[1][0] is a.grad_fn)
y.sum().backward()
print(x.grad, a.grad)
""",
    "a view of a view": """
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
a = torch.tensor([5., 6.], requires_grad=True)
z = x.clone()
square = z.view(2, 2)
row = square[0]
row.add_(a)
print(names(z, square, row), row._base is z)
(z * z).sum().backward()
print(x.grad, a.grad)
""",
    "item assignment in a view": """
x = torch.tensor([1., 2., 3., 4.], requires_grad=True, dtype=torch.float64)
a = torch.tensor([5., 6.], requires_grad=True, dtype=torch.float64)
u = x.clone()
t = u.view(2, 2)
t[0] = a
print(names(u, t))
(u * u).sum().backward()
print(x.grad, a.grad)
""",
    "a transposed view and two writes": """
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
a = torch.tensor([5., 6.], requires_grad=True)
u = x * 2
v = u.view(2, 2).t()
v[1] *= a
v.add_(1)
print(u, v, names(u, v))
(u ** 2).sum().backward(retain_graph=True)
print(x.grad, a.grad)
(v * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(x.grad, a.grad)
""",
    "rows filled in a loop": """
k = torch.zeros(3, 4, dtype=torch.float64)
xs = torch.linspace(0, 1, 4, dtype=torch.float64, requires_grad=True)
for i in range(3):
    k[i].copy_(xs * (i + 1))
    k[i, 1:].sin_()
k.sum().backward()
print(names(k), xs.grad)
""",
    "a diagonal": """
torch.manual_seed(0)
m = torch.randn(3, 3, requires_grad=True)
h = m * 1
h.diagonal().exp_()
h.sum().backward()
print(names(h), m.grad)
""",
    "a base without history": """
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.ones(5)
w[::2].mul_(x)
print(names(w), w.requires_grad)
(w * torch.arange(5.)).sum().backward()
print(x.grad)
""",
    "a saved view written later": """
x = torch.tensor([1., 2., 3.], requires_grad=True, dtype=torch.float64)
y = x * 1
view = y[1:3]
product = view * view
view.mul_(2)
try:
    product.sum().backward()
except RuntimeError as error:
    print(str(error)[:100])
""",
    "views of a base written since": """
w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
wt = w.t()
with torch.no_grad():
    w.mul_(2)
print(names(wt))
(wt * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(w.grad)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
front, back = y[:2], y[2:]
y.mul_(2)
print(names(front, back))
(front.sum() + 3 * back.sum()).backward()
print(x.grad)
x.grad = None
y = x * 1
v, overlap = y[:2], y[1:3]
v.add_(x[2:] * 5)
print(names(overlap), overlap)
(overlap * torch.tensor([1., 10.])).sum().backward()
print(x.grad)
z = x.detach() * 1
tail = z[1:]
z.add_(x)
print(names(tail), tail.requires_grad)
tail.sum().backward()
print(x.grad)
""",
}


@pytest.mark.parametrize("name", SCRIPTS)
def test_writes_through_views_and_views_of_written_bases_are_torchs(name, tmp_path):
    assert_playground_prints_as_torch(HEADER + SCRIPTS[name], tmp_path)
