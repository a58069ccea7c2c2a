# In the style of: PyTorch recipes, "Zeroing out gradients" (gradients accumulate over backward
# calls until zero_grad; set_to_none leaves them None)
# Family: pytorch-func-and-recipes
import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
x, y = torch.randn(5, 3), torch.randn(5, 1)
criterion = torch.nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for step in range(3):
    loss = criterion(net(x), y)
    loss.backward()
    print(f"step {step}: bias grad {net[2].bias.grad.item():+.5f} (accumulating)")
optimizer.zero_grad(set_to_none=False)
print(net[2].bias.grad, net[0].weight.grad.abs().sum())
optimizer.zero_grad()
print(net[2].bias.grad)
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(net(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.5f}, bias grad {net[2].bias.grad.item():+.5f}")
