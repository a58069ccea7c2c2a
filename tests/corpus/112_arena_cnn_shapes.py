# In the style of: ARENA's CNN exercises (conv, max-pool, flatten and linear layers in a
# Sequential, the shape after each, the parameter count, one SGD step)
# Family: arena
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2, 0),
    nn.Conv2d(8, 16, kernel_size=3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2, 0),
    nn.Flatten(), nn.Linear(16 * 3 * 3, 32), nn.ReLU(), nn.Linear(32, 10),
)
x = torch.randn(4, 1, 12, 12)
for layer in model:
    x = layer(x)
    print(f"{layer.__class__.__name__:10s} {tuple(x.shape)}")
print(sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss = nn.CrossEntropyLoss()(model(torch.randn(4, 1, 12, 12)), torch.tensor([1, 2, 3, 4]))
loss.backward()
optimizer.step()
print(f"{loss.item():.5f} {model[0].weight.grad.norm():.5f}")
