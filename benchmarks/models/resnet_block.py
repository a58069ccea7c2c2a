"""Two residual blocks (convolution, batch norm, ReLU, a skip connection) and a head."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.blocks = nn.Sequential(ResidualBlock(8), ResidualBlock(8))
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        x = self.blocks(F.relu(self.stem(x)))
        return self.head(x.mean(dim=(2, 3)))


model = TinyResNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
images = torch.randn(4, 3, 6, 6)
labels = torch.tensor([0, 1, 2, 3])
for _ in range(3):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
print("stem gradient norm", round(model.stem.weight.grad.norm().item(), 4))
