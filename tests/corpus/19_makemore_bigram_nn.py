# In the style of: makemore lecture part 1 (the bigram model as a one-layer network: one_hot,
# a weight matrix from a seeded generator, softmax by hand, gradient descent)
# Family: karpathy
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
V = len(stoi)

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs[:-1], chs[1:], strict=True):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples:", num)

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)

xenc = F.one_hot(xs, num_classes=V).float()
print(xenc.shape, xenc.dtype)

for k in range(20):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    if k % 5 == 0:
        print(k, f"{loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad

print(f"{loss.item():.4f}")
print(probs.shape, loss.grad_fn.name())
