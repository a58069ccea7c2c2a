# In the style of: physics-informed neural network posts (the viscous Burgers' equation
# u_t + u u_x - nu u_xx = 0 on [-1, 1] x [0, 1]: the residual through torch.autograd.grad with
# create_graph=True, initial and boundary losses, a few Adam steps)
# Family: scientific-ml
import math

import torch
import torch.nn as nn

torch.manual_seed(1234)
nu = 0.01 / math.pi


class PINN(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.linears = nn.ModuleList(
            [nn.Linear(layers[i], layers[i + 1]) for i in range(len(layers) - 1)])
        for lin in self.linears:
            nn.init.xavier_normal_(lin.weight, gain=1.0)
            nn.init.zeros_(lin.bias)

    def forward(self, x, t):
        a = torch.cat([x, t], dim=1)
        for lin in self.linears[:-1]:
            a = torch.tanh(lin(a))
        return self.linears[-1](a)


def burgers_residual(net, x, t):
    u = net(x, t)
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True,
                              create_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True,
                              create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), retain_graph=True,
                               create_graph=True)[0]
    return u_t + u * u_x - nu * u_xx


net = PINN([2, 16, 16, 16, 1])
print(net)

# Collocation points inside the domain, initial condition and boundary points.
N_f, N_0, N_b = 64, 16, 8
x_f = (torch.rand(N_f, 1) * 2 - 1).requires_grad_(True)
t_f = torch.rand(N_f, 1).requires_grad_(True)
x_0 = torch.linspace(-1, 1, N_0).view(-1, 1)
t_0 = torch.zeros_like(x_0)
u_0 = -torch.sin(math.pi * x_0)
t_b = torch.rand(N_b, 1)
x_b = torch.cat([-torch.ones(N_b // 2, 1), torch.ones(N_b // 2, 1)])
u_b = torch.zeros(N_b, 1)

f = burgers_residual(net, x_f, t_f)
print(f.shape, f.grad_fn.name(), f[:3].detach().squeeze())

# The derivatives are exact: check u_x against a central difference at one point.
x1 = torch.tensor([[0.3]], dtype=torch.float64, requires_grad=True)
t1 = torch.tensor([[0.5]], dtype=torch.float64, requires_grad=True)
net64 = PINN([2, 16, 16, 16, 1]).double()
net64.load_state_dict(net.state_dict())
u1 = net64(x1, t1)
(ux1,) = torch.autograd.grad(u1, x1, create_graph=True)
(uxx1,) = torch.autograd.grad(ux1, x1)
h = 1e-4
with torch.no_grad():
    fd = (net64(x1 + h, t1) - net64(x1 - h, t1)) / (2 * h)
    fd2 = (net64(x1 + h, t1) - 2 * u1 + net64(x1 - h, t1)) / h ** 2
print(f"u_x {ux1.item():.6f} vs fd {fd.item():.6f}; u_xx {uxx1.item():.5f} vs fd {fd2.item():.5f}")

optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
mse = nn.MSELoss()
for epoch in range(25):
    optimizer.zero_grad()
    f = burgers_residual(net, x_f, t_f)
    loss_f = mse(f, torch.zeros_like(f))
    loss_0 = mse(net(x_0, t_0), u_0)
    loss_b = mse(net(x_b, t_b), u_b)
    loss = loss_f + loss_0 + loss_b
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0 or epoch == 24:
        print(f"epoch {epoch:3d}  loss {loss.item():.5f}  pde {loss_f.item():.5f}  "
              f"ic {loss_0.item():.5f}  bc {loss_b.item():.5f}")

with torch.no_grad():
    x_test = torch.linspace(-1, 1, 5).view(-1, 1)
    print(net(x_test, torch.full_like(x_test, 0.25)).squeeze())
print(x_f.grad is None, t_f.grad is None)
