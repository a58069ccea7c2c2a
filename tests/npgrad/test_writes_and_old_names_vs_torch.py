"""Ops that pasted code calls and the engine lacked, against torch run here: torch.addr
(AddrBackward0, its in-place twin, integer and bool operands, beta 0 over NaNs), torch.renorm
(RenormBackward0, its second derivative, its errors), select_scatter, slice_scatter and
diagonal_scatter (their nodes and gradients, also under create_graph; their output laid out in
memory as a dense input is), put and put_ (PutBackward0, accumulate, its errors), polygamma_
(PolygammaBackward1), mvlgamma_ (MvlgammaBackward0), float_power_ (float64 only), and old or
second names: torch.ByteTensor and kin, torch.autograd.inference_mode, nn.utils.clip_grad_norm
(its FutureWarning), nn.RNNBase and RNNCellBase, Tensor.prelu and hardshrink, resolve_neg and
is_neg; torch's _foreach_* ops (their Foreach nodes out of place, the Scalar overloads' nodes in
place, what they return and refuse; a number raised to a list, powsum's one underivable node,
mm); clamps by tensors (ClampBackward0, ClampMinBackward1 and ClampMaxBackward1, with gradients
to the bounds); indexing errors of a 0-dim tensor."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPTS = {
    "addr_and_renorm": r'''
import torch

torch.manual_seed(0)
s = torch.randn(3, 2, requires_grad=True)
v1 = torch.randn(3, requires_grad=True)
v2 = torch.randn(2, requires_grad=True)
y = torch.addr(s, v1, v2, beta=0.5, alpha=2)
print(y, y.grad_fn.name())
y.sum().backward()
print(s.grad, v1.grad, v2.grad)
print(torch.addr(torch.tensor(1.0), v1, v2).shape, s.detach().addr(v1, v2).grad_fn.name())
z = s.detach().clone()
z.addr_(v1.detach(), v2.detach())
print(z)
for bad in [(s, v1, v1), (s, s, v2), (torch.zeros(3, 2, 1), v1, v2)]:
    try:
        torch.addr(*bad)
    except Exception as e:
        print(type(e).__name__, e)
print(
    torch.addr(
        torch.zeros(3, 2, dtype=torch.int64), torch.tensor([1, 2, 3]), torch.tensor([1, 2]), beta=0
    )
)
try:
    torch.addr(
        torch.zeros(3, 2, dtype=torch.int64),
        torch.tensor([1, 2, 3]),
        torch.tensor([1, 2]),
        beta=0.5,
    )
except Exception as e:
    print(type(e).__name__, e)
print(
    torch.addr(
        torch.zeros(3, 2, dtype=torch.bool),
        torch.tensor([True, False, True]),
        torch.tensor([True, True]),
    )
)
print(torch.addr(torch.zeros(3, 2), torch.tensor([1, 2, 3]), torch.tensor([1.0, 2])))
print(torch.addr(torch.full((3, 2), float("nan")), v1, v2, beta=0))
y2 = torch.addr(s, v1, v2, beta=0.5, alpha=2)
g = torch.autograd.grad(y2.pow(2).sum(), (s, v1, v2), create_graph=True)
print(g[1], g[1].grad_fn.name())
x = torch.randn(3, 4, requires_grad=True)
r = torch.renorm(x, p=2, dim=0, maxnorm=1.0)
print(r, r.grad_fn.name())
r.backward(torch.arange(12.0).reshape(3, 4))
print(x.grad)
print(x.detach().renorm(1, 1, 0.5), torch.renorm(x.detach(), float("inf"), -1, 2))
xx = x.detach().clone()
xx.renorm_(2, 0, 1)
print(xx)
for bad in [(x, 2, 5, 1.0), (x, -1, 0, 1.0), (x, 2, 0, -1.0), (torch.tensor(1.0), 2, 0, 1.0)]:
    try:
        torch.renorm(*bad)
    except Exception as e:
        print(type(e).__name__, e)
gg = torch.autograd.grad(torch.renorm(x, 2, 0, 1.0).pow(2).sum(), x, create_graph=True)[0]
print(gg.grad_fn.name(), gg.abs().max() < 1e-6)  # (rounding noise: renorm's rows have norm 1)
gg = torch.autograd.grad(
    (torch.renorm(x, 3, 1, 1.0) * torch.arange(12.0).reshape(3, 4)).sum(), x, create_graph=True
)[0]
print(gg, torch.autograd.grad(gg.pow(2).sum(), x))
x64 = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
print(
    torch.autograd.gradcheck(lambda t: torch.renorm(t, 3, 1, 0.5), (x64,)),
    torch.autograd.gradgradcheck(lambda t: torch.renorm(t, 2, 1, 2.5), (x64,)),
)
print(
    torch.autograd.gradgradcheck(
        lambda a, b, c: torch.addr(a, b, c, beta=2, alpha=0.5),
        (
            x64[:, :2].detach().clone().requires_grad_(),
            x64[:, 2].detach().clone().requires_grad_(),
            x64[0, 1:].detach().clone().requires_grad_(),
        ),
    )
)
w = torch.randn(5, 3) * 3
print(
    torch.renorm(w, 2, 1, 1.0),
    torch.renorm(w, 2, 0, 1.0).norm(dim=1),
    torch.renorm(w.double(), 3, 0, 0.1),
)
''',
    "in_place_math_scatters_and_put": r'''
import torch, warnings

torch.manual_seed(0)
x = torch.rand(3, requires_grad=True) + 0.5
for name, call in [
    ("polygamma_", lambda t: t.polygamma_(1)),
    ("mvlgamma_", lambda t: t.mvlgamma_(2)),
    ("float_power_", lambda t: t.float_power_(2)),
    ("float_power_", lambda t: t.float_power_(torch.tensor([1.0, 2.0, 3.0]))),
]:
    for base in (x, x.double()):
        try:
            y = base * 1
            call(y)
            print(name, y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
            print(torch.autograd.grad(y.sum(), x))
        except Exception as e:
            print(name, type(e).__name__, e)
print(torch.arange(3.0).double().float_power_(torch.tensor([1.0, 2.0, 3.0])))
v = x.detach().clone()
v.polygamma_(2)
print(v)
v = x.detach().clone() + 1
v.mvlgamma_(3)
print(v, torch.mvlgamma(x.detach() + 1, 3))
g = x.detach().clone().requires_grad_()
y = g * 1
y.polygamma_(1)
(d,) = torch.autograd.grad(y.sum(), g, create_graph=True)
print(d, d.grad_fn.name())
a = torch.zeros(3, 4, requires_grad=True)
s = torch.ones(4, requires_grad=True)
y = torch.select_scatter(a, s * 2, 0, 1)
print(y, y.grad_fn.name())
y.backward(torch.arange(12.0).reshape(3, 4))
print(a.grad, s.grad)
s2 = torch.ones(3, 2, requires_grad=True)
y = a.slice_scatter(s2, dim=1, start=0, end=4, step=2)
print(y, y.grad_fn.name())
y.backward(torch.arange(12.0).reshape(3, 4))
print(a.grad, s2.grad)
print(
    torch.slice_scatter(torch.zeros(5), torch.ones(2), start=3),
    torch.slice_scatter(torch.zeros(2, 5), torch.ones(2, 2), -1, -2),
)
d = torch.ones(3, requires_grad=True)
y = torch.diagonal_scatter(torch.zeros(3, 3), d * 3)
print(y, y.grad_fn.name())
print(
    torch.diagonal_scatter(torch.zeros(3, 4), torch.ones(3), 1),
    torch.diagonal_scatter(torch.zeros(2, 3, 3), torch.ones(2, 3), 0, 1, 2),
)
t = torch.arange(12.).view(3, 4).t()  # (a dense transposed input: its layout is kept)
for y in (torch.select_scatter(t, torch.zeros(3), 0, 1), torch.slice_scatter(t, t[:1], 0, 0, 1),
          torch.diagonal_scatter(t, torch.zeros(3))):
    print(y.stride(), y.is_contiguous(), y.sum(0), y.cumsum(1).stride())
for bad in [
    lambda: torch.select_scatter(a, torch.ones(3), 0, 1),
    lambda: torch.slice_scatter(a, torch.ones(3, 3), 1),
    lambda: torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(2)),
    lambda: torch.select_scatter(a, s, 0, 5),
    lambda: torch.zeros(3, 4).select(1, -5),
    lambda: torch.zeros(3, 4)[5],
    lambda: torch.zeros(3, 4)[:, 7],
    lambda: torch.zeros(3, 4)[1].select(0, 9),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
a2 = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
s3 = torch.randn(4, dtype=torch.float64, requires_grad=True)
y = torch.select_scatter(a2, s3, 0, 2) ** 2
ga, gs = torch.autograd.grad(y.sum(), (a2, s3), create_graph=True)
print(ga.grad_fn.name(), gs.grad_fn.name())
print(torch.autograd.grad((ga.sum() + gs.sum()), (a2, s3)))
print(
    torch.autograd.gradgradcheck(
        lambda p, q: torch.slice_scatter(p, q, 1, 1, 3) ** 2,
        (a2, a2[:, :2].detach().clone().requires_grad_()),
    )
)
t = torch.zeros(2, 3, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = t.put(torch.tensor([0, 4, 0]), v, accumulate=True)
print(y, y.grad_fn.name())
y.backward(torch.arange(6.0).reshape(2, 3))
print(t.grad, v.grad)
y = t.put(torch.tensor([1, -1]), v[:2])
print(y, y.grad_fn.name())
y.backward(torch.ones(2, 3))
print(t.grad, v.grad)
w = t.detach().clone()
w.put_(torch.tensor([[5]]), torch.tensor([9.0]))
print(w)
z = t * 1
z.put_(torch.tensor([0]), v[:1])
print(z.grad_fn.name(), torch.put(t.detach(), torch.tensor([2]), torch.tensor([7.0])))
for bad in [
    lambda: t.put(torch.tensor([6]), v[:1]),
    lambda: t.put(torch.tensor([0, 1]), v),
    lambda: t.put(torch.tensor([0.0]), v[:1]),
]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
''',
    "old_and_second_names": r'''
import torch, warnings

torch.manual_seed(0)
print(torch.autograd.inference_mode is torch.inference_mode)
with torch.autograd.inference_mode():
    print(torch.ones(2).requires_grad, torch.is_inference_mode_enabled())
w = torch.nn.Linear(2, 2)
w(torch.ones(2)).sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.nn.utils.clip_grad_norm(w.parameters(), 0.1))
print([(c.category.__name__, str(c.message), c.filename[-10:]) for c in caught])
print(
    torch.ByteTensor([1, 2]),
    torch.CharTensor(2).shape,
    torch.ShortTensor([3]),
    torch.HalfTensor([1.5]),
    torch.ByteTensor(2, 3).dtype,
)
print(
    isinstance(torch.nn.LSTM(2, 2), torch.nn.RNNBase),
    isinstance(torch.nn.GRUCell(2, 2), torch.nn.RNNCellBase),
    isinstance(torch.nn.RNN(2, 2), torch.nn.RNNBase),
    isinstance(torch.nn.Linear(2, 2), torch.nn.RNNBase),
)
xx = torch.randn(4, requires_grad=True)
print(
    xx.prelu(torch.tensor([0.25])),
    xx.hardshrink(0.5),
    torch.resolve_neg(xx).grad_fn,
    xx.is_neg(),
    xx.resolve_neg() is xx,
)
print(torch.nn.utils.fuse_conv_bn_eval is not None)
''',
    "foreach_ops": r'''
import torch

torch.manual_seed(0)
a = [torch.ones(2, requires_grad=True) + 0, torch.full((3,), 2.0, requires_grad=True) + 0]
b = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0])]
for op in ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp_max", "clamp_min"]:
    out = []
    for name, other in [
        ("list", b),
        ("scalar", 2.0),
        ("scalarlist", [2.0, 3.0]),
        ("tensor", torch.tensor(2.0)),
    ]:
        r = getattr(torch, "_foreach_" + op)(a, other)
        out.append(f"{name}:{r[0].grad_fn.name()} {r[1].tolist()}")
    print(op, out)
for op in [
    "exp",
    "sqrt",
    "neg",
    "sigmoid",
    "tanh",
    "abs",
    "log",
    "sin",
    "clone",
    "reciprocal",
    "frac",
    "sign",
]:
    r = getattr(torch, "_foreach_" + op)(a)
    print(op, r[0].grad_fn.name(), r[1])
print(torch._foreach_lerp(a, b, 0.5)[0].grad_fn.name(), torch._foreach_lerp(a, b, b)[1])
print(
    torch._foreach_addcmul(a, b, b, 2.0),
    torch._foreach_addcdiv(a, b, b, [1.0, 2.0]),
    torch._foreach_norm(a),
)
r = torch._foreach_mul(a, b)
sum(t.sum() for t in r).backward()
x = a[0] * 1
torch._foreach_mul_([x], 2.0)
print(x.grad_fn.name())
x = a[0] * 1
print(torch._foreach_add_([x], [b[0]], alpha=2), x.grad_fn.name(), x)
for bad in (
    lambda: torch._foreach_mul(a, [1.0]),
    lambda: torch._foreach_add(a, [1.0, 2.0], alpha=2),
    lambda: torch._foreach_add(b, b[:1]),
    lambda: torch._foreach_mul_(a, 2.0),
):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(torch._foreach_add(b, [torch.tensor(1), torch.tensor(2)]))
print(torch._foreach_max(b), torch._foreach_norm(b, 1), torch._foreach_norm(b, float("inf")))
model = torch.nn.Linear(3, 2)
ema = [p.detach().clone() for p in model.parameters()]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(4, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        params = [p.detach() for p in model.parameters()]
        torch._foreach_mul_(ema, 0.9)
        torch._foreach_add_(ema, params, alpha=0.1)
        torch._foreach_lerp_(ema, params, 0.05)
    print(step, loss.item(), ema[0])
grads = [p.grad for p in model.parameters()]
torch._foreach_zero_(grads)
print(grads)
torch._foreach_copy_(ema, params)
print(ema[1])
sq = torch._foreach_sqrt(
    torch._foreach_addcmul(
        [torch.zeros(2)], [torch.tensor([3.0, 4.0])], [torch.tensor([3.0, 4.0])], 1
    )
)
print(sq)
w = torch.ones(2, requires_grad=True)
for op in ["add", "sub", "mul", "div", "maximum", "clamp_min", "pow"]:
    for o in (2.0, [2.0], torch.tensor(2.0), [torch.tensor([3.0, 0.5])]):
        x = [w * 1]
        r = getattr(torch, "_foreach_" + op + "_")(x, o)
        print(
            op,
            type(o).__name__,
            x[0].grad_fn.name()
            if op not in ("maximum",) or isinstance(o, list) and isinstance(o[0], torch.Tensor)
            else "",
            r is x,
            x[0],
        )
x = (w * 1,)
r = torch._foreach_exp_(x)
print(r is x, type(r), x[0].grad_fn.name())
x = [w * 1]
print(torch._foreach_zero_(x) is x, torch._foreach_copy_(x, [w]) is x, x)
x = [w * 1]
r = torch._foreach_addcmul_(x, [w], [w], 2.0)
print(r is x, x[0].grad_fn.name())
x = [w * 1]
r = torch._foreach_lerp_(x, [w], 0.5)
print(r is x, x[0].grad_fn.name())
''',
    "foreach_pow_powsum_mm": r'''
import torch
ts = [torch.tensor([1., 2.]), torch.tensor([3.])]
print(torch._foreach_pow(2.0, ts), torch._foreach_pow(torch.tensor(2.0), ts))
x = torch.tensor([1., 2.], requires_grad=True); y = torch.tensor([3.], requires_grad=True)
r = torch._foreach_pow(2.0, [x, y]); print(r, [t.grad_fn.name() for t in r])
sum(t.sum() for t in r).backward(); print(x.grad, y.grad)
print(torch._foreach_pow(2, [torch.tensor([1, 2])]),
      torch._foreach_pow(2.0, [torch.tensor([1., 2.], dtype=torch.float64)])[0].dtype)
for f in (lambda: torch._foreach_pow(2.0, []), lambda: torch._foreach_powsum([]),
          lambda: torch._foreach_powsum([torch.tensor([1, 2])], 2),
          lambda: torch._foreach_mm([torch.ones(3)], [torch.ones(3, 2)]),
          lambda: torch._foreach_mm([torch.ones(2, 3)], [torch.ones(3, 2), torch.ones(1, 1)]),
          lambda: torch._foreach_mm([torch.ones(2, 3)], [torch.ones(2, 2)])):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
p = torch._foreach_powsum([x, y], 2)  # one node over both inputs, without a derivative
print(p, p[0].grad_fn is p[1].grad_fn, [n.name() for n, _ in p[0].grad_fn.next_functions])
try:
    p[0].backward()
except Exception as e:
    print(type(e).__name__, e)
print(torch._foreach_powsum([x, torch.tensor([1.])], 2))
for o in (0, 1, 2, 3, 0.5, -1, float('inf'), -float('inf')):  # (exact sums: integers, halves)
    print(o, torch._foreach_powsum([torch.tensor([1., -2., 0.]), torch.tensor([3., 0.5]),
                                    torch.arange(6.).reshape(2, 3)], o))
print(torch._foreach_powsum([torch.tensor([1., 2.])], 2, dtype=torch.float64))
long = torch.randn(1000, generator=torch.Generator().manual_seed(0))  # norm's order of adding
for o in (1, 2, 3):
    print(o, torch._foreach_powsum([long, long[:7]], o, dtype=torch.float64)[0].item(),
          [t.item() for t in torch._foreach_powsum([long, long[:7]], o)])
a = torch.ones(2, 3, requires_grad=True); b = torch.ones(3, 2, requires_grad=True)
m = torch._foreach_mm([a], [b]); print(m, m[0].grad_fn.name()); m[0].sum().backward()
print(a.grad, b.grad)
''',
    "clamps_by_tensors": r'''
import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
lo = torch.tensor([-0.5, 0.2, -1.0, 0.0, 0.3], requires_grad=True)
hi = torch.tensor([0.5, 0.1, 1.0, 0.5, 2.0], requires_grad=True)
for f in (
    lambda: x.clamp(lo, hi),
    lambda: torch.clamp(x, min=lo),
    lambda: x.clamp(max=hi),
    lambda: x.clamp_min(lo),
    lambda: torch.clamp_max(x, hi),
    lambda: (x * 1).clamp_(lo, hi),
    lambda: (x * 1).clamp_min_(lo),
    lambda: (x * 1).clamp_max_(hi),
    lambda: (x * 1).clamp_(min=lo),
    lambda: x.clip(lo, hi),
    lambda: x.clamp(lo[:1], hi[:1]),
    lambda: x.clamp(-0.1, 0.2),
    lambda: x.clamp_min(0.1),
):
    y = f()
    g = torch.autograd.grad((y * torch.arange(1.0, 6.0)).sum(), (x, lo, hi), allow_unused=True)
    print(y, y.grad_fn.name(), g)
y = x.clamp(lo, hi)
(gx,) = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
print(gx, torch.autograd.grad(gx.sum(), (x, lo, hi), allow_unused=True))
x64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(
    torch.autograd.gradcheck(
        lambda a, b: a.clamp_min(b), (x64, torch.randn(4, dtype=torch.float64, requires_grad=True))
    )
)
''',
    "zero_dim_indexing_errors": r'''
import torch

x = torch.tensor(2.0)
for f in (
    lambda: x[:1],
    lambda: x[0],
    lambda: x[..., :1],
    lambda: x[None, :1],
    lambda: x[:, None],
    lambda: x[1:2, 0],
    lambda: torch.zeros(2)[:1, :1],
    lambda: x[True],
    lambda: x[[0]],
    lambda: x[...],
    lambda: x[None],
):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
''',
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_runs_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
