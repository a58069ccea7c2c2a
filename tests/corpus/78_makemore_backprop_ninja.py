# In the style of: makemore part 4, "becoming a backprop ninja" (cross-entropy's gradient by hand,
# compared with autograd's)
# Family: karpathy
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n, vocab = 8, 5
logits = torch.randn(n, vocab, generator=g, requires_grad=True)
Yb = torch.randint(0, vocab, (n,), generator=g)
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for t in [logit_maxes, norm_logits, counts, counts_sum, counts_sum_inv, probs, logprobs]:
    t.retain_grad()
loss.backward()
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs


def cmp(s, dt, t):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    small = (dt - t.grad).abs().max().item() < 1e-7  # (the last bits are the kernels')
    print(f"{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff < 1e-7: {small}")


cmp("logprobs", dlogprobs, logprobs)
cmp("probs", dprobs, probs)
cmp("logits", dlogits, logits)
print(f"loss {loss.item():.6f}, F.cross_entropy {F.cross_entropy(logits, Yb).item():.6f}")
