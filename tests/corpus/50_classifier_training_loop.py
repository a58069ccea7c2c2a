# In the style of: PyTorch "Optimizing Model Parameters" tutorial (a train loop with
# CrossEntropyLoss and SGD with momentum, then an evaluation under no_grad); synthetic data
# Family: pytorch-tutorials
import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(32, 4)
y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(20):
    model.train()
    for start in range(0, 32, 8):
        pred = model(X[start:start + 8])
        loss = loss_fn(pred, y[start:start + 8])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 5 == 4:
        print(f"epoch {epoch}: loss {loss.item():>7f}")

model.eval()
with torch.no_grad():
    pred = model(X)
    correct = (pred.argmax(1) == y).type(torch.float).sum().item()
print(f"Accuracy: {100 * correct / 32:>0.1f}%")
