# In the style of: makemore lecture part 1 and the F.one_hot docs
# Family: karpathy
import torch
import torch.nn.functional as F

labels = torch.tensor([0, 2, 1, 2])
print(F.one_hot(labels))
print(F.one_hot(labels, num_classes=4))
print(F.one_hot(torch.tensor([[1, 0], [3, 2]])).shape)
enc = F.one_hot(labels, 3).float()
print(enc.dtype, enc.requires_grad)

W = torch.ones(3, 2, requires_grad=True)
(enc @ W).sum().backward()
print(W.grad)

try:
    F.one_hot(torch.tensor([0.0, 1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([0, 5]), num_classes=3)
except RuntimeError as e:
    print(type(e).__name__, e)
