# In the style of: the docs' activation checkpointing and gradient accumulation (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(24)

class ResBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x):
        return x + self.ff(self.norm(x))

class Net(nn.Module):
    def __init__(self, d=16, n=3, use_ckpt=True):
        super().__init__()
        self.blocks = nn.ModuleList([ResBlock(d) for _ in range(n)])
        self.head = nn.Linear(d, 1)
        self.use_ckpt = use_ckpt
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_ckpt else b(x)
        return self.head(x).squeeze(-1)

net = Net()
ref = Net(use_ckpt=False)
ref.load_state_dict(net.state_dict())
X = torch.randn(32, 16)
Y = X[:, :3].sum(-1)
opt = torch.optim.AdamW(net.parameters(), lr=1e-3)
accum = 4
for step in range(3):
    opt.zero_grad()
    tot = 0.0
    for mb in X.chunk(accum):
        yb = Y[:mb.shape[0]]
        loss = F.huber_loss(net(mb), yb, delta=0.5) / accum
        loss.backward()
        tot += loss.item()
    print(f"step {step} loss {tot:.6f} grad {net.head.weight.grad.norm().item():.6f}")
    opt.step()
ref.load_state_dict(net.state_dict())
o1, o2 = net(X), ref(X)
o1.sum().backward(); o2.sum().backward()
print("same out", torch.equal(o1, o2), "same grads", all(torch.allclose(a.grad, b.grad) for a, b in zip(net.parameters(), ref.parameters())))
print(o1.grad_fn.name(), o2.grad_fn.name())
seq = nn.Sequential(*[nn.Sequential(nn.Linear(8, 8), nn.Tanh()) for _ in range(4)])
inp = torch.randn(3, 8, requires_grad=True)
out = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
out.pow(2).sum().backward()
print(out.shape, inp.grad[0])
with torch.autograd.set_detect_anomaly(True):
    z = torch.randn(3, requires_grad=True)
    (z.exp() * 2).sum().backward()
print(z.grad)
print(torch.is_grad_enabled(), torch.inference_mode()(lambda: torch.ones(2) * 3)().requires_grad)
