# In the style of: fast.ai "from the foundations" (part 2) accelerated SGD lesson (SGD with
# weight decay, Momentum, RMSProp and Adam in fastai's own formulas, keeping state as attributes
# on the parameters, then CosineAnnealingLR and OneCycleLR recorded step by step)
# Family: fastai
import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.optim import lr_scheduler


class SGD:
    def __init__(self, params, lr, wd=0.0):
        self.params, self.lr, self.wd = list(params), lr, wd
        self.i = 0

    def step(self):
        with torch.no_grad():
            for p in self.params:
                self.reg_step(p)
                self.opt_step(p)
        self.i += 1

    def opt_step(self, p):
        p -= p.grad * self.lr

    def reg_step(self, p):
        if self.wd != 0:
            p *= 1 - self.lr * self.wd

    def zero_grad(self):
        for p in self.params:
            p.grad.data.zero_()


class Momentum(SGD):
    def __init__(self, params, lr, wd=0.0, mom=0.9):
        super().__init__(params, lr=lr, wd=wd)
        self.mom = mom

    def opt_step(self, p):
        if not hasattr(p, "grad_avg"):
            p.grad_avg = torch.zeros_like(p.grad)
        p.grad_avg = p.grad_avg * self.mom + p.grad * (1 - self.mom)
        p -= self.lr * p.grad_avg


class RMSProp(SGD):
    def __init__(self, params, lr, wd=0.0, sqr_mom=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.sqr_mom, self.eps = sqr_mom, eps

    def opt_step(self, p):
        if not hasattr(p, "sqr_avg"):
            p.sqr_avg = p.grad ** 2
        p.sqr_avg = p.sqr_avg * self.sqr_mom + p.grad ** 2 * (1 - self.sqr_mom)
        p -= self.lr * p.grad / (p.sqr_avg.sqrt() + self.eps)


class Adam(SGD):
    def __init__(self, params, lr, wd=0.0, beta1=0.9, beta2=0.99, eps=1e-5):
        super().__init__(params, lr=lr, wd=wd)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps

    def opt_step(self, p):
        if not hasattr(p, "avg"):
            p.avg = torch.zeros_like(p.grad.data)
        if not hasattr(p, "sqr_avg"):
            p.sqr_avg = torch.zeros_like(p.grad.data)
        p.avg = self.beta1 * p.avg + (1 - self.beta1) * p.grad
        unbias_avg = p.avg / (1 - (self.beta1 ** (self.i + 1)))
        p.sqr_avg = self.beta2 * p.sqr_avg + (1 - self.beta2) * (p.grad ** 2)
        unbias_sqr_avg = p.sqr_avg / (1 - (self.beta2 ** (self.i + 1)))
        p -= self.lr * unbias_avg / (unbias_sqr_avg + self.eps).sqrt()


def get_model():
    return nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))


torch.manual_seed(0)
x = torch.randn(64, 5)
y = (x @ torch.tensor([1.0, -2.0, 0.5, 0.0, 3.0]))[:, None] + 0.1 * torch.randn(64, 1)


def fit(opt_func, n=6, **kwargs):
    torch.manual_seed(1)
    model = get_model()
    opt = opt_func(model.parameters(), **kwargs)
    losses = []
    for _ in range(n):
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(f"{loss.item():.4f}")
    return model, opt, losses


for opt_func, kwargs in [(SGD, dict(lr=0.05, wd=1e-2)), (Momentum, dict(lr=0.05, mom=0.9)),
                         (RMSProp, dict(lr=0.01)), (Adam, dict(lr=0.01, wd=1e-4))]:
    model, opt, losses = fit(opt_func, **kwargs)
    p = model[0].bias
    state = sorted(k for k in ("grad_avg", "sqr_avg", "avg") if hasattr(p, k))
    print(f"{opt_func.__name__:8s}", losses, state, opt.i)
print(model[2].bias.avg, model[2].bias.sqr_avg)
print(type(model[2].bias).__name__, model[2].bias.grad)

# fastai's Adam puts eps inside the sqrt: close to torch.optim.Adam(eps=...) but not equal
_, _, torch_losses = fit(torch.optim.Adam, lr=0.01, betas=(0.9, 0.99), eps=1e-5)
print("torch.optim.Adam", torch_losses)

opt = torch.optim.SGD(get_model().parameters(), lr=0.06)
sched = lr_scheduler.CosineAnnealingLR(opt, 100)
print(sched.base_lrs, sched.get_last_lr())
print(sorted(opt.param_groups[0].keys()))


def sched_lrs(sched, steps):
    lrs = [sched.get_last_lr()]
    for i in range(steps):
        sched.optimizer.step()
        sched.step()
        lrs.append(sched.get_last_lr())
    return lrs


lrs = sched_lrs(sched, 110)
print([f"{lr[0]:.5f}" for lr in lrs[::10]])
print(f"{0.06 * (1 + math.cos(math.pi * 30 / 100)) / 2:.5f}", f"{lrs[30][0]:.5f}")

torch.manual_seed(3)
model = get_model()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
tmax = 12
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=tmax)
print(f"{opt.param_groups[0]['lr']:.6f}", opt.param_groups[0]["betas"],
      f"{opt.param_groups[0]['initial_lr']:.4f}", opt.param_groups[0]["max_lr"],
      f"{opt.param_groups[0]['min_lr']:.2e}")
recs = []
for step in range(tmax):
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    pg = opt.param_groups[0]
    recs.append((f"{pg['lr']:.5f}", round(pg["betas"][0], 4), f"{loss.item():.3f}"))
    if step < tmax - 1:
        sched.step()
for rec in recs:
    print(rec)
try:
    sched.step()
    sched.step()
except ValueError as e:
    print("ValueError:", str(e)[:60])

opt = torch.optim.SGD(get_model().parameters(), lr=0.1, momentum=0.9)
sched = lr_scheduler.OneCycleLR(opt, max_lr=0.4, epochs=2, steps_per_epoch=3,
                                anneal_strategy="linear", pct_start=0.5, three_phase=True)
out = []
for _ in range(6):
    out.append((round(opt.param_groups[0]["lr"], 4), round(opt.param_groups[0]["momentum"], 4)))
    opt.step()
    sched.step()
print(out)
print(sched.state_dict()["total_steps"], sched.last_epoch)
