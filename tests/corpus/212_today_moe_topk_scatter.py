# In the style of: mixture-of-experts gating blog (Switch/Mixtral-like top-k routing with index_add_) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class MoE(nn.Module):
    def __init__(self, d=8, n_exp=4, k=2):
        super().__init__()
        self.gate = nn.Linear(d, n_exp, bias=False)
        self.experts = nn.ModuleList([nn.Sequential(nn.Linear(d, 16), nn.GELU(), nn.Linear(16, d)) for _ in range(n_exp)])
        self.k, self.n_exp = k, n_exp
    def forward(self, x):
        logits = self.gate(x)
        probs = logits.softmax(-1)
        topv, topi = probs.topk(self.k, dim=-1)
        topv = topv / topv.sum(-1, keepdim=True)
        out = torch.zeros_like(x)
        for e in range(self.n_exp):
            tok, slot = torch.where(topi == e)
            if tok.numel() == 0:
                continue
            y = self.experts[e](x[tok]) * topv[tok, slot, None]
            out.index_add_(0, tok, y)
        counts = torch.bincount(topi.flatten(), minlength=self.n_exp)
        frac = counts.float() / topi.numel()
        aux = self.n_exp * (frac * probs.mean(0)).sum()
        z = torch.logsumexp(logits, -1).pow(2).mean()
        return out, aux, z, counts, topi
moe = MoE()
x = torch.randn(10, 8)
out, aux, z, counts, topi = moe(x)
print(topi.T)
print(counts, f"aux {aux.item():.5f} z {z.item():.5f}")
print(out.grad_fn.name(), out[:2].detach().round(decimals=4))
(out.pow(2).mean() + 0.01 * aux + 1e-3 * z).backward()
print(moe.gate.weight.grad.round(decimals=5)[:, :3])
print([round(e[0].weight.grad.norm().item(), 4) for e in moe.experts])
# dense dispatch variant with one_hot + scatter
mask = F.one_hot(topi, num_classes=4).sum(1)
print(mask.dtype, mask.sum(0))
combine = torch.zeros(10, 4).scatter(1, topi, torch.ones(10, 2))
print(torch.equal(combine.long(), mask))
cap = torch.cumsum(mask, dim=0) * mask
print(cap.T)
