"""What scripts pasted from today's material reach for, on npgrad against real torch run
here: torch.random (fork_rng around draws that must not move the stream), the Rprop and
ASGD optimisers, the CyclicLR schedule, modules' backward pre-hooks (their own and every
module's), scatter_reduce as message-passing code uses it, and index_reduce (its beta
warning once), and every index-taking op's bounds (torch wraps a negative index only in
index_fill and plain indexing); the rarer random fills (cauchy_, log_normal_, geometric_)
and the Cauchy and Geometric distributions built on torch's draws; the state-dict hooks
(before, after, on load) and a module's extra state; gradcheck calling a custom Function's
forward and backward as torch's does (slow and fast mode, gradgradcheck); stochastic weight
averaging (AveragedModel with SWA and EMA, SWALR, update_bn) and the schedulers' warnings of a
step before the optimizer's."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

SCRIPTS = {
    'fork_rng': r'''
import torch
import torch.random
from torch.random import fork_rng
torch.random.manual_seed(3)
print(torch.random.initial_seed(), torch.initial_seed())
with fork_rng():
    print(torch.rand(3))
print(torch.rand(3))
with torch.random.fork_rng(enabled=False):
    print(torch.randn(2))
print(torch.randn(2))
try:
    with fork_rng():
        torch.rand(100)
        raise ValueError("inside")
except ValueError as e:
    print("ValueError", e)
print(torch.rand(2))
try:
    with fork_rng(devices=[0]):
        pass
except AssertionError as e:
    print("AssertionError", e)
state = torch.random.get_rng_state()
a = torch.rand(2)
torch.random.set_rng_state(state)
print(torch.equal(a, torch.rand(2)), torch.random.default_generator is torch.default_generator)
print(torch.random.thread_safe_generator())
''',
    'rprop': r'''
import torch
torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
opt = torch.optim.Rprop(model.parameters(), lr=0.01, etas=(0.3, 1.7), step_sizes=(1e-4, 0.05))
print(opt)
x, y = torch.randn(16, 3), torch.randn(16, 2)
for step in range(25):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
print(loss.item(), model.weight.data, model.bias.data)
state = opt.state[model.weight]
# (prev is the last gradient: its last bits are the matrix product's, MKL's or NumPy's)
print(list(state), state["step"], state["step_size"], state["prev"].sign())
w = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
o = torch.optim.Rprop([w], maximize=True)
for _ in range(6):
    o.zero_grad()
    (w.sin() * w).sum().backward()
    o.step()
print(w)
z = torch.tensor([1 + 2j, -0.5j], requires_grad=True)
oz = torch.optim.Rprop([z], lr=0.1)
for _ in range(3):
    oz.zero_grad()
    (z * z.conj()).real.sum().backward()
    oz.step()
print(z, oz.state[z]["step_size"])
for bad in [dict(lr=-1.0), dict(etas=(1.5, 1.2)), dict(etas=(0.5, 0.9))]:
    try:
        torch.optim.Rprop([w], **bad)
    except ValueError as e:
        print("ValueError", e)
''',
    'asgd': r'''
import torch
torch.manual_seed(1)
model = torch.nn.Linear(4, 1)
opt = torch.optim.ASGD(model.parameters(), lr=0.05, lambd=1e-3, alpha=0.6, t0=10,
                       weight_decay=0.01)
print(opt)
x, y = torch.randn(32, 4), torch.randn(32, 1)
for step in range(30):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(loss.item(), model.weight.data, model.bias.data)
state = opt.state[model.weight]
print(list(state), state["step"], state["eta"], state["mu"], state["ax"])
w = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
o = torch.optim.ASGD([w], maximize=True)
for _ in range(4):
    o.zero_grad()
    (-(w ** 2)).sum().backward()
    o.step()
print(w, o.state[w]["ax"], o.state_dict()["param_groups"])
for bad in [dict(lr=-0.1), dict(weight_decay=-1)]:
    try:
        torch.optim.ASGD([w], **bad)
    except ValueError as e:
        print("ValueError", e)
''',
    'cyclic_lr': r'''
import torch
from torch.optim.lr_scheduler import CyclicLR
w = torch.nn.Parameter(torch.ones(2))
def run(optimizer, **options):
    scheduler = CyclicLR(optimizer, **options)
    seen = []
    for _ in range(13):
        optimizer.step()
        scheduler.step()
        group = optimizer.param_groups[0]
        seen.append((group["lr"], group.get("momentum", group.get("betas"))))
    print(seen)
    print(scheduler.get_last_lr(), scheduler.last_epoch, scheduler.scale_mode)
    return scheduler
run(torch.optim.SGD([w], lr=1.0, momentum=0.9), base_lr=0.01, max_lr=0.1, step_size_up=4)
run(torch.optim.SGD([w], lr=1.0, momentum=0.5), base_lr=0.001, max_lr=0.1, step_size_up=3,
    step_size_down=2, mode="triangular2", base_momentum=0.7, max_momentum=0.95)
s = run(torch.optim.Adam([w]), base_lr=1e-4, max_lr=1e-2, step_size_up=5, mode="exp_range",
        gamma=0.9)
print(sorted(s.state_dict()), s.state_dict()["_scale_fn_custom"])
run(torch.optim.SGD([w], lr=0.1), base_lr=0.01, max_lr=0.3, step_size_up=2,
    cycle_momentum=False, scale_fn=lambda x: 0.5 ** x, scale_mode="iterations")
g = torch.optim.SGD([{"params": [w]}, {"params": [torch.nn.Parameter(torch.zeros(1))]}],
                    lr=0.1, momentum=0.8)
run(g, base_lr=[0.01, 0.02], max_lr=[0.1, 0.5], step_size_up=2)
for bad in [dict(base_lr=[0.1, 0.2], max_lr=1.0), dict(base_lr=0.1, max_lr=1.0, mode="sine"),
            dict(base_lr=0.1, max_lr=1.0, max_momentum=[0.1, 0.2])]:
    try:
        CyclicLR(torch.optim.SGD([w], lr=0.1, momentum=0.9), **bad)
    except ValueError as e:
        print("ValueError", e)
for make in [lambda: torch.optim.Rprop([w]), lambda: "sgd"]:
    try:
        CyclicLR(make(), base_lr=0.1, max_lr=1.0)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
try:
    torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD([w], lr=0.1, momentum=0.9),
                                        max_lr=[0.1, 0.2], total_steps=10)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(torch.optim.SGD([w], lr=0.1), min_lr=[0, 0])
except ValueError as e:
    print("ValueError", e)
''',
    'backward_pre_hooks': r'''
import torch
from torch.nn.modules.module import (register_module_full_backward_hook,
                                     register_module_full_backward_pre_hook)
torch.manual_seed(0)
layer = torch.nn.Linear(3, 2)
def show(name):
    def hook(module, grad_output):
        print(name, type(module).__name__, [None if g is None else g.shape for g in grad_output])
    return hook
layer.register_full_backward_pre_hook(show("second"))
layer.register_full_backward_pre_hook(show("first"), prepend=True)
doubled = layer.register_full_backward_pre_hook(lambda m, g: (g[0] * 2,))
layer.register_full_backward_hook(lambda m, gi, go: print("after", gi[0], go[0]))
x = torch.randn(4, 3, requires_grad=True)
layer(x).sum().backward()
print(x.grad, layer.bias.grad)
doubled.remove()
x.grad = None
layer.zero_grad()
layer(x).sum().backward()
print(x.grad, layer.bias.grad)
g1 = register_module_full_backward_pre_hook(lambda m, g: print("global pre", type(m).__name__))
g2 = register_module_full_backward_hook(lambda m, gi, go: print("global after", type(m).__name__))
net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Tanh())
net(x).sum().backward()
g1.remove()
g2.remove()
bad = torch.nn.Linear(3, 1)
bad.register_full_backward_pre_hook(lambda m, g: (g[0], g[0]))
try:
    bad(x).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
quiet = torch.nn.Linear(3, 1)
quiet.register_full_backward_pre_hook(lambda m, g: print("no input grad", g[0].shape))
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    quiet(torch.ones(2, 3)).sum().backward()
print([str(w.message)[:40] for w in caught], quiet.weight.grad)
''',
    'scatter_reduce': r'''
import torch
torch.manual_seed(0)
edges = torch.tensor([0, 0, 1, 3, 3, 3])
messages = torch.randn(6, 4, requires_grad=True)
index = edges.unsqueeze(-1).expand_as(messages)
for reduce in ["sum", "mean", "amax", "amin", "prod"]:
    nodes = torch.zeros(5, 4).scatter_reduce(0, index, messages, reduce, include_self=False)
    (grad,) = torch.autograd.grad((nodes * torch.arange(20.).reshape(5, 4)).sum(), messages)
    print(reduce, nodes, grad, nodes.grad_fn)
ties = torch.tensor([2., 5., 5.], requires_grad=True)
base = torch.tensor([5., 1.], requires_grad=True)
out = base.scatter_reduce(0, torch.tensor([0, 0, 0]), ties, "amax")
out.sum().backward()
print(out, ties.grad, base.grad)
zeros = torch.tensor([0., 3., 0., 0., 2.], requires_grad=True)
out = torch.scatter_reduce(torch.ones(3), 0, torch.tensor([0, 0, 1, 2, 2]), zeros, "prod")
out.backward(torch.tensor([1., 2., 3.]))
print(out, zeros.grad)
counts = torch.zeros(3, dtype=torch.long).scatter_reduce(0, torch.tensor([0, 0, 1]),
                                                         torch.tensor([3, 4, 5]), "mean")
print(counts, torch.tensor([1., 2.]).scatter_reduce(0, torch.tensor([1, 1]),
                                                     torch.tensor([4., 3.]), "max"))
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
y.scatter_reduce_(0, torch.tensor([2, 2]), torch.tensor([4., 0.5]), "mean")
y.sum().backward()
print(y, x.grad)
CALLS = [lambda: x.scatter_reduce(0, torch.tensor([0]), torch.ones(1), "add"),
         lambda: x.scatter_reduce(0, torch.tensor([0.]), torch.ones(1), "sum"),
         lambda: x.scatter_reduce(0, torch.tensor([4]), torch.ones(1), "sum"),
         lambda: x.scatter_reduce(0, torch.tensor([0]), torch.ones(1).double(), "sum"),
         lambda: x.scatter_reduce(0, torch.tensor([0]), torch.ones(1), "max").sum().backward()]
for call in CALLS:
    try:
        print(call())
    except RuntimeError as e:
        print("RuntimeError", e)
''',
    'index_reduce': r'''
import torch
x = torch.ones(3, 2, requires_grad=True)
src = torch.tensor([[2., 3], [4, 5], [6, 7]], requires_grad=True)
for r in ['prod', 'mean', 'amax', 'amin']:
    for own in (True, False):
        y = x.index_reduce(0, torch.tensor([0, 2, 0]), src, r, include_self=own)
        gx, gs = torch.autograd.grad((y * torch.tensor([[1., 2], [3, 4], [5, 6]])).sum(), (x, src))
        print(r, own, y, gx, gs)
z = torch.zeros(2, 4)
z.index_reduce_(1, torch.tensor([3, 0, 3]), torch.tensor([[1., 2, 9], [4, 0, 6]]), 'amax',
                include_self=False)
print(z)
for f in [lambda: torch.ones(3).index_reduce(0, torch.tensor([0]), torch.ones(2), 'sum'),
          lambda: torch.ones(3).index_reduce(0, torch.tensor([0.]), torch.ones(1), 'prod'),
          lambda: torch.ones(3).index_reduce(0, torch.tensor([0]), torch.ones(2), 'prod'),
          lambda: torch.ones(3).index_reduce(0, torch.tensor([0]), torch.ones(1).double(), 'prod'),
          lambda: torch.index_reduce(torch.ones(3), 0, torch.tensor([5]), torch.ones(1), 'mean')]:
    try:
        print(f())
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
''',
    'index_bounds': r'''
import torch
x = torch.arange(6.).reshape(2, 3)
ones = torch.ones(2, 3)
ops = {
    'gather': lambda i: x.gather(1, i),
    'gather dim 0': lambda i: x.gather(0, i),
    'scatter': lambda i: x.scatter(1, i, ones),
    'scatter value': lambda i: x.scatter(1, i, 2.0),
    'scatter_': lambda i: x.clone().scatter_(1, i, ones),
    'scatter_add': lambda i: x.scatter_add(1, i, ones),
    'scatter_add_': lambda i: x.clone().scatter_add_(1, i, ones),
    'scatter_reduce': lambda i: x.scatter_reduce(1, i, ones, 'amax'),
    'index_select': lambda i: x.index_select(1, i[0]),
    'index_select dim 0': lambda i: x.index_select(0, i[1]),
    'index_add': lambda i: x.index_add(1, i.reshape(-1)[:3], ones),
    'index_copy': lambda i: x.index_copy(1, i.reshape(-1)[:3], ones),
    'index_fill': lambda i: x.index_fill(1, i[0], -1.0),
    'index_fill_': lambda i: x.clone().index_fill_(1, i[0], -1.0),
}
for index in ([[0, 2], [1, 0]], [[0, -1], [1, 2]], [[0, 1], [-4, 2]], [[0, 5], [-1, 7]],
              [[2, 1], [0, -3]]):
    index = torch.tensor(index)
    for name, op in ops.items():
        try:
            print(name, op(index))
        except (RuntimeError, IndexError) as e:
            print(name, type(e).__name__, e)
w = torch.tensor([1., 2., 3.], requires_grad=True)
picked = w.index_fill(0, torch.tensor([-1]), 0.0).gather(0, torch.tensor([0, 2, 1]))
picked.sum().backward()
print(picked, w.grad)
''',
    'cauchy_and_geometric': r'''
import torch
from torch.distributions import Cauchy, Geometric
import torch.distributions.cauchy as cm
torch.manual_seed(7)
c = Cauchy(torch.tensor([0.0, 1.5]), torch.tensor([1.0, 0.5]))
print(c, c.batch_shape, c.event_shape, c.has_rsample)
print(c.sample(), c.sample((3,)))
print(c.mean, c.mode, c.variance, c.entropy())
x = torch.tensor([0.3, -2.0])
print(c.log_prob(x), c.cdf(x), c.icdf(torch.tensor([0.25, 0.9])))
loc = torch.tensor([0.5], requires_grad=True); scale = torch.tensor([2.0], requires_grad=True)
d = Cauchy(loc, scale)
s = d.rsample((4,))
print(s, s.grad_fn.name())
(d.log_prob(s.detach()).sum() + s.sum()).backward()
print(loc.grad, scale.grad)
print(Cauchy(0., 1.), Cauchy(0., 1.).sample(), Cauchy(0., 1.).batch_shape)
print(cm.Cauchy is Cauchy, Cauchy(0., 2.).expand((2,)).sample())
for bad in [lambda: Cauchy(0., -1.), lambda: Cauchy(torch.zeros(2), torch.tensor([1., 0.])),
            lambda: c.log_prob(torch.tensor([float('nan'), 1.]))]:
    try: bad()
    except ValueError as e: print('ValueError', e)
g = Geometric(torch.tensor([0.2, 0.7]))
print(g, g.sample(), g.sample((2,)))
print(g.mean, g.mode, g.variance, g.entropy(), g.logits)
print(g.log_prob(torch.tensor([0., 3.])))
g1 = Geometric(probs=torch.tensor([1.0, 0.5]))
print(g1.log_prob(torch.tensor([0., 2.])))
gl = Geometric(logits=torch.tensor([0.3, -1.0]))
print(gl, gl.probs, gl.sample())
p = torch.tensor([0.3], requires_grad=True)
Geometric(p).log_prob(torch.tensor([2.])).sum().backward(); print(p.grad)
print(Geometric(0.25).sample((3,)), Geometric(0.25))
for bad in [lambda: Geometric(torch.tensor([0.0, 0.5])), lambda: Geometric(1.5),
            lambda: Geometric(), lambda: g.log_prob(torch.tensor([0.5, 1.])),
            lambda: g.log_prob(torch.tensor([-1., 1.]))]:
    try: bad()
    except ValueError as e: print('ValueError', e)
print(torch.empty(4).cauchy_(generator=torch.Generator().manual_seed(3)))
print(torch.empty(2, 3).log_normal_(0.0, 0.25), torch.empty(5, dtype=torch.int32).geometric_(0.4))
w = torch.randn(3, requires_grad=True)
y = (w * 2).cauchy_()
print(y.grad_fn.name(), (w * 1).log_normal_().grad_fn.name(),
      (w * 1).geometric_(0.5).grad_fn.name())
y.sum().backward(); print(w.grad)
''',
    'state_dict_hooks': r'''
import torch
from torch import nn
torch.manual_seed(0)
shared = nn.Linear(2, 2)
model = nn.Sequential(shared, nn.ReLU(), shared, nn.BatchNorm1d(2))
sd = model.state_dict()
print(list(sd), sd._metadata)
print(list(model.state_dict(prefix="net.", keep_vars=True).items())[0])
seen = []
model[0].register_state_dict_pre_hook(lambda m, prefix, keep_vars: seen.append((prefix, keep_vars)))
def drop_bias(module, state, prefix, meta):
    state.pop(prefix + "bias")
model[3]._register_state_dict_hook(drop_bias)
def rename(module, state, prefix, meta):
    return {k.replace("running", "avg"): v for k, v in state.items()}
model._register_state_dict_hook(rename)
print(list(model.state_dict()), seen)
h = model.register_state_dict_post_hook(
    lambda m, s, p, meta: s.setdefault("note", torch.tensor(1.0)))
try:
    model.state_dict()
except RuntimeError as e:
    print("RuntimeError", e)
h.remove()
m2 = nn.Linear(2, 2)
def forgive(module, keys):
    print("post", type(module).__name__, keys.missing_keys, keys.unexpected_keys)
    keys.missing_keys.clear()
m2.register_load_state_dict_post_hook(forgive)
print(m2.load_state_dict({"weight": torch.ones(2, 2)}))
print(m2.weight, m2.bias.shape)
def bad(module, keys):
    return keys
m3 = nn.Linear(1, 1)
m3.register_load_state_dict_post_hook(bad)
try:
    m3.load_state_dict(m3.state_dict())
except AssertionError as e:
    print("AssertionError", e)
print(list(nn.Linear(1, 1).state_dict(None, "p.")))
class WithExtra(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(1))
        self.count = 3
    def get_extra_state(self):
        return {"count": self.count}
    def set_extra_state(self, state):
        self.count = state["count"]
print(WithExtra().state_dict())
source, target = WithExtra(), WithExtra()
source.count = 7
print(target.load_state_dict(source.state_dict()), target.count)
try:
    target.load_state_dict({"w": torch.zeros(1)})
except RuntimeError as e:
    print("RuntimeError", e)
''',
    'gradcheck_calls': r'''
import torch
torch.manual_seed(0)
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        print("forward", x.tolist())
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        print("backward", g.tolist())
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g
for shape in [(2,), (2, 2)]:
    x = torch.randn(*shape, dtype=torch.double, requires_grad=True)
    print(shape, torch.autograd.gradcheck(Cube.apply, (x,)))
x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (x,), fast_mode=True))
print(torch.rand(2))
y = (torch.rand(2, dtype=torch.double) + 0.5).requires_grad_()
print(torch.autograd.gradcheck(lambda a, b: Cube.apply(a) * b,
                               (x[:2].detach().requires_grad_(), y), fast_mode=True))
print(torch.autograd.gradgradcheck(Cube.apply, (x,)))
print(torch.rand(2))
''',
    'swa_utils': r'''
import torch
from torch import nn
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn, get_ema_multi_avg_fn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
swa_model = AveragedModel(model)
ema_model = torch.optim.swa_utils.AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
scheduler = SWALR(optimizer, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
data = torch.randn(16, 3)
target = torch.randn(16, 1)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, target), batch_size=4)
for epoch in range(5):
    for x, y in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    swa_model.update_parameters(model)
    ema_model.update_parameters(model)
    scheduler.step()
    print(epoch, scheduler.get_last_lr(), swa_model.n_averaged)
update_bn(loader, swa_model)
print(swa_model)
print(swa_model.module[0].weight, ema_model.module[3].bias, swa_model.module[1].running_mean)
swa_model.eval()
print(swa_model(data[:2]))
cosine = SWALR(torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0), swa_lr=[0.1],
               anneal_epochs=2)
print([cosine.get_last_lr()] + [(cosine.step(), cosine.get_last_lr())[1] for _ in range(3)])
print(type(swa_model), sorted(cosine.state_dict()))
for bad in [lambda: SWALR(optimizer, 0.1, anneal_strategy="exp"),
            lambda: SWALR(optimizer, 0.1, anneal_epochs=-1),
            lambda: get_ema_multi_avg_fn(1.5)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
''',
    'scheduler_order_warnings': r'''
import torch
weights = [torch.nn.Parameter(torch.ones(2))]
optimizer = torch.optim.SGD(weights, lr=0.1)
schedule = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(4):
    schedule.step()
    print(epoch, schedule.get_last_lr())
second = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)
optimizer.step()
second.step()
second.step(5)
print(second.get_last_lr(), optimizer.param_groups[0]["lr"])
other = torch.optim.Adam(weights)
third = torch.optim.lr_scheduler.LinearLR(other)
other.step = lambda closure=None: None
third.step()
print(third.get_last_lr())
for make in [lambda o: torch.optim.lr_scheduler.StepLR(o, 2, 0.5),
             lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [1, 3, 3], 0.5),
             lambda o: torch.optim.lr_scheduler.ConstantLR(o, 0.5, 3),
             lambda o: torch.optim.lr_scheduler.LinearLR(o, 0.2, 1.0, 4),
             lambda o: torch.optim.lr_scheduler.PolynomialLR(o, 5, 2.0),
             lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 6, 0.01),
             lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.9 ** e)]:
    opt = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1.0)
    sched = make(opt)
    opt.step()
    print(type(sched).__name__,
          [(sched.step(epoch), sched.get_last_lr())[1] for epoch in (2, 4, 1)])
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_pasted_code_runs_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
