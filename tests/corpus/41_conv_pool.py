# In the style of: PyTorch "Neural Networks" tutorial (nn.Conv2d, F.max_pool2d, flatten, a
# backward through them); seeded weights
# Family: pytorch-tutorials
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
conv = nn.Conv2d(1, 2, 3)
print(conv)
print(conv.weight.shape, conv.bias)

image = torch.randn(1, 1, 6, 6, requires_grad=True)
out = conv(image)
print(out.shape, out.grad_fn.name())
pooled = F.max_pool2d(F.relu(out), (2, 2))
print(pooled.shape)
print(pooled)
flat = torch.flatten(pooled, 1)
flat.sum().backward()
print(conv.weight.grad)
print(conv.bias.grad)
print(image.grad[0, 0])

conv2 = nn.Conv2d(2, 1, kernel_size=2, stride=2, padding=1, bias=False)
print(conv2(out).shape)
