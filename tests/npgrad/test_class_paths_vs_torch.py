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
