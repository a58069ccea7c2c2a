# In the style of: PyTorch "A Gentle Introduction to torch.autograd" (frozen parameters, finetuning)
# (a small network instead of the downloaded resnet18)
# Family: pytorch-tutorials
import torch
from torch import nn, optim

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 4))

for param in model.parameters():
    param.requires_grad = False

model[2] = nn.Linear(6, 3)  # a new classifier: the only part that learns
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

data = torch.rand(2, 8)
labels = torch.rand(2, 3)
prediction = model(data)
loss = (prediction - labels).sum()
loss.backward()
optimizer.step()

for name, param in model.named_parameters():
    print(name, param.requires_grad, None if param.grad is None else param.grad.shape)
print(model[2].weight)
print(model[2].bias.grad)
