"""Small things a wider sample of pasted code found, each against torch run here: a maths
function given a Python number, clamp's bounds of two kinds, functional_call(strict=True),
resize_ and as_strided_, a module's dir() (completion, "Did you mean") and half(),
nn.init.dirac_, F.logsigmoid's name; and checkpoint's warning of inputs without gradients."""

from __future__ import annotations

import warnings

import pytest

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_argument_checks_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
calls = [
    lambda: torch.clamp(torch.tensor([0.5, 1.5]), min=torch.tensor([0.8, 0.8]), max=1.2),
    lambda: torch.clamp(torch.tensor([0.5, 1.5]), min=0.8, max=torch.tensor([1.2, 1.2])),
    lambda: torch.clamp(torch.tensor([0.5, 1.5]), min=torch.tensor([0.8, 0.8]),
                        max=torch.tensor([1.2, 1.0])),
    lambda: torch.sqrt(2. / 3), lambda: torch.exp(1), lambda: torch.tanh([1.0]),
    lambda: torch.sigmoid(0.5), lambda: torch.relu(1.0), lambda: torch.abs(-1),
    lambda: torch.log(2.0), lambda: torch.sin(None),
    lambda: torch.func.functional_call(nn.Linear(2, 1), {"weight": torch.zeros(1, 2)},
                                       (torch.ones(1, 2),), strict=True),
    lambda: torch.func.functional_call(
        nn.Linear(2, 1), {"weight": torch.zeros(1, 2), "bias": torch.zeros(1),
                          "extra": torch.zeros(1)}, (torch.ones(1, 2),), strict=True),
    lambda: torch.func.functional_call(
        nn.Linear(2, 1), {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
        (torch.ones(1, 2),), strict=True),
    lambda: F.logsigmoid.__name__,
    lambda: torch.zeros(2).resize_(3).shape,
    lambda: torch.arange(6.).resize_(2, 2),
    lambda: torch.arange(6.).resize_(2, 3),
    lambda: torch.arange(4.).resize_as_(torch.ones(1, 2)),
    lambda: torch.arange(4.).as_strided_((2,), (2,)),
    lambda: torch.ones(2, requires_grad=True).resize_(3),
    lambda: "weight" in dir(nn.Linear(2, 2)),
    lambda: [name for name in dir(nn.Sequential(nn.Linear(1, 1))) if name[0].isdigit()],
    lambda: nn.Linear(2, 2).half().weight.dtype,
    lambda: nn.init.dirac_(torch.empty(2, 2, 3)),
    lambda: nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2)[:, :, 1, 1],
    lambda: nn.init.dirac_(torch.empty(2, 2)),
    lambda: nn.init.dirac_(torch.empty(3, 2, 3), groups=2),
]
for call in calls:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
shared = nn.Linear(1, 1)
model = nn.Sequential(shared, shared)
print([name for name, _ in model.named_parameters(remove_duplicate=False)],
      [name for name, _ in model.named_modules(remove_duplicate=False)],
      [name for name, _ in model.named_parameters()])
''', tmp_path)


def test_checkpoint_says_when_no_input_needs_a_gradient():
    weight = pg.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = pg.utils.checkpoint.checkpoint(lambda t: (t * weight).sum(), pg.ones(2),
                                             use_reentrant=True)
    assert [str(w.message) for w in caught] == [
        "None of the inputs have requires_grad=True. Gradients will be None"]
    assert not out.requires_grad
