# In the style of: PyTorch "Learning PyTorch with Examples", optim (RMSprop); fewer steps
# Family: pytorch-tutorials
import math

import torch

x = torch.linspace(-math.pi, math.pi, 500)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")

optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
for t in range(300):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
print(linear_layer.weight)
print(linear_layer.bias)
print(optimizer.param_groups[0]["lr"], optimizer.param_groups[0]["alpha"], len(optimizer.state))
