# In the style of: physics-informed neural network posts (fit u'' + u = 0 with autograd derivatives)
# Family: scientific-ml
import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(1, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16),
                          torch.nn.Tanh(), torch.nn.Linear(16, 1))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
t = torch.linspace(0, 3.0, 30).unsqueeze(1).requires_grad_(True)

for step in range(60):
    u = net(t)
    du = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, t, torch.ones_like(du), create_graph=True)[0]
    residual = d2u + u  # the equation u'' = -u
    t0 = torch.zeros(1, 1, requires_grad=True)
    u0 = net(t0)
    du0 = torch.autograd.grad(u0, t0, torch.ones_like(u0), create_graph=True)[0]
    loss = residual.pow(2).mean() + (u0 - 1).pow(2).sum() + du0.pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step:2d}  loss {loss.item():.4f}")
print(f"u(1) = {net(torch.tensor([[1.0]])).item():.3f}  (cos 1 = 0.540)")
