"""The engine's classes print where torch keeps them (``<class 'torch.nn.modules.linear.
Linear'>``, not the engine's file), import from those modules, and still pickle, save and
copy: against torch run here."""

from __future__ import annotations

import pickle

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import copy
import io
import pickle
import torch
import torch.nn as nn
from torch.nn.modules.loss import MSELoss, _Loss
from torch.optim.sgd import SGD
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Dropout(0.1), nn.LayerNorm(2), nn.PReLU())
print(type(model), type(model[0]), type(model[3]), type(model[4]))
print(type(torch.tensor([1.0])), type(nn.Parameter(torch.ones(1))), type(torch.float32))
print(type(torch.Size([2])), type(torch.manual_seed(1)), torch.nn.Module, torch.nn.LSTM)
print(type(torch.optim.Adam(model.parameters())), torch.optim.lr_scheduler.StepLR, SGD)
print(type(torch.distributions.Normal(0.0, 1.0)), torch.distributions.Beta, type(torch.no_grad()))
print(torch.utils.data.DataLoader, torch.utils.data.TensorDataset, torch.autograd.Function)
print(torch.typename(model), torch.typename(torch.ones(1)), MSELoss.__mro__[1] is _Loss)
class Custom(_Loss):
    def forward(self, a, b):
        return (a - b).abs().mean()
print(Custom(), Custom.__mro__[1:3], Custom().reduction)
saved = io.BytesIO()
torch.save(model, saved)
saved.seek(0)
restored = torch.load(saved, weights_only=False)
print(type(restored[0]), restored[0].weight)
print(pickle.loads(pickle.dumps(nn.Tanh())), pickle.loads(pickle.dumps([torch.optim.SGD, nn.GELU])))
print(copy.deepcopy(model)[0].bias)
'''


SMALL_PIECES = r'''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler, get_worker_info
torch.manual_seed(0)
labels = torch.tensor([0, 0, 0, 0, 1, 1, 0, 0])
counts = torch.bincount(labels)
weights = (1.0 / counts.float())[labels]
sampler = WeightedRandomSampler(weights, num_samples=8, replacement=True)
print(list(sampler), len(sampler), type(sampler), sampler.weights.dtype)
loader = DataLoader(TensorDataset(torch.arange(8.), labels), batch_size=4, sampler=sampler)
for xb, yb in loader:
    print(xb, yb)
print(list(WeightedRandomSampler([0.1, 0.9, 0.5], 2, replacement=False)), get_worker_info())
for bad in [lambda: WeightedRandomSampler([1.0], 0), lambda: WeightedRandomSampler([[1.0]], 1),
            lambda: WeightedRandomSampler([1.0], 1, replacement=1)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
x = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
print(nn.UpsamplingNearest2d(scale_factor=2)(x).shape,
      nn.UpsamplingBilinear2d(size=(3, 3))(x))
unfold = nn.Unfold(kernel_size=2, stride=2)
patches = unfold(x)
print(unfold, patches.shape, patches.grad_fn.name())
fold = nn.Fold(output_size=(4, 4), kernel_size=2, stride=2)
back = fold(patches)
print(fold, torch.equal(back, x), type(fold))
back.sum().backward()
print(x.grad.sum())
t = torch.ones(3)
print(t.is_pinned(), t.is_shared(), t.share_memory_() is t, t.is_shared())
try:
    t.pin_memory()
except RuntimeError as e:
    print("RuntimeError", e)
'''


def test_weighted_sampling_upsampling_folding_and_memory_questions_as_on_torch(tmp_path):
    """WeightedRandomSampler (torch's multinomial draws), get_worker_info, the older
    upsampling modules, Unfold and Fold, and a tensor's pinned and shared questions."""
    assert_playground_prints_as_torch(SMALL_PIECES, tmp_path)


LAZY_MODULES = r'''
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
print(net)
print(net[0].weight)
x = torch.randn(3, 5)
out = net(x)
print(net)
print(net[0].weight, out)
print(type(net[0]), isinstance(net[0], nn.Linear))
conv = nn.LazyConv2d(3, kernel_size=2)
print(conv(torch.randn(1, 2, 4, 4)).shape, conv)
bn = nn.LazyBatchNorm2d()
print(bn, bn.weight, bn.running_mean)
y = bn(torch.randn(2, 3, 2, 2))
print(bn, bn.running_mean, bn.weight, type(bn))
model = nn.Sequential(nn.LazyConv2d(4, 3, padding=1), nn.LazyBatchNorm2d(), nn.ReLU(),
                      nn.Flatten(), nn.LazyLinear(2))
print(model)
out = model(torch.randn(2, 1, 5, 5))
out.sum().backward()
print(model, model[4].weight.grad.shape, out)
print(len(list(model.parameters())), [p.shape for p in model.parameters()])
lin = nn.LazyLinear(3)
try:
    lin(torch.randn(2, 4), torch.randn(1))
except TypeError as e:
    print("TypeError", e)
print(nn.LazyConv1d(2, 2)(torch.randn(3, 5)).shape)
'''


def test_lazy_modules_take_their_sizes_from_the_first_input_as_on_torch(tmp_path):
    """Dive into Deep Learning's way of building models: uninitialized parameters until the
    first call, torch's initial values then, and the plain module's class after."""
    assert_playground_prints_as_torch(LAZY_MODULES, tmp_path)


LOCAL_RESPONSE_NORM = r'''
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(2, 6, 3, 3, requires_grad=True)
lrn = nn.LocalResponseNorm(3)
y = lrn(x)
print(lrn, type(lrn), y.grad_fn.name(), y[0, :, 0, 0])
y.pow(2).sum().backward()
print(x.grad[0, :3, 0])
z = torch.randn(2, 5, 4, requires_grad=True)
w = nn.functional.local_response_norm(z, size=2, alpha=0.1, beta=0.5, k=2.0)
print(w[1, :, 1], w.grad_fn.name())
w.sum().backward()
print(z.grad[0])
print(nn.functional.local_response_norm(torch.randn(1, 3, 2, 2, 2), 4).shape)
alexnet_block = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(),
                              nn.LocalResponseNorm(5, 1e-4, 0.75, 2.0))
print(alexnet_block, alexnet_block(torch.randn(1, 3, 5, 5)).sum())
try:
    lrn(torch.randn(4, 3))
except ValueError as e:
    print("ValueError", e)
'''


def test_alexnets_local_response_norm_as_on_torch(tmp_path):
    assert_playground_prints_as_torch(LOCAL_RESPONSE_NORM, tmp_path)


MAX_UNPOOL = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
pool = nn.MaxPool2d(2, return_indices=True)
unpool = nn.MaxUnpool2d(2)
p, idx = pool(x)
u = unpool(p, idx)
print(unpool, nn.MaxUnpool2d(3, stride=2, padding=1), nn.MaxUnpool1d(2), type(unpool))
print(u, u.grad_fn.name())
(u * torch.arange(32.).reshape(1, 2, 4, 4)).sum().backward()
print(x.grad[0, 0])
print(F.max_unpool2d(p, idx, 2, output_size=(5, 5)).shape,
      unpool(p, idx, output_size=[1, 2, 5, 5]).shape)
wrong = idx[:, :1].clone()
wrong[0, 0, 1, 0] = 20  # (one bad index: torch's threads name one of several as they come)
for bad in [lambda: F.max_unpool2d(p[:, :1], wrong, 2),
            lambda: F.max_unpool2d(p, idx, 2, output_size=(9, 9)),
            lambda: F.max_unpool2d(p, idx, 2, output_size=(4, 4, 4))]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
torch.set_num_threads(1)  # (one thread names the last bad index of all; several race)
wrong = idx.clone().view(-1)
wrong[[1, 5, wrong.numel() // 2, -3]] = torch.tensor([-1, 700, 900, 800])
try:
    F.max_unpool2d(p, wrong.view(idx.shape), 2)
except RuntimeError as e:
    print(e)
s = torch.randn(1, 1, 6, requires_grad=True)
q, i1 = F.max_pool1d(s, 2, return_indices=True)
r = F.max_unpool1d(q, i1, 2)
print(r, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name())
r.sum().backward()
print(s.grad, nn.MaxUnpool1d(2)(q, i1).shape)
'''


def test_max_unpooling_puts_values_back_as_on_torch(tmp_path):
    assert_playground_prints_as_torch(MAX_UNPOOL, tmp_path)


def test_classes_print_import_and_pickle_as_on_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


def test_outside_the_alias_the_engine_pickles_its_classes_by_their_own_modules(tmp_path):
    """torch.save in a process without the alias (the tests, a tool): found by the engine's
    own module path, which each renamed class keeps."""
    model = pg.nn.Sequential(pg.nn.Linear(2, 1), pg.nn.Hardtanh())
    path = tmp_path / "model.pt"
    pg.save(model, path)
    back = pg.load(path, weights_only=False)
    assert type(back[1]) is pg.nn.Hardtanh and type(back[0]).__module__ == \
        "torch.nn.modules.linear"
    assert pg.nn.Linear._engine_home == "playground.npgrad.nn.modules"
    assert pickle.loads(pickle.dumps(pg.float32)) == pg.float32
