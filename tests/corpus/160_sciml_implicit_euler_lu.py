# In the style of: scientific computing with PyTorch posts (a stiff linear ODE du/dt = -K u
# stepped by implicit Euler: the matrix (I + dt K) factored once with torch.linalg.lu_factor
# and solved at every step with lu_solve; the final energy differentiated by the stiffness)
# Family: scientific-ml
import torch

n, dt, steps = 6, 0.05, 40
diffusion = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
laplacian = (torch.diag(torch.full((n,), 2.0, dtype=torch.float64))
             - torch.diag(torch.ones(n - 1, dtype=torch.float64), 1)
             - torch.diag(torch.ones(n - 1, dtype=torch.float64), -1))
K = diffusion * laplacian * (n + 1) ** 2
system = torch.eye(n, dtype=torch.float64) + dt * K
LU, pivots = torch.linalg.lu_factor(system)
print("pivots:", pivots.tolist(), "LU grad_fn:", type(LU.grad_fn).__name__)

u = torch.sin(torch.pi * torch.arange(1, n + 1, dtype=torch.float64) / (n + 1)).unsqueeze(1)
for step in range(steps):
    u = torch.linalg.lu_solve(LU, pivots, u)
energy = (u ** 2).sum()
energy.backward()
print(f"energy after {steps} steps: {energy.item():.6e}")
print(f"d energy / d diffusion: {diffusion.grad.item():.6e}")

P, L, U = torch.linalg.lu(system.detach())
print("P L U == system:", torch.allclose(P @ L @ U, system.detach()))
print("condition number:", round(torch.linalg.cond(system.detach()).item(), 3))
