# In the style of: pytorch/examples' siamese network (two branches sharing weights, a
# concatenation, BCEWithLogits over "same or different" pairs, gradient clipping by value)
# Family: pytorch-examples
import torch
import torch.nn as nn


class SiameseNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.branch = nn.Sequential(nn.Linear(8, 6), nn.ReLU(inplace=True), nn.Linear(6, 4))
        self.fc = nn.Sequential(nn.Linear(8, 4), nn.ReLU(inplace=True), nn.Linear(4, 1))

    def forward(self, input1, input2):
        output = torch.cat((self.branch(input1), self.branch(input2)), 1)
        return self.fc(output).view(-1)


torch.manual_seed(7)
model = SiameseNetwork()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
a, b = torch.randn(5, 8), torch.randn(5, 8)
targets = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
criterion = nn.BCEWithLogitsLoss()
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(model(a, b), targets)
    loss.backward()
    torch.nn.utils.clip_grad_value_(model.parameters(), 0.05)
    optimizer.step()
    largest = max(p.grad.abs().max() for p in model.parameters())
    print(f"step {step} loss {loss.item():.5f} max grad {largest:.3f}")
