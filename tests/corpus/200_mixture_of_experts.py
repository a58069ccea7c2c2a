# In the style of: a mixture-of-experts post: top-k gating, softmax over the chosen experts, a load-balancing loss (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(15)

class Expert(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.w1 = nn.Linear(d, h); self.w2 = nn.Linear(h, d)
    def forward(self, x):
        return self.w2(F.gelu(self.w1(x)))

class MoE(nn.Module):
    def __init__(self, d=8, h=16, n_exp=4, k=2):
        super().__init__()
        self.gate = nn.Linear(d, n_exp, bias=False)
        self.experts = nn.ModuleList([Expert(d, h) for _ in range(n_exp)])
        self.k = k
        self.n = n_exp
    def forward(self, x):
        B, T, D = x.shape
        xf = x.reshape(-1, D)
        logits = self.gate(xf)
        topv, topi = torch.topk(logits, self.k, dim=-1)
        weights = F.softmax(topv, dim=-1)
        out = torch.zeros_like(xf)
        for e in range(self.n):
            mask = (topi == e)
            rows = mask.any(-1).nonzero(as_tuple=True)[0]
            if rows.numel() == 0:
                continue
            w = (weights * mask).sum(-1)[rows].unsqueeze(-1)
            out.index_add_(0, rows, w * self.experts[e](xf[rows]))
        probs = F.softmax(logits, -1)
        load = F.one_hot(topi[:, 0], self.n).float().mean(0)
        aux = self.n * (probs.mean(0) * load).sum()
        return out.view(B, T, D), aux, topi

torch.set_printoptions(precision=5)
moe = MoE()
opt = torch.optim.AdamW(moe.parameters(), lr=1e-2)
x = torch.randn(2, 5, 8)
target = torch.randn(2, 5, 8)
for it in range(5):
    y, aux, topi = moe(x)
    loss = F.mse_loss(y, target) + 0.01 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"it {it} loss {loss.item():.6f} aux {aux.item():.6f} counts {torch.bincount(topi.flatten(), minlength=4).tolist()}")
print(topi[:4])
print(moe.gate.weight.grad)
print(y.grad_fn.name(), y.shape)
# noisy top-k gating with scatter into a dense sparse-gate matrix
logits = moe.gate(x.reshape(-1, 8)) + torch.randn(10, 4) * F.softplus(torch.zeros(10, 4))
v, i = logits.topk(2, dim=1, sorted=True)
dense = torch.full_like(logits, float('-inf')).scatter(1, i, v)
gates = dense.softmax(-1)
print(gates[:3], gates.grad_fn.name())
gates.pow(2).sum().backward()
print(moe.gate.weight.grad.abs().sum())
