# In the style of: physics with autograd notes (a force as minus the gradient of a potential, the
# torque r x F with torch.cross, and a Kronecker-product Hamiltonian)
# Family: scientific-ml
import torch

positions = torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 0.5]], requires_grad=True)
charges = torch.tensor([1.0, -2.0])
r = positions.norm(dim=1)
potential = (charges / r).sum()
force = -torch.autograd.grad(potential, positions, create_graph=True)[0]
torque = torch.cross(positions, force, dim=1)
print(force)
print(torque)
torque.sum().backward()
print(positions.grad.abs().max() < 1e-6)  # (a central force: no torque to vary, to rounding)
sigma_x = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
sigma_z = torch.tensor([[1.0, 0.0], [0.0, -1.0]])
H = torch.kron(sigma_x, sigma_x) + 0.5 * torch.kron(sigma_z, torch.eye(2))
print(H, torch.linalg.eigvalsh(H))
print(torch.tensordot(positions.detach(), positions.detach(), dims=([1], [1])))
