# In the style of: nanoGPT / "Let's build GPT" (a causal self-attention head with a tril mask)
# Family: karpathy
import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
B, T, C, head_size = 2, 5, 8, 4
x = torch.randn(B, T, C)
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
k, q = key(x), query(x)
wei = q @ k.transpose(-2, -1) * head_size ** -0.5
tril = torch.tril(torch.ones(T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
out = wei @ value(x)
print(wei[0])
print(out.shape)
ln = nn.LayerNorm(head_size)
logits = nn.Linear(head_size, 10)(F.gelu(ln(out)))
targets = torch.randint(0, 10, (B, T))
loss = F.cross_entropy(logits.view(B * T, 10), targets.view(B * T))
loss.backward()
print(f"loss {loss.item():.4f}")
print(f"{key.weight.grad.norm():.4f} {query.weight.grad.norm():.4f} {value.weight.grad.norm():.4f}")
