# In the style of: PyTorch 2.x SDPA tutorial + GQA in Llama-3 style code (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import math
import torch
import torch.nn.functional as F
torch.manual_seed(0)
B, H, Hkv, T, D = 2, 4, 2, 5, 8
q = torch.randn(B, H, T, D, requires_grad=True)
k = torch.randn(B, Hkv, T, D, requires_grad=True)
v = torch.randn(B, Hkv, T, D, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print(out.shape, out.grad_fn.name())
kk = k.repeat_interleave(H // Hkv, dim=1)
vv = v.repeat_interleave(H // Hkv, dim=1)
att = (q @ kk.transpose(-2, -1)) / math.sqrt(D)
mask = torch.ones(T, T, dtype=torch.bool).tril()
att = att.masked_fill(~mask, float("-inf")).softmax(-1)
ref = att @ vv
print("max diff", (out - ref).abs().max().item() < 1e-5)
out.pow(2).sum().backward()
print(q.grad[0, 0, :2].round(decimals=4))
print(k.grad[1, 1, -1].round(decimals=4))
# boolean attn_mask (True = keep) and float additive mask, with scale
pad = torch.tensor([[True, True, True, False, False], [True] * 5])
m = pad[:, None, None, :]
o2 = F.scaled_dot_product_attention(q.detach(), kk.detach(), vv.detach(), attn_mask=m, scale=0.5)
fm = torch.zeros(B, 1, 1, T).masked_fill(~m, float("-inf"))
o3 = F.scaled_dot_product_attention(q.detach(), kk.detach(), vv.detach(), attn_mask=fm, scale=0.5)
print(torch.allclose(o2, o3, atol=1e-6), o2[0, 0, 0].round(decimals=4))
try:
    F.scaled_dot_product_attention(q, k, v, is_causal=True)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
