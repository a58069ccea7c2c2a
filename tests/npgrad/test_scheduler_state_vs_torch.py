"""Learning-rate schedulers' state_dict and load_state_dict on the NumPy engine against
torch run here (the checkpoint recipes save and load them)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_lambda_schedulers_save_their_rules_as_torch_does(tmp_path):
    """LambdaLR and MultiplicativeLR save None for a plain function and a callable object's
    __dict__, last; loading gives the object its state back."""
    assert_playground_prints_as_torch('''
import torch
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 0.95 ** e)
print(s.state_dict())
class Rule:
    def __init__(self):
        self.factor = 0.5
    def __call__(self, epoch):
        return self.factor ** epoch
m = torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=Rule())
m.step()
state = m.state_dict()
print(state)
state["lr_lambdas"][0]["factor"] = 0.25
m2 = torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=Rule())
m2.load_state_dict(state)
print(m2.lr_lambdas[0].factor, m2.last_epoch, isinstance(m2, torch.optim.lr_scheduler.LambdaLR))
for call in [lambda: torch.optim.lr_scheduler.MultiplicativeLR(opt, lr_mult=0.1),
             lambda: torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1, lambda e: 2])]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)
''', tmp_path)


def test_schedulers_load_what_they_saved(tmp_path):
    """StepLR and ReduceLROnPlateau (its attributes in torch's order) and OneCycleLR (its
    phases as torch keeps them)."""
    assert_playground_prints_as_torch('''
import torch
opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
s = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
for _ in range(3):
    opt.step(); s.step()
state = s.state_dict()
print(state)
t = torch.optim.lr_scheduler.StepLR(opt, 5)
t.load_state_dict(state)
print(t.step_size, t.last_epoch, t.get_last_lr())
r = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
r.step(1.0)
print(r.state_dict())
r.load_state_dict(r.state_dict())
o = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
print(sorted(o.state_dict()))
print(o.state_dict())
o2 = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, three_phase=True)
print(o2._schedule_phases)
for _ in range(9):
    opt.step(); o2.step()
print(o2.get_last_lr(), opt.param_groups[0]["momentum"])
''', tmp_path)


def test_every_scheduler_saves_and_loads_as_torch(tmp_path):
    """The other schedulers' keys and values after three steps, loaded into a fresh one;
    CosineAnnealingWarmRestarts keeps torch's _step_count of 0."""
    assert_playground_prints_as_torch('''
import torch
from torch.optim import lr_scheduler as L
def fresh():
    return torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1, momentum=0.9)
makers = {
    "StepLR": lambda o: L.StepLR(o, 2),
    "MultiStepLR": lambda o: L.MultiStepLR(o, [2, 4]),
    "ExponentialLR": lambda o: L.ExponentialLR(o, 0.9),
    "CosineAnnealingLR": lambda o: L.CosineAnnealingLR(o, 5),
    "ConstantLR": lambda o: L.ConstantLR(o),
    "LinearLR": lambda o: L.LinearLR(o),
    "PolynomialLR": lambda o: L.PolynomialLR(o),
    "CosineAnnealingWarmRestarts": lambda o: L.CosineAnnealingWarmRestarts(o, 3),
    "CyclicLR": lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2),
    "SequentialLR": lambda o: L.SequentialLR(o, [L.ConstantLR(o), L.ExponentialLR(o, 0.9)],
                                             milestones=[2]),
    "ChainedScheduler": lambda o: L.ChainedScheduler([L.ConstantLR(o),
                                                      L.ExponentialLR(o, 0.9)]),
}
for name, make in makers.items():
    o = fresh()
    s = make(o)
    for _ in range(3):
        o.step()
        s.step()
    state = s.state_dict()
    shown = {k: v for k, v in state.items() if not callable(v) and k != "_schedulers"}
    print(name, list(state), shown if name != "CyclicLR" else "")
    t = make(fresh())
    t.load_state_dict(state)
    print(t.last_epoch if hasattr(t, "last_epoch") else None)
''', tmp_path)
