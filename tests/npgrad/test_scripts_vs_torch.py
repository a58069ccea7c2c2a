"""Tutorial-style scripts print byte-identical output on npgrad and on real torch."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import assert_prints_as_torch, run_printing

_FIXED_WEIGHTS = """
with torch.no_grad():
    for number, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.6, 0.5 + number / 10, p.numel()).reshape(p.shape))
"""

SCRIPTS = {
    "nn.Module, Linear, Sequential and SGD with momentum": """
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh())
        self.head = torch.nn.Linear(4, 1)

    def forward(self, x):
        return self.head(self.body(x))

model = Net()
print(model)
print([(name, tuple(p.shape)) for name, p in model.named_parameters()])
""" + _FIXED_WEIGHTS + """
print(model.head.bias, isinstance(model.head.weight, torch.nn.Parameter), model.head.weight.is_leaf)
x = torch.tensor([[0.5, -1.0], [1.5, 0.25], [-0.75, 2.0]])
y = torch.tensor([[1.0], [-0.5], [0.25]])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01)
loss_fn = torch.nn.MSELoss()
for step in range(5):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}", loss.grad_fn.name())
fn = model(x).grad_fn
print(fn.name(), [type(n).__name__ for n, _ in fn.next_functions])
print(model.head(torch.tensor([0.5, 1.0, -1.0, 2.0])).grad_fn.name())
print(model.head.weight.grad is not None, optimizer.param_groups[0]["lr"])
model.zero_grad()
print(model.head.weight.grad, model.training, model.eval().training, model.body[0])
""",
    "cross_entropy and Adam on a small classifier": """
model = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))
""" + _FIXED_WEIGHTS + """
x = torch.tensor([[0.2, -1.0, 0.5], [1.0, 0.3, -0.2], [-0.5, 0.8, 1.2], [0.0, -0.3, 0.9]])
labels = torch.tensor([0, 2, 1, 2])
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(4):
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), labels)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}")
print(loss.grad_fn, loss.grad_fn.next_functions[0][0].name())
print(torch.nn.CrossEntropyLoss(reduction="sum")(model(x), labels).grad_fn.name())
print(torch.nn.functional.nll_loss(model(x).log_softmax(1), labels, reduction="none").shape)
print(model[0].weight.grad.abs().sum() > 0, len(model), model[-1])
""",
    "accumulation across two backward calls": """
x = torch.ones(2, 2, requires_grad=True)
i = torch.ones(2, 2)
y = x + 2
t = 3 * x
y.backward(i)
print(x.grad)
t.backward(i)
print(x.grad)
x.grad.zero_()
(3 * x).backward(i)
print(x.grad, x.grad.requires_grad, x.is_leaf, y.is_leaf)
y.backward(i)
print(x.grad)
""",
    "grad_fn chain and next_functions": """
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * 3 + 1).pow(2).sum()
fn = y.grad_fn
while fn is not None:
    print(fn.name(), [type(n).__name__ if n is not None else None for n, _ in fn.next_functions])
    fn = fn.next_functions[0][0] if fn.next_functions else None
acc = y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(type(acc).__name__, acc.variable is x)
""",
    "no_grad, enable_grad and set_grad_enabled": """
x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x.requires_grad, (x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad, torch.is_grad_enabled())
    with torch.enable_grad():
        print((x * 2).requires_grad)
@torch.no_grad()
def evaluate(t):
    return t * 2
print(evaluate(x).requires_grad)
torch.set_grad_enabled(False)
print((x + 1).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
print((x + 1).requires_grad, torch.is_grad_enabled())
""",
    "detach, data and requires_grad_": """
x = torch.tensor([-0.75, 1.25, 2.5], requires_grad=True)
y = x.detach()
print(y.requires_grad, x.eq(y).all(), x, y)
d = x.data
d[0] = 10.
print(x)
a = torch.tensor([[0.5, -1.5], [2.0, 3.0]])
a = (a * 3) / (a - 1)
print(a.requires_grad)
a.requires_grad_(True)
b = (a * a).sum()
print(a.requires_grad, b, b.grad_fn.name())
z = (x * 2)
z.detach_()
print(z, z.requires_grad, z.grad_fn)
""",
    "retain_grad and hooks": """
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.retain_grad()
seen = []
handle = y.register_hook(lambda g: seen.append(g.clone()))
x.register_hook(lambda g: g * 10)
z = (y * y).sum()
z.backward()
print(y.grad, x.grad, seen, y.retains_grad, x.retains_grad)
handle.remove()
""",
    "torch.autograd.grad and create_graph": """
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), x)
print(h, x.grad)
w = torch.tensor(2., requires_grad=True)
f = w.sin() * w
f.backward(create_graph=True)
print(w.grad)
gw = w.grad
w.grad = None
gw.backward()
print(w.grad)
""",
    "second backward: freed only where tensors were saved": """
w = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
for make in (lambda: w.sum(), lambda: w[0] * 1, lambda: (w + c).mean(), lambda: w.view(2, 1).sum(),
             lambda: (w * c).sum(), lambda: (w / 2).sum(), lambda: torch.where(w > 1, w, c).sum(),
             lambda: w.exp().sum(), lambda: w.norm()):
    y = make()
    y.backward()
    try:
        y.backward()
        print("again ok", w.grad)
    except RuntimeError as error:
        print(type(error).__name__, str(error)[:40])
u = w * c
with torch.no_grad():
    w.add_(1)
u.sum().backward()
print(w.grad)
""",
    "sgd loop": """
torch.manual_seed(0)
w = torch.tensor([0.5, -0.25], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
xs = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
ys = torch.tensor([1., 2., 3.])
for step in range(5):
    pred = xs @ w + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
        b -= 0.01 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    print(step, loss.item(), f"{loss:.4f}", loss)
print(w, b)
""",
    "indexing, views and in-place writes": """
x = torch.arange(12.).reshape(3, 4).requires_grad_()
y = x * 1
y[1] = torch.tensor([9., 8., 7., 6.])
y[0, 0] = 100.
y.add_(1)
y[:, 1] *= 2
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
v = x.detach()[1:, ::2]
print(v, v.shape, v.is_contiguous(), v.t().contiguous().is_contiguous())
""",
    "in-place arithmetic on graph tensors": """
x = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
y = x * 2
y[0] = 5.
y.mul_(3)
(y ** 2).sum().backward()
print(y, x.grad)
x.grad = None
w = x.clone()
w += 1
w.clamp_(0, 2)
w.div_(2)
w.sub_(x, alpha=0.5)
(w * w).sum().backward()
print(w, x.grad)
q = x * 1
q[1:] = torch.tensor([7., 8.])
q.sum().backward()
print(x.grad)
i = torch.tensor([4, 6])
i //= 2
i *= 3
f = torch.tensor([4., 6.])
f /= 4
f -= torch.tensor([1., 1.])
print(i, i.dtype, f)
""",
    "reductions with dims": """
x = torch.tensor([[1., 5., 3.], [4., 2., 6.]], requires_grad=True)
values, indices = x.max(dim=1)
print(values, indices)
m = x.min(0)
print(m.values, m.indices)
print(x.sum(0), x.mean(1, keepdim=True), x.prod(), x.norm(), x.std(), x.var(0))
print(x.softmax(1), x.log_softmax(0), x.argmax(), x.argmax(1))
(values.sum() + m.values.sum() + x.norm()).backward()
print(x.grad)
""",
    "sorting, picking and checks": """
x = torch.tensor([[0.3, -1.2, 0.5], [2.0, 0.1, -0.4]], requires_grad=True)
s = torch.sort(x, 1)
print(s)
values, indices = x.topk(2, dim=1)
print(values, indices, x.argsort(dim=1, descending=True), torch.argsort(x, 0))
print(torch.tensor([1., float("nan"), 3., 2.]).sort(descending=True))
print(torch.tensor([3, 1, 2]).sort(), torch.topk(torch.tensor([1., 4., 2.]), 1))
(s.values[:, 0].sum() + values.sum() * 2).backward()
print(x.grad)
y = torch.tensor([0., float("inf"), float("nan"), -2.])
print(y.isnan(), torch.isinf(y), torch.isfinite(y))
print(torch.roll(x, 1), x.roll(-1, 1), torch.atan2(x, x + 3), torch.hypot(x, x))
print(torch.erf(x), x.erfc(), torch.lerp(x, x * 2, 0.3), torch.addcmul(x, x, x, value=0.5))
""",
    "type promotion": """
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1., 2., 3.], dtype=torch.float64)
b = torch.tensor([True, False, True])
for value in (i + 1, i * 1.5, i / 2, i // 2, f + d, f + torch.tensor(2., dtype=torch.float64),
              i + torch.tensor(2.5), b + 1, b * 2.5, i + b, f * b, i.float(), d.half(),
              torch.tensor([1, 2], dtype=torch.int32) + 1, i > 1, (i == 2).sum(), i.sum(),
              f.sum(), b.sum()):
    print(value, value.dtype)
""",
    "creation functions": """
print(torch.zeros(2, 3), torch.ones(2), torch.full((2,), 3.5), torch.eye(2))
print(torch.arange(5), torch.arange(1, 4, 0.5), torch.linspace(0, 1, 3), torch.zeros(2).shape)
print(torch.zeros_like(torch.ones(2, dtype=torch.float64)), torch.ones_like(torch.arange(3)))
print(torch.FloatTensor([0.1, 1.0, 0.0001]), torch.LongTensor([1, 2]), torch.DoubleTensor([1]))
print(torch.tensor([[1, 2], [3, 4]]).shape, torch.tensor(3).shape, torch.tensor([]).shape)
print(torch.from_numpy(np.array([1., 2.])), torch.as_tensor([1, 2]))
a = np.zeros(3, dtype=np.float32)
t = torch.from_numpy(a)
a[0] = 5
print(t, t.numpy().dtype)
print(torch.rand(2, 3).shape, torch.randn(4).dtype, torch.randint(0, 10, (3,)).dtype)
print(torch.ones(2, 3).size(), torch.ones(2, 3).size(1), torch.ones(2, 3).numel())
print(len(torch.ones(4, 2)))
""",
    "python conversions": """
x = torch.tensor([1.5, -2.5, 3.25])
print(x.tolist(), x[0].item(), float(x[1]), int(x[2]), bool(x[0] > 0), len(x))
for v in x:
    print(v, f"{v}", f"{v:.1f}")
print(x.numpy(), x.detach().numpy().sum(), list(x.shape), x.ndim, x.dim())
print(torch.is_tensor(x), x.dtype == torch.float32, x.device, str(x.dtype))
""",
    "matmul family": """
a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = torch.tensor([[0.5, -1.], [2., 0.25]], requires_grad=True)
v = torch.tensor([1., -1.], requires_grad=True)
out = (a @ b).sum() + (a @ v).sum() + (v @ a).sum() + v.dot(v) + torch.mm(a, b.t()).mean()
out.backward()
print(out, a.grad, b.grad, v.grad)
""",
    "integer and bool casts leave the graph": """
x = torch.tensor([1.5, 2.5, -3.5], requires_grad=True)
for cast in (x.long(), x.int(), x.bool(), x.to(torch.int64), x.type(torch.int32), x.double()):
    print(cast, cast.requires_grad, cast.grad_fn is None, cast.is_leaf)
for attempt in (lambda: torch.autograd.grad(x.long().sum(), x),
                lambda: x.int().float().sum().backward()):
    try:
        attempt()
    except RuntimeError as error:
        print("RuntimeError:", error)
(x.round() * x.long()).sum().backward()
print(x.grad)
""",
    "optimizer state_dict, load_state_dict and MultiplicativeLR": """
model = torch.nn.Linear(2, 1)
""" + _FIXED_WEIGHTS + """
x = torch.tensor([[0.5, -1.0], [1.5, 0.25]])
for kind in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop,
             torch.optim.Adagrad, torch.optim.Adadelta):
    optimizer = kind(model.parameters(), lr=0.1, foreach=False)
    print(optimizer.state_dict())
    for _ in range(2):
        optimizer.zero_grad()
        model(x).pow(2).sum().backward()
        optimizer.step()
    saved = optimizer.state_dict()
    print(saved, len(optimizer.state), list(optimizer.state[model.weight]))
    again = kind(model.parameters(), lr=0.5)
    again.load_state_dict(saved)
    print(again.param_groups[0]["lr"], again.state[model.bias])
scheduler = torch.optim.lr_scheduler.MultiplicativeLR(again, lambda epoch: 0.5 + epoch / 10)
for _ in range(3):
    again.step()
    scheduler.step()
    print(scheduler.get_last_lr(), scheduler.last_epoch)
print(model.weight, model.bias)
""",
    "regression losses and average pooling": """
x = torch.linspace(-2, 2, 24).reshape(1, 2, 3, 4).requires_grad_()
target = torch.linspace(1, -1, 24).reshape(1, 2, 3, 4)
for loss in (torch.nn.L1Loss(), torch.nn.SmoothL1Loss(beta=0.5), torch.nn.HuberLoss(delta=0.5),
             torch.nn.SmoothL1Loss(reduction="sum", beta=0.0)):
    value = loss(x, target)
    value.backward()
    print(loss, value, x.grad.flatten()[:5])
    x.grad = None
print(torch.nn.functional.smooth_l1_loss(x, target, reduction="none")[0, 0])
for pool in (torch.nn.AvgPool2d(2), torch.nn.AvgPool2d(3, stride=1, padding=1),
             torch.nn.AdaptiveAvgPool2d((2, 3)), torch.nn.AdaptiveAvgPool2d(1)):
    out = pool(x)
    out.pow(2).sum().backward()
    print(pool, out, x.grad[0, 0])
    x.grad = None
print(torch.nn.functional.avg_pool1d(x[0, 0], 2), torch.nn.AdaptiveAvgPool1d(2)(x[0, 0]))
""",
    "post-accumulate-grad hooks (an optimizer step in backward)": """
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
seen = []
handle = x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
w.register_hook(lambda g: g * 2)
w.register_post_accumulate_grad_hook(lambda p: print("w after", p.grad))
def step(p):
    with torch.no_grad():
        p -= 0.1 * p.grad
    p.grad = None
x.register_post_accumulate_grad_hook(step)
for _ in range(2):
    (x * w).sum().backward()
    print(x, w.grad, seen)
handle.remove()
(x * w).sum().backward()
print(len(seen), x.grad)
torch.autograd.grad((x * w).sum(), w)  # no accumulation: no hook
for attempt in (lambda: (x * 2).register_post_accumulate_grad_hook(print),
                lambda: torch.ones(2).register_post_accumulate_grad_hook(print)):
    try:
        attempt()
    except RuntimeError as error:
        print("RuntimeError:", error)
for returned in (1, torch.ones(1)):
    z = torch.ones(1, requires_grad=True)
    z.register_post_accumulate_grad_hook(lambda p, value=returned: value)
    try:
        (z * 3).sum().backward()
    except (RuntimeError, TypeError) as error:
        print(type(error).__name__, error)
""",
    "a small CNN with BatchNorm2d and adaptive pooling": """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3, padding=1), torch.nn.BatchNorm2d(3),
                            torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                            torch.nn.Linear(3, 2))
print(model)
x = torch.randn(4, 2, 6, 6)
y = torch.tensor([0, 1, 1, 0])
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}", loss.grad_fn.name())
print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)
model.eval()
print(model(x))
try:
    torch.nn.BatchNorm2d(3)(torch.ones(2, 3, 4))
except ValueError as error:
    print(error)
""",
    "gradient checkpointing, reentrant or not": """
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
x = torch.tensor([1., 2.], requires_grad=True)
def f(t):
    print("run f")
    return (t.sin() * 2).sum()
y = checkpoint(f, x, use_reentrant=True)
print(y, type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
y.backward()
print(x.grad)
y = checkpoint(f, x, use_reentrant=False)
print(y, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
y.backward()
print(x.grad)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Dropout(0.5), torch.nn.ReLU(),
                        torch.nn.Linear(4, 1))
inp = torch.ones(3, 2, requires_grad=True)
for reentrant in (True, False):
    out = checkpoint_sequential(m, 2, inp, use_reentrant=reentrant)
    out.sum().backward()
    print(out, inp.grad, m[0].weight.grad)
    inp.grad = None
    m.zero_grad()
print(torch.rand(2))
""",
    "torch.testing.assert_close and its messages": """
from torch.testing import assert_close
cases = [
 (torch.tensor([1., 2., 3.]), torch.tensor([1., 2.5, 3.])),
 (torch.tensor([1., 2., 3.]), torch.tensor([1., 2., 3.], dtype=torch.float64)),
 (torch.tensor([1., 2.]), torch.tensor([1., 2., 3.])),
 (torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3., 4.001]])),
 (torch.tensor(1.), 1.0),
 (torch.tensor([1, 2]), torch.tensor([1, 3])),
 (1.0, 1.1),
 (2, 3),
 ([torch.ones(2)], [torch.zeros(2)]),
 ((torch.ones(2), torch.ones(1)), (torch.ones(2), torch.ones(1) * 2)),
 (torch.tensor([float('nan')]), torch.tensor([float('nan')])),
 (torch.tensor([1., float('inf')]), torch.tensor([1., float('inf')])),
 (torch.tensor([1., 2.]), torch.tensor([1., 2.000001])),
]
for a, b in cases:
    try:
        assert_close(a, b)
        print('ok')
    except (AssertionError, TypeError) as e:
        print(type(e).__name__, repr(str(e)))
assert_close(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)
for kwargs in ({"rtol": 0.01, "atol": 0}, {"msg": "custom"}, {"check_dtype": False}):
    try:
        assert_close(torch.tensor([1., 2.]), torch.tensor([1., 2.1], dtype=torch.float64),
                     **kwargs)
    except AssertionError as e:
        print(repr(str(e)))
try:
    assert_close(torch.ones(1), torch.ones(1), rtol=0.1)
except ValueError as e:
    print(e)
""",
    "LSTM layers and an LSTMCell": """
torch.manual_seed(0)
lstm = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
print(lstm, [n for n, _ in lstm.named_parameters()])
x = torch.randn(5, 2, 3, requires_grad=True)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape, type(out.grad_fn).__name__, type(h.grad_fn).__name__)
print([type(f).__name__ for f, _ in out.grad_fn.next_functions])
layer = out.grad_fn.next_functions[0][0]
print([(type(f).__name__ if f else None) for f, _ in layer.next_functions])
loss = out.pow(2).sum() + h.sum() + c.pow(2).sum()
loss.backward()
print(f"{loss.item():.4f}")
print(x.grad[0])
print(lstm.weight_hh_l1_reverse.grad[:2])
print(lstm.bias_ih_l0.grad[:6])
batch = torch.nn.LSTM(3, 2, batch_first=True)
o, (hh, cc) = batch(torch.randn(2, 4, 3))
print(o.shape, type(o.grad_fn).__name__, hh)
single = torch.nn.LSTM(3, 2)
h0 = torch.zeros(1, 2, requires_grad=True)
o, (hh, cc) = single(torch.randn(4, 3), (h0, torch.zeros(1, 2)))
o.sum().backward()
print(o.shape, hh.shape, h0.grad)
cell = torch.nn.LSTMCell(3, 2)
print(cell)
hx, cx = cell(torch.randn(4, 3))
hx, cx = cell(torch.randn(4, 3), (hx, cx))
hx.sum().backward()
print(hx, type(hx.grad_fn).__name__, cell.weight_ih.grad[0])
""",
    "RNN and GRU layers and the three cells": """
torch.manual_seed(0)
for layer in (torch.nn.RNN(3, 4, num_layers=2, bidirectional=True),
              torch.nn.RNN(3, 4, nonlinearity="relu", batch_first=True),
              torch.nn.GRU(3, 4, num_layers=2),
              torch.nn.GRU(3, 4, bidirectional=True, batch_first=True, bias=False)):
    x = torch.randn(2, 5, 3, requires_grad=True)
    out, h = layer(x)
    (out.pow(2).sum() + h.sum()).backward()
    print(layer, out.shape, h.shape, type(out.grad_fn).__name__, type(h.grad_fn).__name__)
    print(out[0, :2], x.grad[1, :2])
    print([f"{p.grad.norm().item():.4f}" for p in layer.parameters()][:4])
cells = (torch.nn.RNNCell(3, 2), torch.nn.RNNCell(3, 2, nonlinearity="relu"),
         torch.nn.GRUCell(3, 2), torch.nn.LSTMCell(3, 2))
for cell in cells:
    state = None
    for t in range(3):
        state = cell(torch.randn(4, 3), state)
    last = state[0] if isinstance(state, tuple) else state
    last.sum().backward()
    print(cell, last, type(last.grad_fn).__name__, cell.weight_hh.grad[0])
u = torch.nn.GRU(3, 2)(torch.randn(4, 3))
print(u[0].shape, u[1].shape)
print(torch.nn.GRUCell(3, 2)(torch.randn(3)))
""",
    "gradgradcheck draws its grad_outputs from torch's stream": """
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda t: t.sinh(), x))
print(torch.rand(2))
y = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradgradcheck(lambda a: (a * a.exp(), a.sum()), y))
print(torch.rand(3))
""",
    "vmap over dicts and tuples, jacrev under vmap, an ensemble by stack_module_state": """
from torch.func import vmap, jacrev, grad, functional_call, stack_module_state
torch.manual_seed(0)
x = torch.randn(3, 2)
print(torch.vmap is vmap)
def f(t):
    return {"sum": t.sum(), "sq": t * t}
out = vmap(f)(x)
print(out["sum"], out["sq"].shape)
def g(t):
    return t.sin(), {"a": t.cos()}
o = vmap(g)(x)
print(o[0].shape, o[1]["a"])
j = vmap(jacrev(lambda t: t.sin()))(x)
print(j.shape, j[0])
print(vmap(grad(lambda t: (t ** 3).sum()))(x))
models = [torch.nn.Linear(2, 1) for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: (v.shape, v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers)
base = torch.nn.Linear(2, 1)
def call(p, b, xx):
    return functional_call(base, (p, b), (xx,))
ensemble = vmap(call, in_dims=(0, 0, None))(params, buffers, x)
print(ensemble.shape, ensemble[1])
ensemble.sum().backward()
print(params["weight"].grad)
print(vmap(lambda t: (t.sum(), t), out_dims=(0, 1))(x)[1].shape)
""",
    "seeding and asking about a GPU that is not there": """
torch.manual_seed(0)
torch.cuda.manual_seed(0)
torch.cuda.manual_seed_all(1)
torch.cuda.empty_cache()
print(torch.cuda.is_available(), torch.cuda.is_initialized(), torch.cuda.device_count())
print(torch.randn(2))
""",
    "parametrizations: symmetric weights, right_inverse, cached, removal": """
import torch.nn as nn
import torch.nn.utils.parametrize as P


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


class Positive(nn.Module):
    def forward(self, X):
        return X.exp()

    def right_inverse(self, X):
        return X.log()


torch.manual_seed(0)
layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
print(layer)
print(layer.weight)
print([n for n, _ in layer.named_parameters()], type(layer).__name__, P.is_parametrized(layer),
      P.is_parametrized(layer, "bias"), P.type_before_parametrizations(layer).__name__)
print(type(layer.weight.grad_fn).__name__, layer.parametrizations.weight.original.shape)
m = nn.Linear(2, 2)
with torch.no_grad():
    m.weight.fill_(2.0)
P.register_parametrization(m, "weight", Positive())
print(m.parametrizations.weight.original)
m.weight = torch.full((2, 2), 3.0)
print(m.parametrizations.weight.original, m.weight)
P.register_parametrization(m, "weight", Symmetric())
print(m)
m(torch.ones(2)).sum().backward()
print(m.parametrizations.weight.original.grad)
with P.cached():
    a = m.weight
    b = m.weight
    print(a is b)
P.remove_parametrizations(m, "weight")
print(m, m.weight)
try:
    P.remove_parametrizations(m, "weight")
except ValueError as e:
    print(e)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = layer(torch.ones(2, 3)).pow(2).sum()
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}", torch.allclose(layer.weight, layer.weight.T))
""",
    "copy.deepcopy of tensors, parameters and models": """
import copy
x = torch.ones(2, requires_grad=True)
y = x * 2
try:
    copy.deepcopy(y)
except RuntimeError as e:
    print(e)
p = torch.nn.Parameter(torch.ones(2))
p.grad = torch.ones(2) * 3
q = copy.deepcopy(p)
print(q.grad, q is p, q.requires_grad, isinstance(q, torch.nn.Parameter))
x.grad = torch.full((2,), 5.0)
z = copy.deepcopy(x)
print(z, z.grad, z.grad is x.grad)
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
target = copy.deepcopy(m)
print(target[0].weight is m[0].weight, torch.equal(target[0].weight, m[0].weight), target)
with torch.no_grad():
    m[0].weight.add_(1)
print(target[0].weight[0], m[0].weight[0])
pair = copy.deepcopy({"a": x, "b": [x, x]})
print(pair["b"][0] is pair["a"])
""",
    "MultiheadAttention, masks and a small TransformerEncoder": """
import torch.nn as nn
torch.manual_seed(0)
attention = nn.MultiheadAttention(8, 2)
print(attention, [n for n, _ in attention.named_parameters()])
x = torch.randn(5, 3, 8, requires_grad=True)
out, weights = attention(x, x, x)
print(out.shape, weights.shape, type(out.grad_fn).__name__, type(weights.grad_fn).__name__)
print(weights[0])
(out.pow(2).sum() + weights.sum()).backward()
print(x.grad[0, 0], attention.in_proj_weight.grad[0])
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
padding = torch.tensor([[False] * 4 + [True], [False] * 5, [False] * 3 + [True] * 2])
out2, w2 = attention(x, x, x, attn_mask=mask, key_padding_mask=padding)
print(w2[2], out2[0, 0])
out3, none = attention(x, x, x, need_weights=False, attn_mask=mask)
print(none, out3[1, 1], type(out3.grad_fn).__name__)
memory = torch.randn(7, 3, 8)
cross, cw = attention(x, memory, memory, average_attn_weights=False)
print(cross.shape, cw.shape)
first = nn.MultiheadAttention(8, 2, batch_first=True)
o, w = first(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1))
print(o.shape, w.shape)
single, sw = attention(x[:, 0], x[:, 0], x[:, 0])
print(single.shape, sw.shape, single[0])
torch.manual_seed(1)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
print(layer)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(8, 2)
optimizer = torch.optim.AdamW([*encoder.parameters(), *head.parameters()], lr=0.01)
src = torch.randn(6, 4, 8)
labels = torch.tensor([0, 1, 1, 0])
for step in range(3):
    optimizer.zero_grad()
    hidden = encoder(src)
    loss = nn.functional.cross_entropy(head(hidden.mean(dim=0)), labels)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}")
print(len(list(encoder.parameters())), type(hidden.grad_fn).__name__)
pre = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", norm_first=True,
                                 batch_first=True)
print(pre(torch.randn(2, 3, 8)).sum())
""",
    "torch.linalg: det, slogdet, inv, solve and norms": """
A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]], requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(torch.linalg.det(A), torch.det(A), A.det())
print(torch.linalg.slogdet(A))
print(torch.slogdet(A))
print(torch.linalg.inv(A), torch.inverse(A).grad_fn.name())
x = torch.linalg.solve(A, b)
print(x)
total = x.sum() + torch.linalg.det(A) + torch.linalg.inv(A).sum()
(total + torch.linalg.slogdet(A).logabsdet).backward()
print(A.grad, b.grad)
B = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
C = torch.randn(2, 3, 2, dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve(B, C)
X.pow(2).sum().backward()
print(X.shape, B.grad.shape, C.grad.shape)
print(torch.linalg.norm(A), torch.linalg.vector_norm(b, ord=1), torch.linalg.matrix_norm(A))
(g,) = torch.autograd.grad(torch.linalg.det(A), A, create_graph=True)
print(g)
for bad in (lambda: torch.linalg.inv(torch.zeros(2, 2)),
            lambda: torch.linalg.det(torch.ones(2, 3)),
            lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))):
    try:
        bad()
    except RuntimeError as error:
        print(type(error).__name__, error)
""",
    "Adam with amsgrad": """
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
o = torch.optim.Adam(m.parameters(), lr=0.1, amsgrad=True)
for _ in range(3):
    o.zero_grad()
    (m(torch.ones(4, 2)) ** 2).sum().backward()
    o.step()
print(o.state_dict())
print(m.weight, o)
""",
    "transposed convolutions (a small decoder)": """
torch.manual_seed(0)
up = torch.nn.ConvTranspose2d(2, 3, kernel_size=3, stride=2, padding=1, output_padding=1)
print(up, up.weight.shape)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
y = up(x)
print(y.shape, type(y.grad_fn).__name__)
y.pow(2).sum().backward()
print(x.grad[0, 0, 0], up.weight.grad[0, 0], up.bias.grad)
decoder = torch.nn.Sequential(torch.nn.ConvTranspose2d(3, 2, 2, stride=2), torch.nn.ReLU(),
                              torch.nn.ConvTranspose2d(2, 1, 3, padding=1))
z = decoder(torch.randn(2, 3, 3, 3))
print(z.shape, f"{z.sum().item():.4f}")
print(torch.nn.functional.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2),
                                           stride=1))
""",
    "skip_init and torch.nn.parameter": """
from torch.nn.parameter import Parameter
torch.manual_seed(0)
layer = torch.nn.utils.skip_init(torch.nn.Linear, 3, 2)
print(type(layer).__name__, layer.weight.shape, isinstance(layer.weight, Parameter))
with torch.no_grad():
    layer.weight.fill_(0.5)
    layer.bias.zero_()
print(layer(torch.ones(3)), torch.rand(2))  # the stream was not drawn from
try:
    torch.nn.utils.skip_init(int)
except RuntimeError as error:
    print(error)
print(Parameter(torch.ones(2)))
""",
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_script_prints_what_torch_prints(name, torch, engine):
    code = SCRIPTS[name]
    # (where torch's kernels or math library round otherwise: the digits within 1e-4, or
    # 1e-6 for numbers near 0, which a cancellation makes of rounding noise)
    assert_prints_as_torch(run_printing(code, engine), run_printing(code, torch), torch, 1e-4,
                           absolute=1e-6)


def test_large_gradients_shared_between_paths_match_torch(torch, engine):
    """Big buffers are summed in place; a gradient that two paths share must not be corrupted."""
    values = np.random.default_rng(5).normal(size=40_000)

    def grads(module):
        x = module.tensor(values, requires_grad=True)
        w = module.tensor(values[::-1].copy(), requires_grad=True)
        y = x * 2
        shared = y + y
        total = (shared + y * w + (x + w) * 3 - y).sum() + (w * w).sum()
        total.backward()
        return x.grad.numpy(), w.grad.numpy()

    for expected, actual in zip(grads(torch), grads(engine), strict=True):
        np.testing.assert_allclose(actual, expected, rtol=1e-12)


def test_backward_after_a_failed_backward_matches_torch(torch, engine):
    """An error half way through a backward must leave nothing behind for the next one."""
    code = """
w = torch.tensor([1., 2.], requires_grad=True)
c = torch.tensor([3., 4.])
y = (w * c).sum() + (w * w).sum()
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print(str(error)[:20])
(w * c).sum().backward()
print(w.grad)
z = (w.exp() * c).sum()
with torch.no_grad():
    pass
h = w.exp()
h.add_(1)
try:
    (h * w).sum().backward()
except RuntimeError as error:
    print(str(error)[-60:])
(w * 2).sum().backward()
print(w.grad)
"""
    assert run_printing(code, engine) == run_printing(code, torch)


def test_named_results_conversions_and_new_tensors_match_torch(torch, engine):
    code = """
x = torch.tensor([[1., 5.], [4., 2.]], requires_grad=True)
result = x.max(dim=1)
print(result)
print(x.min(0))
values, indices = torch.max(x, 1)
print(values, indices, result.values, result[1])
print(x.type(), x.double().type(), torch.tensor([1, 2]).type(), x.type(torch.float64).dtype)
print(x.cpu() is x, x.new_ones(2), x.new_zeros((1, 2)), x.new_tensor([1, 2]))
print(x.new_full((2,), 3.), x.new_empty(2).shape, x.new_ones(2).requires_grad)
"""
    assert run_printing(code, engine) == run_printing(code, torch)
