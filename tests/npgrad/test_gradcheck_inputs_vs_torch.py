"""gradcheck and gradgradcheck treat their inputs as torch's do: an input whose elements
overlap (an ``expand``) is refused in torch's words, after gradgradcheck has drawn its random
grad_outputs (so later random numbers stay torch's); an input that is a view of another moves
both when its finite differences perturb it; an output that is an input itself is read before
it changes; a mismatch names the input by its place among those that require grad, and a
float32 input's Jacobians are float32."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_gradchecks_inputs_are_checked_and_perturbed_as_torchs(tmp_path):
    assert_playground_prints_as_torch('''
import warnings
import torch
from torch.autograd import gradcheck, gradgradcheck
warnings.simplefilter("ignore")  # (float32 inputs' warning: its line is torch's own file)
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.double, requires_grad=True)
y = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
cases = [
    (lambda t: t * 2, (x.expand(2, 3),)),
    (lambda t: t * 2, (torch.randn(1, dtype=torch.double, requires_grad=True).expand(3),)),
    (lambda a, b: a * b, (x, x)),
    (lambda a, b: a * b, (y, y[0].expand(2, 2))),
    (lambda a, n, b: a * n + b, (y, 3, y.t())),  # b is a view of a: both move
    (lambda a: a.sum(1), (torch.randn(3, 1, dtype=torch.double).expand(3, 4).requires_grad_(),)),
    (lambda a: (a * a, a), (x,)),  # an output that is the input itself
    (lambda a, b: a * b * b, (x.float().detach().requires_grad_(), x.float().detach())),
]
for f, args in cases:
    for check in (gradcheck, gradgradcheck):
        try:
            print(check.__name__, check(f, args))
        except Exception as e:
            print(check.__name__, type(e).__name__, e)
print(torch.randn(2))  # the random stream after gradgradcheck's draws
''', tmp_path)
