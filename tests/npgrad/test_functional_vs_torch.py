"""torch.func, torch.autograd.functional and torch.utils.data: npgrad prints what torch prints."""

from __future__ import annotations

import pytest

from tests.oracle import run_printing

_SETUP = """
W = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], dtype=DTYPE)
x = torch.tensor([1., 2., 3.], dtype=DTYPE)
v = torch.tensor([0.5, -0.25], dtype=DTYPE)
net = lambda v: torch.tanh(W @ v)
scalar = lambda x: (x.sin() * x).sum()
"""

SCRIPTS = {
    "func: grad, argnums, has_aux, attached inputs": """
from torch.func import grad, grad_and_value
print(grad(scalar)(x))
print(grad(scalar)(x.clone().requires_grad_()))
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x))
print(grad(lambda a: ((a * a).sum(), a.mean()), has_aux=True)(x))
print(grad_and_value(scalar)(x))
print(grad(lambda a, b: (a * 2).sum())(x, x))
try:
    grad(torch.sin)(x)
except RuntimeError as error:
    print(error)
""",
    "func: vjp, jvp, jacrev, jacfwd, hessian": """
from torch.func import hessian, jacfwd, jacrev, jvp, vjp
print(jacrev(torch.sin)(x))
print(jacfwd(torch.sin)(x))
print(hessian(scalar)(x))
print(jvp(torch.sin, (x,), (torch.ones(3, dtype=DTYPE),)))
out, pull = vjp(torch.sin, x)
print(out, pull(torch.ones(3, dtype=DTYPE)))
print(jacrev(net)(v))
print(jacfwd(net)(v))
print(jacrev(lambda a, b: a * b, argnums=(0, 1))(x, x))
""",
    "func: vmap over vjp and grad, in_dims": """
from torch.func import grad, vjp, vmap
print(vmap(torch.dot)(torch.ones(2, 3, dtype=DTYPE), torch.ones(2, 3, dtype=DTYPE)))
_, pull = vjp(net, v)
print(vmap(pull)(torch.eye(3, dtype=DTYPE)))
print(vmap(grad(lambda v: net(v).sum()))(torch.stack([v, v * 2])))
print(vmap(lambda a, b: a * b, in_dims=(0, None))(torch.ones(2, 3, dtype=DTYPE), x))
print(vmap(lambda a: (a.sum(), a * 2), out_dims=(0, 1))(torch.ones(2, 3, dtype=DTYPE)))
""",
    "func: vmap's graph is the batched call's, and gradients flow through it": """
from torch.func import grad, vmap
def names(fn, depth=0):
    # (each node once: a node two ops share appears under both)
    if fn is None or depth > 4:
        return []
    below = [n for f, _ in fn.next_functions for n in names(f, depth + 1)]
    return [depth * " " + fn.name()] + below
X = torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], dtype=DTYPE, requires_grad=True)
w = torch.tensor([0.25, -0.5, 2.], dtype=DTYPE, requires_grad=True)
cases = [vmap(lambda a: (a * w).sin())(X), vmap(lambda a: (a * w).sum())(X),
         vmap(lambda a: (a - w).pow(2).mean())(X), vmap(lambda a: a * 3, out_dims=1)(X),
         vmap(lambda a: (a + w).exp(), in_dims=1)(X.t().contiguous())]
for out in cases:
    print(out.shape, out.grad_fn.name(), names(out.grad_fn))
    X.grad = w.grad = None
    (out * out).sum().backward()
    print(X.grad, w.grad)
pair = vmap(lambda a: (a * w, (a * w).tanh()))(X)
print([p.grad_fn for p in pair])
(pair[0].sum() + pair[1].sum()).backward()
print(X.grad, w.grad)
t = torch.tensor([1., -1.], dtype=DTYPE)
per_sample = vmap(grad(lambda w, e, t: ((e.dot(w).relu() - t) ** 2).mean()),
                  in_dims=(None, 0, 0))(w, X, t)
print(per_sample)
X.grad = w.grad = None
per_sample.pow(2).sum().backward()
print(X.grad, w.grad)
out = vmap(lambda a: (a * a).sum())(X)
out.sum().backward()
try:
    out.sum().backward()
except RuntimeError as error:
    print(error)
print(vmap(lambda a: a.detach() * 2)(X).grad_fn)
""",
    "func: vmap's randomness modes and in_dims that follow the inputs": """
import torch.nn.functional as F
from torch.func import vmap
x = torch.ones(3, 4, dtype=DTYPE)
for f in (lambda: vmap(lambda a: torch.dropout(a, 0.5, True))(x),
          lambda: vmap(lambda a: a + torch.randn(4))(x),
          lambda: vmap(lambda a: a, randomness='sometimes')(x)):
    try:
        f()
    except RuntimeError as e:
        print(e)
torch.manual_seed(0)
print(vmap(lambda a: a + torch.randn(4), randomness='same')(x), torch.randn(2))
torch.manual_seed(0)
print(vmap(lambda a: a + torch.rand(2), randomness='same')(x[:, :2]), torch.rand(1))
print(vmap(lambda a: F.dropout(a, 0.0))(x).shape,
      vmap(lambda a: F.dropout(a, 0.5, training=False))(x).shape)
def fd(d):
    return d['a'] * 2 + d['b']
print(vmap(fd, in_dims=({'a': 0, 'b': None},))({'a': x[:, :2], 'b': x[0, :2]}))
print(vmap(lambda p, q: p[0] * q, in_dims=((0, None), 1))((x[:, :2], x[0, :2]),
                                                          torch.arange(6.).view(2, 3)))
""",
    "func: functional_call on a module": """
from torch.func import functional_call, grad
model = torch.nn.Linear(2, 1)
params = {"weight": torch.tensor([[1., -1.]], dtype=DTYPE),
          "bias": torch.tensor([0.5], dtype=DTYPE)}
model = model.to(DTYPE)
print(functional_call(model, params, (v,)))
loss = lambda p, v: functional_call(model, p, (v,)).sum()
print(grad(loss)(params, v))
""",
    "autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp": """
import torch.autograd.functional as AF
print(AF.jacobian(torch.sin, x))
print(AF.jacobian(lambda a, b: a * b, (x, x)))
print(AF.hessian(scalar, x))
print(AF.vjp(scalar, x))
print(AF.jvp(torch.sin, x, torch.ones(3, dtype=DTYPE)))
print(AF.hvp(scalar, x, torch.ones(3, dtype=DTYPE)))
print(AF.vhp(scalar, x, torch.ones(3, dtype=DTYPE)))
print(AF.jacobian(torch.sin, x, create_graph=True))
print(AF.jacobian(net, v))
print(AF.vjp(net, v, torch.ones(3, dtype=DTYPE)))
print(AF.jvp(net, v, torch.ones(2, dtype=DTYPE)))
print(AF.hessian(lambda a, b: (a * b * b).sum(), (x, x)))
for call in (lambda: AF.vjp(net, v), lambda: AF.jacobian(net, [v]),
             lambda: AF.vjp(net, v, torch.ones(2, dtype=DTYPE)),
             lambda: AF.hessian(net, v)):
    try:
        call()
    except (RuntimeError, TypeError) as error:
        print(type(error).__name__, error)
""",
    "autograd.functional: the forward-mode strategy's lists, views and refusals": """
from torch.autograd.functional import hessian, jacobian
torch.manual_seed(3)
x, y = torch.rand(2, dtype=DTYPE), torch.rand(3, dtype=DTYPE)
def two_in(a, b):
    return a.exp() * 2 + b.sum()
def two_out(a):
    return a.sin(), a * 3
for inputs, f in (((x, y), two_in), (x, two_out), ((x,), two_out), (x, lambda a: a.cos())):
    r = jacobian(f, inputs, vectorize=True, strategy="forward-mode")
    print(type(r).__name__, r)
    print(type(jacobian(f, inputs, vectorize=True)).__name__)
print(hessian(lambda a, b: (a.pow(3).sum() * b.pow(2).sum()), (x, y), vectorize=True,
              outer_jacobian_strategy="forward-mode"))
for kwargs in ({"strategy": "sideways"}, {"strategy": "forward-mode"},
               {"strategy": "forward-mode", "vectorize": True, "create_graph": True},
               {"strategy": "forward-mode", "vectorize": True, "strict": True}):
    try:
        jacobian(two_in, (x, y), **kwargs)
    except Exception as error:
        print(type(error).__name__, error)
try:
    hessian(lambda a: a.sum(), x, outer_jacobian_strategy="up")
except Exception as error:
    print(type(error).__name__, error)
x = torch.rand(2, dtype=DTYPE, requires_grad=True)
for f, given in ((lambda a: a.exp() * 2, x), (lambda a: a.sin() * 2, x),
                 (lambda a: a.exp() * 2, torch.rand(1, requires_grad=True)),
                 (lambda a: a.exp().sum(), torch.rand(3, requires_grad=True)),
                 (lambda a, b: (a * b, a.sum()), (x, torch.rand(2)))):
    r = jacobian(f, given, vectorize=True, strategy="forward-mode")
    print(r)
r = jacobian(lambda a: a.exp() * 2, x, vectorize=True, strategy="forward-mode")
r.sum().backward()
print(x.grad)
h = hessian(lambda a: (a.pow(3).sum()), x.detach(), vectorize=True,
            outer_jacobian_strategy="forward-mode")
print(h, h.grad_fn.next_functions[0][0].name())
""",
    "utils.data: TensorDataset, DataLoader in order, random_split lengths": """
from torch.utils.data import DataLoader, TensorDataset, random_split
data = TensorDataset(torch.arange(10, dtype=DTYPE).reshape(5, 2), torch.arange(5))
print(len(data), data[1])
loader = DataLoader(data, batch_size=2)
print(len(loader))
for xb, yb in loader:
    print(xb, yb)
print(next(iter(DataLoader(data, batch_size=3, drop_last=True))))
print(len(DataLoader(data, batch_size=2, drop_last=True)))
print([len(part) for part in random_split(range(10), [0.5, 0.3, 0.2])])
print([len(part) for part in random_split(range(7), [0.5, 0.5])])
for batch in DataLoader([(1, 2.0), (3, 4.0), (5, 6.0)], batch_size=2):
    print(batch)
try:
    random_split(range(10), [3, 3])
except ValueError as error:
    print(error)
""",
}


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_functional_scripts_print_what_torch_prints(name, dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    code = _SETUP.replace("DTYPE", dtype) + SCRIPTS[name].replace("DTYPE", dtype)
    expected = run_printing(code, torch)
    assert run_printing(code, npgrad) == expected
