# In the style of: nanoGPT/makemore generate(): top-k filtering, temperature, multinomial sampling, crop context, weight tying (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: karpathy
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1337)
V, C, T = 11, 16, 8
class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(V, C); self.wpe = nn.Embedding(T, C)
        self.ln = nn.LayerNorm(C, bias=False)
        self.attn = nn.Linear(C, 3 * C)
        self.head = nn.Linear(C, V, bias=False)
        self.head.weight = self.wte.weight
        self.register_buffer("bias", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long)
        x = self.wte(idx) + self.wpe(pos)
        q, k, v = self.attn(self.ln(x)).split(C, dim=2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / k.size(-1) ** 0.5)
        att = att.masked_fill(self.bias[0, 0, :t, :t] == 0, float("-inf"))
        x = x + F.softmax(att, dim=-1) @ v
        logits = self.head(self.ln(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-1)
        return logits, loss
    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None):
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= T else idx[:, -T:]
            logits, _ = self(idx_cond)
            logits = logits[:, -1, :] / temperature
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("Inf")
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx
m = Tiny()
print(sum(p.numel() for p in m.parameters()), m.head.weight is m.wte.weight)
data = torch.randint(0, V, (200,))
ix = torch.randint(len(data) - T, (4,))
xb = torch.stack([data[i:i + T] for i in ix]); yb = torch.stack([data[i + 1:i + T + 1] for i in ix])
yb[0, :3] = -1
opt = torch.optim.AdamW(m.parameters(), lr=1e-2, fused=None)
for it in range(5):
    logits, loss = m(xb, yb)
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    print(f"it {it} loss {loss.item():.4f}")
out = m.generate(torch.zeros((2, 1), dtype=torch.long), 12, temperature=0.8, top_k=4)
print(out)
print(m.wte.weight.grad.abs().sum(1)[:5])
print(m.generate(torch.tensor([[1, 2]]), 3, top_k=1).tolist())
