# In the style of: PyTorch "What is torch.nn really?" (logistic regression written from scratch,
# then refactored with torch.nn.functional and nn.Module)
# Family: pytorch-tutorials
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x_train = torch.rand(64, 12)
y_train = torch.randint(0, 3, (64,))
weights = torch.randn(12, 3) / math.sqrt(12)
weights.requires_grad_()
bias = torch.zeros(3, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


bs, lr = 16, 0.5
print(f"{nll(model(x_train[:bs]), y_train[:bs]):.4f} {accuracy(model(x_train[:bs]), y_train[:bs])}")
for _epoch in range(2):
    for i in range((64 - 1) // bs + 1):
        xb, yb = x_train[i * bs:i * bs + bs], y_train[i * bs:i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(f"{loss.item():.4f} {F.cross_entropy(xb @ weights + bias, yb).item():.4f}")


class MnistLogistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(12, 3) / math.sqrt(12))
        self.bias = nn.Parameter(torch.zeros(3))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model2 = MnistLogistic()
opt = torch.optim.SGD(model2.parameters(), lr=lr)
for _epoch in range(2):
    for i in range((64 - 1) // bs + 1):
        xb, yb = x_train[i * bs:i * bs + bs], y_train[i * bs:i * bs + bs]
        loss = F.cross_entropy(model2(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(f"{loss.item():.4f}", model2)
