# In the style of: llama "from scratch" blog: RMSNorm, complex RoPE (precompute_freqs_cis), KV cache, SwiGLU (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
dim, n_heads, n_kv, max_len = 16, 4, 2, 8
hd = dim // n_heads
def precompute_freqs_cis(d, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, d, 2)[: d // 2].float() / d))
    t = torch.arange(end, device=freqs.device, dtype=torch.float32)
    freqs = torch.outer(t, freqs)
    return torch.polar(torch.ones_like(freqs), freqs)
def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    fc = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * fc).flatten(3)
    xk_out = torch.view_as_real(xk_ * fc).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)
class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.wq = nn.Linear(dim, n_heads * hd, bias=False)
        self.wk = nn.Linear(dim, n_kv * hd, bias=False)
        self.wv = nn.Linear(dim, n_kv * hd, bias=False)
        self.wo = nn.Linear(n_heads * hd, dim, bias=False)
        self.register_buffer("cache_k", torch.zeros(1, max_len, n_kv, hd), persistent=False)
        self.register_buffer("cache_v", torch.zeros(1, max_len, n_kv, hd), persistent=False)
    def forward(self, x, start_pos, freqs_cis):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, n_heads, hd)
        xk = self.wk(x).view(bsz, seqlen, n_kv, hd)
        xv = self.wv(x).view(bsz, seqlen, n_kv, hd)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis)
        self.cache_k[:bsz, start_pos:start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos:start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, :start_pos + seqlen].repeat_interleave(n_heads // n_kv, dim=2)
        values = self.cache_v[:bsz, :start_pos + seqlen].repeat_interleave(n_heads // n_kv, dim=2)
        xq, keys, values = (t.transpose(1, 2) for t in (xq, keys, values))
        scores = torch.matmul(xq, keys.transpose(2, 3)) / hd ** 0.5
        if seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
            mask = torch.hstack([torch.zeros(seqlen, start_pos), mask])
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        out = torch.matmul(scores, values).transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(out)
class FF(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = nn.Linear(dim, 32, bias=False); self.w2 = nn.Linear(32, dim, bias=False); self.w3 = nn.Linear(dim, 32, bias=False)
    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
norm = nn.RMSNorm(dim, eps=1e-6)
attn, ff = Attn(), FF()
fc = precompute_freqs_cis(hd, max_len)
print(fc.dtype, fc.shape, fc[1, :2])
x = torch.randn(1, 5, dim)
with torch.inference_mode():
    full = attn(norm(x), 0, fc[:5])
    attn.cache_k.zero_(); attn.cache_v.zero_()
    pre = attn(norm(x[:, :4]), 0, fc[:4])
    last = attn(norm(x[:, 4:]), 4, fc[4:5])
print("kv-cache matches:", torch.allclose(full[:, 4], last[:, 0], atol=1e-5))
print(last[0, 0, :4])
h = x + attn(norm(x), 0, fc[:5])
h = h + ff(norm(h))
h.sum().backward()
print(norm.weight.grad[:4], attn.wq.weight.grad.abs().sum().round(decimals=3))
print(norm, norm.weight.requires_grad)
