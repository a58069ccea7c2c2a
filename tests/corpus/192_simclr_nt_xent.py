# In the style of: UvA DL tutorial 17 (self-supervised contrastive learning): SimCLR's NT-Xent loss (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: uvadl
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)

def nt_xent(z1, z2, temperature=0.5):
    N = z1.shape[0]
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / temperature
    mask = torch.eye(2 * N, dtype=torch.bool)
    sim = sim.masked_fill(mask, float('-inf'))
    targets = torch.arange(2 * N)
    targets = (targets + N) % (2 * N)
    return F.cross_entropy(sim, targets), sim

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU())
        self.proj = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 8))
    def forward(self, x):
        return self.proj(self.backbone(x))

def augment(x):
    return x + 0.1 * torch.randn_like(x) * (torch.rand(x.shape[0], 1) > 0.3).float()

enc = Encoder()
opt = torch.optim.SGD(enc.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6)
data = torch.randn(16, 10)
for ep in range(6):
    z1, z2 = enc(augment(data)), enc(augment(data))
    loss, sim = nt_xent(z1, z2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(f"ep {ep} loss {loss.item():.6f} lr {sched.get_last_lr()[0]:.6f}")
print(sim[:3, :5])
print(enc.backbone[1].running_mean[:4], enc.backbone[1].running_var[:4])
print(enc.backbone[1].weight.grad[:4], enc.backbone[1].num_batches_tracked)
enc.eval()
with torch.no_grad():
    e = enc(data[:4])
print(e.shape, F.cosine_similarity(e[0:1], e[1:], dim=1))
# alternative InfoNCE with logsumexp
z = F.normalize(torch.randn(6, 4, requires_grad=True), dim=-1)
logits = z @ z.T
pos = logits.diag()
lse = torch.logsumexp(logits - 1e9 * torch.eye(6), dim=1)
l2 = (lse - pos).mean()
l2.backward()
print(l2.item(), l2.grad_fn.name())
