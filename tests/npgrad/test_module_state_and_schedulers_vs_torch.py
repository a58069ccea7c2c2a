"""Module state and optimiser bookkeeping on npgrad against real torch, run here:
load_state_dict with buffers (its _IncompatibleKeys, strict mode's and size mismatch's
messages), Module.type, attributes of one's own on tensors and parameters, the optimiser's
duplicate-parameter checks, and the learning-rate schedulers OneCycleLR, LinearLR,
ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts and ReduceLROnPlateau."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import warnings
import torch
from torch import nn
from torch.optim import lr_scheduler as S

bn = nn.BatchNorm2d(2)
print(bn.load_state_dict({k: v + 1 for k, v in bn.state_dict().items()}, strict=False))
print(bn.running_mean, bn.num_batches_tracked)
lin = nn.Linear(2, 1)
for bad in ({"weight": torch.zeros(1, 2)},
            {"weight": torch.zeros(1, 2), "bias": torch.zeros(1), "x": torch.ones(1)},
            {"weight": torch.zeros(2, 2), "bias": torch.zeros(1)}):
    try:
        lin.load_state_dict(bad)
    except RuntimeError as error:
        print(error)
print(lin.load_state_dict({"weight": torch.zeros(1, 2)}, strict=False))
model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
print(model.load_state_dict(model.state_dict()))
print(model.load_state_dict({k: v for k, v in model.state_dict().items()
                             if "num_batches" not in k}))
model.type(torch.DoubleTensor)
print(model[0].weight.dtype, model[1].running_mean.dtype, model[1].num_batches_tracked.dtype)
p = nn.Parameter(torch.zeros(2))
p.grad_avg = torch.ones(2)
print(hasattr(p, "grad_avg"), p.grad_avg, hasattr(p.detach(), "grad_avg"))

w = torch.zeros(2, requires_grad=True)
try:
    torch.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)
except ValueError as error:
    print(type(error).__name__, error)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.optim.SGD([w, w], lr=0.1)
print([str(warning.message)[:60] for warning in caught])


def run(make, kind="sgd", steps=8, metrics=None):
    w = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=0.1, momentum=0.9) if kind == "sgd" else \\
        torch.optim.Adam([w], lr=0.1)
    scheduler, seen = make(optimizer), []
    for step in range(steps):
        group = optimizer.param_groups[0]
        momentum = group["momentum"] if "momentum" in group else group["betas"][0]
        seen.append((round(group["lr"], 6), round(momentum, 4)))
        optimizer.step()
        scheduler.step(*([metrics[step]] if metrics else []))
    print(type(scheduler).__name__, seen, [round(rate, 6) for rate in scheduler.get_last_lr()])


run(lambda o: S.OneCycleLR(o, max_lr=0.4, total_steps=8))
run(lambda o: S.OneCycleLR(o, 0.4, total_steps=8, three_phase=True, anneal_strategy="linear"),
    "adam")
run(lambda o: S.OneCycleLR(o, max_lr=1.0, epochs=2, steps_per_epoch=4, pct_start=0.25), "adam")
run(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4))
run(lambda o: S.ConstantLR(o, factor=0.5, total_iters=3))
run(lambda o: S.PolynomialLR(o, total_iters=5, power=2.0))
run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01))
run(lambda o: S.ReduceLROnPlateau(o, patience=1, factor=0.5), metrics=[5, 4, 4, 4, 4, 3, 3, 3])
run(lambda o: S.ReduceLROnPlateau(o, mode="max", patience=0, cooldown=1, threshold_mode="abs",
                                  threshold=0.5), metrics=[1, 1.2, 2, 2, 2, 2, 2, 2])
optimizer = torch.optim.SGD([w], lr=0.1, momentum=0.9)
scheduler = S.OneCycleLR(optimizer, max_lr=0.4, total_steps=2)
try:
    for _ in range(3):
        optimizer.step()
        scheduler.step()
except ValueError as error:
    print(error)
for bad in ("S.OneCycleLR(optimizer, 0.1)",
            "S.OneCycleLR(optimizer, 0.1, total_steps=3, pct_start=1)",
            "S.LinearLR(optimizer, start_factor=0)", "S.ReduceLROnPlateau(optimizer, factor=2)"):
    try:
        eval(bad)
    except ValueError as error:
        print(error)
"""


def test_module_state_and_schedulers_print_what_torch_prints(tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
