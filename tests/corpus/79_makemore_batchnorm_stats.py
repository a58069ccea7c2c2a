# In the style of: makemore part 3 (kaiming-scaled init, a hand-rolled batch norm with running
# statistics, tanh saturation and the gradient-to-data ratio of each weight)
# Family: karpathy
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n_embd, n_hidden, vocab, block = 4, 32, 11, 3
C = torch.randn((vocab, n_embd), generator=g)
W1 = torch.randn((n_embd * block, n_hidden), generator=g) * (5 / 3) / (n_embd * block) ** 0.5
W2 = torch.randn((n_hidden, vocab), generator=g) * 0.01
b2 = torch.randn(vocab, generator=g) * 0
bngain, bnbias = torch.ones((1, n_hidden)), torch.zeros((1, n_hidden))
bnmean_running, bnstd_running = torch.zeros((1, n_hidden)), torch.ones((1, n_hidden))
parameters = [C, W1, W2, b2, bngain, bnbias]
for p in parameters:
    p.requires_grad = True
Xb = torch.randint(0, vocab, (16, block), generator=g)
Yb = torch.randint(0, vocab, (16,), generator=g)
for step in range(3):
    emb = C[Xb]
    hpreact = emb.view(emb.shape[0], -1) @ W1
    bnmeani = hpreact.mean(0, keepdim=True)
    bnstdi = hpreact.std(0, keepdim=True)
    hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
    with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
    h = torch.tanh(hpreact)
    loss = F.cross_entropy(h @ W2 + b2, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    for p in parameters:
        p.data += -0.1 * p.grad
    print(f"{step}: {loss.item():.4f}, saturated {(h.abs() > 0.97).float().mean() * 100:.2f}%")
for name, p in zip(["C", "W1", "W2"], parameters[:3], strict=True):
    print(f"{name} {tuple(p.shape)} grad:data ratio {p.grad.std() / p.std():e}")
print(bnmean_running[0, :3], bnstd_running[0, :3])
