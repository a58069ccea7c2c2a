"""A small convolutional classifier: convolutions, batch norm, pooling, a linear head."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 8, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = F.relu(self.bn2(self.conv2(x)))
        return self.fc(torch.flatten(self.gap(x), 1))


model = SmallCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
images = torch.randn(6, 1, 8, 8)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
for step in range(3):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
