# In the style of: linear-algebra-in-PyTorch posts (torch.linalg.eig of a rotation, whose
# eigenvalues are complex, a Markov chain's stationary distribution from the eigenvector of
# eigenvalue 1, and the gradient of the spectral radius with respect to the matrix)
# Family: blogs-and-qa
import math

import torch

theta = math.pi / 6
rotation = torch.tensor([[math.cos(theta), -math.sin(theta)],
                         [math.sin(theta), math.cos(theta)]], dtype=torch.float64)
values, vectors = torch.linalg.eig(rotation)
print(values)
print("moduli:", values.abs(), "angles (degrees):", torch.rad2deg(values.angle()))

P = torch.tensor([[0.9, 0.075, 0.025],
                  [0.15, 0.8, 0.05],
                  [0.25, 0.25, 0.5]], dtype=torch.float64)
values, vectors = torch.linalg.eig(P.T)
index = torch.argmin((values - 1).abs())
stationary = vectors[:, index].real
stationary = stationary / stationary.sum()
print("stationary distribution:", stationary)
print("check pi P = pi:", torch.allclose(stationary @ P, stationary))

A = torch.tensor([[0.5, 2.0, 0.0], [-1.0, 0.3, 0.4], [0.2, -0.6, 0.8]], dtype=torch.float64,
                 requires_grad=True)
eigenvalues = torch.linalg.eigvals(A)
radius = eigenvalues.abs().max()
radius.backward()
print("eigenvalues:", eigenvalues)
print(f"spectral radius: {radius.item():.10f}")
print("d radius / dA:", A.grad)
