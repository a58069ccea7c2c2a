"""SequentialLR (a warm-up, then a decay, each taking over at its milestone from its closed
form) and ChainedScheduler on npgrad against real torch, run here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, CosineAnnealingLR,
                                      ExponentialLR, LinearLR, SequentialLR, StepLR)
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.1)
warm = LinearLR(opt, start_factor=0.1, total_iters=3)
decay = CosineAnnealingLR(opt, T_max=6, eta_min=0.001)
sched = SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
rates = []
for epoch in range(10):
    opt.step()
    rates.append(round(sched.get_last_lr()[0], 6))
    sched.step()
print(rates, warm.last_epoch, decay.last_epoch, sched.last_epoch)
opt2 = torch.optim.SGD([w], lr=0.05)
s2 = SequentialLR(opt2, [ConstantLR(opt2, factor=0.1, total_iters=2), ExponentialLR(opt2, 0.9),
                         StepLR(opt2, 2, 0.5)], milestones=[2, 5])
out = []
for _ in range(9):
    opt2.step()
    s2.step()
    out.append(round(opt2.param_groups[0]["lr"], 6))
print(out)
opt3 = torch.optim.Adam([w], lr=1.0)
s3 = ChainedScheduler([ConstantLR(opt3, factor=0.5, total_iters=2),
                      ExponentialLR(opt3, gamma=0.9)])
out = []
for _ in range(5):
    opt3.step()
    s3.step()
    out.append(round(s3.get_last_lr()[0], 6))
print(out, sorted(s3.state_dict()))
for bad in (lambda: SequentialLR(opt2, [ExponentialLR(opt2, 0.9)], milestones=[1]),
            lambda: SequentialLR(opt2, [], milestones=[])):
    try:
        bad()
    except ValueError as error:
        print(error)
"""


def test_chained_schedulers_set_torchs_rates(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
