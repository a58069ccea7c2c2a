# In the style of: scientific machine learning notes (the 1-d heat equation by explicit finite
# differences with torch.roll, differentiated with respect to the diffusivity)
# Family: scientific-ml
import torch

alpha = torch.tensor(0.1, requires_grad=True)
n, dx, dt = 20, 1.0 / 20, 0.001
x = torch.linspace(0, 1, n)
u = torch.sin(torch.pi * x)
for _ in range(50):
    laplacian = (torch.roll(u, 1) - 2 * u + torch.roll(u, -1)) / dx ** 2
    laplacian[0] = laplacian[-1] = 0.0
    u = u + dt * alpha * laplacian
energy = (u ** 2).sum() * dx
energy.backward()
print(f"energy {energy.item():.6f}  d energy / d alpha {alpha.grad.item():.6f}")
print(u[:5])
