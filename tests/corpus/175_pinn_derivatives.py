# In the style of: PINN: derivatives of an MLP via autograd.grad(create_graph=True), Burgers-like residual (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: scientific-ml
import torch
import torch.nn as nn
torch.manual_seed(10)
net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1)).double()
x = torch.linspace(-1, 1, 8, dtype=torch.float64).view(-1, 1).requires_grad_(True)
t = torch.rand(8, 1, dtype=torch.float64, requires_grad=True)
nu = 0.01 / torch.pi
def residual(x, t):
    u = net(torch.cat([x, t], dim=1))
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), create_graph=True, retain_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True, retain_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u, u_t + u * u_x - nu * u_xx
u, f = residual(x, t)
print(u.squeeze(), f.shape)
x0 = torch.linspace(-1, 1, 5, dtype=torch.float64).unsqueeze(1)
u0 = -torch.sin(torch.pi * x0)
opt = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=5, history_size=10, line_search_fn='strong_wolfe')
def closure():
    opt.zero_grad()
    _, f = residual(x, t)
    ub = net(torch.cat([x0, torch.zeros_like(x0)], 1))
    loss = f.pow(2).mean() + nn.functional.mse_loss(ub, u0)
    loss.backward()
    return loss
for i in range(3):
    l = opt.step(closure)
    print(i, f"{l.item():.8e}")
opt2 = torch.optim.Adam(net.parameters(), lr=1e-3)
for i in range(3):
    l = closure(); opt2.step()
print(f"{l.item():.8e}")
# third derivative of sin through autograd
z = torch.tensor([0.3, 1.2], dtype=torch.float64, requires_grad=True)
y = torch.sin(z)
d = [y]
for k in range(3):
    d.append(torch.autograd.grad(d[-1].sum(), z, create_graph=True)[0])
print([dk.detach() for dk in d])
print(torch.allclose(d[3], -torch.cos(z)))
print(net[0].weight.grad.norm(), x.grad)
