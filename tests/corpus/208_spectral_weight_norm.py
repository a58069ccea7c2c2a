# In the style of: the docs' parametrizations: spectral_norm and weight_norm on layers, and removing them (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parametrizations, parametrize

torch.manual_seed(23)

D = nn.Sequential(
    parametrizations.spectral_norm(nn.Linear(6, 16)), nn.LeakyReLU(0.1),
    parametrizations.spectral_norm(nn.Linear(16, 16)), nn.LeakyReLU(0.1),
    parametrizations.weight_norm(nn.Linear(16, 1)))
print([n for n, _ in D.named_parameters()])
print(type(D[0].parametrizations.weight[0]).__name__)
opt = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.0, 0.9))
real = torch.randn(16, 6) + 1
fake = torch.randn(16, 6)
for it in range(5):
    loss = F.relu(1.0 - D(real)).mean() + F.relu(1.0 + D(fake)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sv = torch.linalg.matrix_norm(D[0].weight.detach(), ord=2)
    print(f"it {it} hinge {loss.item():.6f} sigma_max {sv.item():.5f}")
print(D[4].parametrizations.weight.original0.grad.flatten()[:1], D[4].parametrizations.weight.original1.grad[0, :4])
print(D[0].parametrizations.weight.original.grad[0, :4])
D.eval()
with torch.no_grad():
    print(D(real[:3]).squeeze(-1))
w = D[2].weight
print(w.grad_fn.name(), torch.linalg.svdvals(w.detach())[:3])
lin = nn.Linear(3, 3)
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)
parametrize.register_parametrization(lin, "weight", Symmetric())
print(torch.equal(lin.weight, lin.weight.T), parametrize.is_parametrized(lin))
out = lin(torch.ones(2, 3)).sum(); out.backward()
print(lin.parametrizations.weight.original.grad)
