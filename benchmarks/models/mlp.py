"""A multilayer perceptron (two hidden layers) fitted by SGD with momentum."""

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(6, 16), nn.Tanh(),
    nn.Linear(16, 16), nn.ReLU(),
    nn.Linear(16, 2),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
inputs = torch.randn(32, 6)
targets = torch.randn(32, 2)
for _ in range(10):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    optimizer.step()
print(f"loss after 10 steps: {loss.item():.5f}")
