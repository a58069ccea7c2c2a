"""The container and layer methods torch's own classes have beyond Module's, on npgrad
against real torch run here: Sequential.insert/extend/pop and deleting from it (renumbered),
ModuleList.pop, BatchNorm's reset_running_stats/reset_parameters, LayerNorm's
reset_parameters, an RNN's flatten_parameters and all_weights."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch import nn
torch.manual_seed(0)
s = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
s.insert(1, nn.Tanh())
s.insert(-1, nn.Identity())
s.extend(nn.Sequential(nn.Linear(3, 1), nn.Sigmoid()))
print(s, s.pop(2), len(s))
del s[0:2]
print(s, list(s.state_dict()))
l = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.GELU()])
print(l.pop(1), l)
bn = nn.BatchNorm1d(3)
bn(torch.randn(4, 3) * 3 + 1)
print(bn.running_mean, bn.num_batches_tracked)
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
with torch.no_grad():
    bn.weight.mul_(3)
bn.reset_parameters()
print(bn.weight)
ln = nn.LayerNorm(2)
with torch.no_grad():
    ln.bias.add_(1)
ln.reset_parameters()
print(ln.bias)
lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True)
lstm.flatten_parameters()
print([[w.shape for w in layer] for layer in lstm.all_weights])
def delete_far():
    del s[9]
for bad in [lambda: s.insert(9, nn.ReLU()), lambda: s.insert(0, 3), delete_far]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""


def test_containers_and_layers_have_torchs_own_methods(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
