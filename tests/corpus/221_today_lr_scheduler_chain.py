# In the style of: LR scheduler recipes (OneCycleLR, CosineAnnealingWarmRestarts, SequentialLR warmup, ChainedScheduler, ReduceLROnPlateau) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import torch
from torch.optim import lr_scheduler as S
torch.manual_seed(0)
def make(lr=0.1, **kw):
    p = torch.nn.Parameter(torch.randn(2))
    return torch.optim.SGD([p], lr=lr, momentum=0.9, **kw)
o = make()
s = S.OneCycleLR(o, max_lr=1.0, total_steps=10, pct_start=0.3, anneal_strategy="cos", three_phase=True)
lrs, moms = [], []
for _ in range(10):
    o.step(); s.step()
    lrs.append(round(s.get_last_lr()[0], 5)); moms.append(round(o.param_groups[0]["momentum"], 4))
print(lrs); print(moms)
o = make()
s = S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)
out = []
for epoch in range(12):
    o.step(); s.step()
    out.append(round(s.get_last_lr()[0], 5))
print(out, s.T_i, s.T_cur)
o = make()
s = S.SequentialLR(o, schedulers=[S.LinearLR(o, start_factor=0.1, total_iters=3), S.CosineAnnealingLR(o, T_max=5)], milestones=[3])
out = []
for _ in range(9):
    o.step(); s.step(); out.append(round(o.param_groups[0]["lr"], 5))
print(out)
o = make()
s = S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=2), S.ExponentialLR(o, gamma=0.9)])
out = []
for _ in range(5):
    o.step(); s.step(); out.append(round(o.param_groups[0]["lr"], 5))
print(out)
o = make()
s = S.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1)
for v in [1.0, 0.9, 0.95, 0.95, 0.96, 0.5, 0.6, 0.7, 0.8]:
    o.step(); s.step(v)
    print(round(o.param_groups[0]["lr"], 5), s.num_bad_epochs, end=" | ")
print()
o = make()
s = S.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e)
for _ in range(3):
    o.step(); s.step()
print(s.state_dict()["last_epoch"], s.state_dict()["_last_lr"], sorted(k for k in s.state_dict()))
o = make()
s = S.PolynomialLR(o, total_iters=4, power=2.0)
print([round(x, 5) for x in [s.get_last_lr()[0]] + [(o.step(), s.step(), s.get_last_lr()[0])[2] for _ in range(5)]])
o = make()
s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2")
print([round((o.step(), s.step(), s.get_last_lr()[0])[2], 4) for _ in range(9)])
o = make()
s = S.MultiStepLR(o, milestones=[2, 4], gamma=0.1)
s2 = S.StepLR(make(), step_size=2)
print(type(s).__name__, type(s2).__mro__[1].__name__)
