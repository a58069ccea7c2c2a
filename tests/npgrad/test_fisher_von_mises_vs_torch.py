"""FisherSnedecor and VonMises on npgrad against real torch, run here: parameters, moments,
draws (torch's generator: Gamma draws for the one, the rejection sampler's uniforms for the
other), log_prob and its gradients, torch's checks and where the classes print from."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.distributions import FisherSnedecor, VonMises
torch.manual_seed(0)
df1 = torch.tensor([1.5, 4.0, 7.0], requires_grad=True)
df2 = torch.tensor([3.0, 5.0, 2.5], requires_grad=True)
f = FisherSnedecor(df1, df2)
print(f, f.batch_shape, f.support, f.has_rsample, f.mean, f.mode, f.variance)
x = f.rsample((2,))
print(x, x.grad_fn.name())
lp = f.log_prob(torch.tensor([0.5, 1.0, 2.0]))
print(lp, lp.grad_fn.name(), torch.autograd.grad(lp.sum(), (df1, df2)))
print(FisherSnedecor(2.0, 3.0).sample(), FisherSnedecor(2.0, 3.0).expand((2,)).sample(),
      f.expand((4, 3)).batch_shape)
try:
    FisherSnedecor(torch.tensor(-1.0), 2.0)
except ValueError as e:
    print(e)
try:
    f.log_prob(torch.tensor([-1.0, 1, 1]))
except ValueError as e:
    print(str(e)[:160])
loc = torch.tensor([0.3, -2.0, 3.0], requires_grad=True)
kappa = torch.tensor([0.5, 4.0, 20.0], requires_grad=True)
v = VonMises(loc, kappa)
print(v, v.mean, v.mode, v.variance, v.has_rsample, v.support)
print(v.sample(), v.sample((2,)), v.sample((3,)).shape)
lp = v.log_prob(torch.tensor([0.0, 1.0, 3.1]))
print(lp, lp.grad_fn.name(), torch.autograd.grad(lp.sum(), (loc, kappa)))
print(VonMises(0.0, 1.0).sample((4,)), VonMises(torch.zeros(2, dtype=torch.float64),
      torch.tensor([1e-6, 1.0], dtype=torch.float64)).sample())
print(v.expand((2, 3)).sample().shape, torch.rand(2))
try:
    VonMises(0.0, -1.0)
except ValueError as e:
    print(e)
print(type(v).__module__, type(f).__module__, v.__dict__.keys())
"""


def test_fisher_snedecor_and_von_mises_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
