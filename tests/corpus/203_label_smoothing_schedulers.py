# In the style of: the docs' label-smoothing cross-entropy, layer norm, OneCycleLR and CosineAnnealingWarmRestarts (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(18)

class LabelSmoothingCE(nn.Module):
    def __init__(self, eps=0.1):
        super().__init__()
        self.eps = eps
    def forward(self, logits, target):
        n = logits.size(-1)
        logp = F.log_softmax(logits, dim=-1)
        nll = -logp.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        smooth = -logp.mean(-1)
        return ((1 - self.eps) * nll + self.eps * smooth).mean()

model = nn.Sequential(nn.Linear(6, 24), nn.GELU(approximate="tanh"), nn.Dropout(0.0), nn.LayerNorm(24), nn.Linear(24, 5))
X = torch.randn(64, 6)
Y = (X[:, :5].argmax(1))
crit = LabelSmoothingCE(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12, pct_start=0.3)
for step in range(12):
    idx = torch.randperm(64)[:16]
    logits = model(X[idx])
    loss = crit(logits, Y[idx])
    ref = F.cross_entropy(logits, Y[idx], label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=2.0)
    nn.utils.clip_grad_value_(model.parameters(), 0.05)
    opt.step()
    sched.step()
    print(f"{step} loss {loss.item():.6f} ref {ref.item():.6f} gnorm {total.item():.5f} lr {sched.get_last_lr()[0]:.6f} mom {opt.param_groups[0]['momentum']:.4f}")

opt2 = torch.optim.Adam(model.parameters(), lr=0.01)
s2 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt2, T_0=3, T_mult=2, eta_min=1e-4)
lrs = []
for ep in range(10):
    for b in range(2):
        out = model(X[b * 8:(b + 1) * 8])
        l = F.cross_entropy(out, Y[b * 8:(b + 1) * 8], label_smoothing=0.2, reduction="sum")
        opt2.zero_grad(); l.backward(); opt2.step()
        s2.step(ep + b / 2)
    lrs.append(round(s2.get_last_lr()[0], 6))
print(lrs)
print(l.item(), l.grad_fn.name())
s3 = torch.optim.lr_scheduler.SequentialLR(opt2, [torch.optim.lr_scheduler.LinearLR(opt2, 0.1, 1.0, total_iters=3), torch.optim.lr_scheduler.ExponentialLR(opt2, 0.9)], milestones=[3])
print([ (opt2.step(), s3.step(), round(s3.get_last_lr()[0], 6))[2] for _ in range(6)])
print(model[3].weight.grad[:5], model[4].bias.grad)
