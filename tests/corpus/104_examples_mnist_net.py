# In the style of: pytorch/examples' MNIST (two convolutions, max pooling, Dropout, a log_softmax
# head, nll_loss, Adadelta and StepLR), on random 16x16 images
# Family: pytorch-examples
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(8 * 6 * 6, 16)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


torch.manual_seed(1)
model = Net()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
data, target = torch.rand(8, 1, 16, 16), torch.randint(0, 10, (8,))
for epoch in range(1, 4):
    model.train()
    optimizer.zero_grad()
    loss = F.nll_loss(model(data), target)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"Train Epoch: {epoch}\tLoss: {loss.item():.6f}\tlr {scheduler.get_last_lr()[0]:.3f}")
model.eval()
with torch.no_grad():
    output = model(data)
    test_loss = F.nll_loss(output, target, reduction="sum").item() / len(data)
    pred = output.argmax(dim=1, keepdim=True)
    correct = pred.eq(target.view_as(pred)).sum().item()
print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(data)}")
