# In the style of: a nanoGPT-style block with rotary position embeddings (torch.polar and complex products) (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: karpathy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(17)

def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)

def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    fc = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * fc).flatten(3)
    xk_out = torch.view_as_real(xk_ * fc).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

class Block(nn.Module):
    def __init__(self, dim=16, n_heads=2):
        super().__init__()
        self.nh, self.hd = n_heads, dim // n_heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.n1, self.n2 = RMSNorm(dim), RMSNorm(dim)
        self.w1 = nn.Linear(dim, 32, bias=False); self.w3 = nn.Linear(dim, 32, bias=False); self.w2 = nn.Linear(32, dim, bias=False)
    def forward(self, x, fc):
        B, T, C = x.shape
        q, k, v = self.wqkv(self.n1(x)).split(C, dim=-1)
        q, k, v = [t.view(B, T, self.nh, self.hd) for t in (q, k, v)]
        q, k = apply_rotary_emb(q, k, fc)
        q, k, v = [t.transpose(1, 2) for t in (q, k, v)]
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.wo(att.transpose(1, 2).contiguous().view(B, T, C))
        h = self.n2(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))

vocab, T = 20, 6
emb = nn.Embedding(vocab, 16)
blk = Block()
head = nn.Linear(16, vocab, bias=False)
fc = precompute_freqs_cis(8, T)
print(fc.dtype, fc.shape, fc[1, :2])
params = list(emb.parameters()) + list(blk.parameters()) + list(head.parameters())
opt = torch.optim.AdamW(params, lr=3e-3)
tokens = torch.randint(0, vocab, (3, T + 1))
for it in range(4):
    logits = head(blk(emb(tokens[:, :-1]), fc))
    loss = F.cross_entropy(logits.reshape(-1, vocab), tokens[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"it {it} loss {loss.item():.6f}")
print(blk.wqkv.weight.grad.norm(), blk.n1.weight.grad[:4])
# explicit cos/sin rope equivalence
x = torch.randn(1, T, 1, 8)
xc, _ = apply_rotary_emb(x, x, fc)
cos, sin = fc.real.repeat_interleave(2, -1)[None, :, None], fc.imag.repeat_interleave(2, -1)[None, :, None]
x_rot = torch.stack([-x[..., 1::2], x[..., ::2]], -1).flatten(-2)
print(torch.allclose(xc, x * cos + x_rot * sin, atol=1e-6), (xc - x * cos - x_rot * sin).abs().max() < 1e-5)
