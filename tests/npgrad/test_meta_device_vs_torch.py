"""The meta device against torch run here: a layer given ``device='meta'``, a ``with
torch.device('meta')`` block and ``set_default_device('meta')`` make shapes without values
and draw no random numbers (the next ``torch.rand`` is torch's); ``nn.init`` on a meta tensor
is a no-op; ``Module.to_empty`` gives the parameters memory again, to be filled by
reset_parameters or a state dict. A device block, and set_default_device naming any device
(the CPU too), put torch's device mode on: has_torch_function is then True for any non-empty
arguments."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import torch
from torch import nn
torch.manual_seed(0)
m = nn.Linear(3, 2, device="meta")
print(m.weight, torch.rand(1))
with torch.device("meta"):
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.LayerNorm(8), nn.Linear(8, 1))
    t = torch.ones(2)
print(net[0].weight.device, net[2].weight, t.device, torch.rand(1), torch.ones(1).device)
print(torch.get_default_device())
net.to_empty(device="cpu")
weight = net[0].weight
print(weight.shape, weight.device, weight.requires_grad, type(weight).__name__)
for layer in net:
    if hasattr(layer, "reset_parameters"):
        layer.reset_parameters()
print(net[0].weight, net[2].weight, net[3].bias)
print(net(torch.ones(2, 4)))
conv = nn.Conv2d(1, 2, 3, device="meta")
emb = nn.Embedding(5, 2, device=torch.device("meta"))
print(conv.weight.shape, conv.weight.device, emb.weight.device)
emb.to_empty(device="cpu", recurse=False)
print(emb.weight.device)
sd = nn.Linear(3, 2).state_dict()
shell = nn.Linear(3, 2, device="meta").to_empty(device="cpu")
print(shell.load_state_dict(sd), torch.equal(shell.weight, sd["weight"]))
bn = nn.BatchNorm1d(3, device="meta")
print(bn.running_mean, bn.num_batches_tracked)
print(bn.to_empty(device="meta").running_var)
torch.set_default_device("meta")
print(torch.zeros(2), torch.randn(3))
torch.set_default_device(None)
print(torch.zeros(2), torch.get_default_device(), torch.rand(1))
for init in (torch.nn.init.trunc_normal_, torch.nn.init.orthogonal_, torch.nn.init.eye_,
             torch.nn.init.xavier_uniform_, lambda w: torch.nn.init.trunc_normal_(w, a=3, b=4)):
    print(init(torch.empty(3, 4, device="meta")), torch.rand(1))
print(torch.nn.init.dirac_(torch.empty(4, 2, 3, device="meta")))
try:
    torch.nn.init.eye_(torch.empty(3, device="meta"))
except ValueError as error:
    print(error)
'''


def test_meta_device_prints_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


MODES = r'''
import torch
import torch.nn.functional as F
x = torch.ones(2)
print(F.has_torch_function((x,)), F.has_torch_function_unary(x),
      F.has_torch_function_variadic(x, 1))
with torch.device('cpu'):
    print(F.has_torch_function((x,)), torch.overrides.has_torch_function((1,)))
    with torch.device('meta'):
        print(F.has_torch_function((x,)))
print(F.has_torch_function((x,)))
torch.set_default_device('cpu')
print(F.has_torch_function((x,)), torch.get_default_device(), torch.ones(1).device)
with torch.device('meta'):
    print(F.has_torch_function(()), torch.ones(1).device)
torch.set_default_device(None)
print(F.has_torch_function((x,)), torch.get_default_device())
torch.set_default_device('cpu'); torch.set_default_device('cpu'); torch.set_default_device(None)
print(F.has_torch_function((x,)))
with torch.device('cpu'):
    print(F.has_torch_function(()), F.has_torch_function([]), F.has_torch_function((1,)),
          F.has_torch_function_variadic(), F.has_torch_function_unary(1))
    try:
        F.has_torch_function(None)
    except TypeError as e:
        print(e)
for s in ([1], 'ab', range(2), (i for i in [1])):
    print(torch.overrides.has_torch_function(s))
with torch.device('cpu'):
    for s in ([1], 'ab', range(0), (i for i in [1])):
        print(torch.overrides.has_torch_function(s))
'''


def test_device_modes_make_has_torch_function_true_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(MODES, tmp_path)
