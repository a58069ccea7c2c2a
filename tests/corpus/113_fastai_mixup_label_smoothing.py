# In the style of: fast.ai lessons on regularisation (mixup with a Beta-free lambda, label
# smoothing cross-entropy written by hand, compared with label_smoothing=)
# Family: fastai
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 4, requires_grad=True)
target = torch.tensor([0, 1, 2, 3, 0, 1])
eps = 0.1
log_preds = F.log_softmax(logits, dim=-1)
smooth = -log_preds.sum(dim=-1).mean() / 4
mine = (1 - eps) * F.nll_loss(log_preds, target) + eps * smooth
theirs = F.cross_entropy(logits, target, label_smoothing=eps)
print(f"{mine.item():.6f} {theirs.item():.6f}")
lam = 0.7
perm = torch.tensor([5, 4, 3, 2, 1, 0])
x = torch.randn(6, 3)
mixed = lam * x + (1 - lam) * x[perm]
weight = torch.randn(3, 4, requires_grad=True)
out = mixed @ weight
loss = lam * F.cross_entropy(out, target) + (1 - lam) * F.cross_entropy(out, target[perm])
loss.backward()
print(f"{loss.item():.6f}", weight.grad.sum(0))
