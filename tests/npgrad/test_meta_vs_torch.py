"""Meta tensors (a shape and a dtype without values): Module.to('meta'), torch.empty(...,
device='meta'), their printing and copies, and functional_call through a meta model, as torch
prints them; computing with one says the NumPy engine lacks it (torch computes shapes)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

META = """import copy
import torch
from torch import nn
from torch.func import functional_call

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
stateless = copy.deepcopy(model).to("meta")
p = stateless[0].weight
print(p, type(p).__name__, p.device, p.is_meta, p.shape, p.dtype, p.requires_grad)
print(stateless[1].running_mean, stateless[1].num_batches_tracked)
print(stateless)
print(torch.empty(2, 3, device="meta"), torch.zeros(2, dtype=torch.float64, device="meta"))
print(torch.ones(2, requires_grad=True).to("meta").requires_grad,
      torch.ones(2).to(torch.device("meta")).device)
print(torch.device("meta"), repr(torch.device("meta")), torch.ones(1).device,
      model[0].weight.is_meta)
twin = copy.deepcopy(stateless)
print(twin[0].bias)
x = torch.randn(5, 3)
state = {**dict(model.named_parameters()), **dict(model.named_buffers())}
out = functional_call(stateless, state, (x,))
print(out, torch.equal(out, model(x)))
print(torch.empty(3, device="meta").to(torch.float64))
"""


def test_meta_models_and_tensors_print_as_torchs(tmp_path):
    assert_playground_prints_as_torch(META, tmp_path)


def test_computing_with_a_meta_tensor_names_what_is_missing(engine):
    layer = engine.nn.Linear(3, 2).to("meta")
    for compute in (lambda: layer(engine.ones(1, 3)), lambda: layer.weight * 2,
                    lambda: layer.weight.sum(), lambda: layer.weight.tolist()):
        with pytest.raises(NotImplementedError, match="computing with meta tensors .* switch "
                                                      "the engine to torch"):
            compute()
    engine.set_default_device("meta")  # (meta tensors made by default: shapes only)
    try:
        with pytest.raises(NotImplementedError, match="computing with meta tensors"):
            engine.zeros(2).sum()
    finally:
        engine.set_default_device(None)  # (naming "cpu" would leave torch's mode on)
    assert engine.zeros(2).sum().item() == 0
