"""The device modules a script asks before it picks a device, against torch run here:
torch.xpu as a torch built without XPU answers, torch.get_device_module, the accelerator
idiom of PyTorch's current tutorials; and the deprecated torch.nn.utils.stateless
functional_call with torch's FutureWarning."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import torch
from torch import nn
print(torch.xpu.is_available(), torch.xpu.device_count(), torch.xpu.is_initialized())
for f in ('synchronize', 'current_device', 'get_device_name'):
    try:
        print(f, getattr(torch.xpu, f)())
    except AssertionError as e:
        print(f, type(e).__name__, e)
print(torch.xpu.manual_seed(3), torch.xpu.empty_cache())
print(torch.get_device_module() is torch.cpu, torch.get_device_module('cuda') is torch.cuda,
      torch.get_device_module(torch.device('cpu')) is torch.cpu,
      torch.get_device_module('xpu:0') is torch.xpu)
for bad in (3, 'meta'):
    try:
        torch.get_device_module(bad)
    except RuntimeError as e:
        print(type(e).__name__, e)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(device)
torch.manual_seed(0)
model = nn.Linear(2, 1)
params = {name: p.detach() * 2 for name, p in model.named_parameters()}
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = torch.nn.utils.stateless.functional_call(model, params, torch.ones(3, 2))
print(out, [(w.category.__name__, str(w.message)) for w in caught])
print(torch.nn.utils.stateless.functional_call(model, params, (torch.ones(1, 2),)))
'''


def test_device_modules_print_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
