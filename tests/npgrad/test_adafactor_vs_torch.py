"""``torch.optim.Adafactor`` against torch run here: its group's settings as torch prints them,
its state (a matrix's row and column means, a vector's whole second moment), weight decay,
maximize, the RMS clip ``d`` and ``eps``, torch's refusals of bad settings and of complex
parameters. A float64 parameter follows torch's bit for bit; a network's values are printed
rounded, because its float32 row norms (and float64 matrix products) end in other last bits
than torch's vectorised kernels give."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 1)).double()
x, y = torch.randn(16, 5, dtype=torch.float64), torch.randn(16, 1, dtype=torch.float64)
opt = torch.optim.Adafactor(model.parameters())
print(opt)
print(type(opt))
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 8))
print([[round(v, 8) for v in row] for row in model[0].weight.tolist()])
print({k: (v.shape if hasattr(v, "shape") else v) for k, v in opt.state[model[0].weight].items()})
print([round(v, 10) for v in opt.state[model[0].bias]["variance"].tolist()])
small = nn.Linear(3, 2)
opt3 = torch.optim.Adafactor(small.parameters(), lr=0.1)
for _ in range(3):
    opt3.zero_grad()
    small(torch.ones(4, 3)).pow(2).mean().backward()
    opt3.step()
print([[round(v, 4) for v in row] for row in small.weight.tolist()], small.weight.dtype)
print(opt.state_dict()["param_groups"])
w = torch.randn(3, 4, 5, dtype=torch.float64, requires_grad=True)
opt2 = torch.optim.Adafactor([w], lr=0.05, weight_decay=0.1, maximize=True, d=2.0,
                             eps=(1e-20, 1e-2), beta2_decay=-0.5)
for _ in range(5):
    opt2.zero_grad()
    (w.sin() * w).sum().backward()
    opt2.step()
print(w.sum().item(), w[0, 0].tolist())
print(opt2.state[w]["row_var"].shape, opt2.state[w]["col_var"].shape)
for kwargs in ({"lr": -1}, {"beta2_decay": 0.5}, {"eps": (-1, 1e-3)}, {"eps": (None, -1)},
               {"d": 0.5}, {"weight_decay": -1}):
    try:
        torch.optim.Adafactor([w], **kwargs)
    except ValueError as e:
        print(e)
z = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
z.grad = torch.ones(2, dtype=torch.complex64)
try:
    torch.optim.Adafactor([z]).step()
except RuntimeError as e:
    print(e)
'''


def test_adafactor_steps_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
