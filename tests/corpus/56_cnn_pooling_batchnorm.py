# In the style of: Dive into Deep Learning's LeNet/NiN chapters (convolutions, average pooling,
# batch norm, global average pooling), one training step on random images
# Family: d2l
import torch
from torch import nn

torch.manual_seed(3)
net = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1), nn.BatchNorm2d(4), nn.ReLU(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(4, 6, kernel_size=3), nn.ReLU(),
    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(6, 3))
X = torch.randn(8, 1, 10, 10)
y = torch.randint(0, 3, (8,))
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", tuple(X.shape))
X = torch.randn(8, 1, 10, 10)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(net(X), y)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.5f}")
print(net[1].running_mean, net[1].num_batches_tracked)
print(net[0].weight.grad.shape, f"{net[0].weight.grad.abs().sum().item():.4f}")
