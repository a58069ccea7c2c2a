"""torch.distributions' Uniform, Exponential, Laplace, LogNormal, MultivariateNormal (by
covariance, scale_tril or precision) and Independent on npgrad against real torch, run here:
samples from torch's stream, log_prob, entropy, moments, cdf, argument checks and their
messages, kl_divergence, and maximum likelihood and reparameterised gradients through them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.distributions import (Exponential, Independent, Laplace, LogNormal, MultivariateNormal,
                                 Normal, Uniform, kl_divergence)
torch.manual_seed(0)
u = Uniform(0., 2.)
print(u, u.sample((3,)), u.log_prob(torch.tensor(1.)), u.entropy(), u.mean, u.stddev, u.variance)
u2 = Uniform(torch.zeros(2), torch.ones(2))
print(u2, u2.batch_shape, u2.cdf(torch.tensor([0.5, 1.0])), u2.icdf(torch.tensor([0.25, 0.5])))
e = Exponential(torch.tensor([1., 2.]))
print(e, e.sample(), e.rsample((2,)), e.log_prob(torch.tensor([0.5, 1.])), e.entropy(), e.mean,
      e.variance, e.cdf(torch.tensor([1.0, 1.0])))
lap = Laplace(0., 1.)
print(lap, lap.sample((3,)), lap.log_prob(torch.tensor(0.3)), lap.entropy(), lap.variance)
ln = LogNormal(0., 0.5)
print(ln, ln.sample((2,)), ln.log_prob(torch.tensor(1.3)), ln.mean, ln.entropy(), ln.variance)
cov = torch.tensor([[2., 0.5], [0.5, 1.]])
m = MultivariateNormal(torch.zeros(2), cov)
print(m)
print(m.sample(), m.sample((2,)), m.log_prob(torch.tensor([0.5, -0.3])), m.entropy())
print(m.covariance_matrix, m.variance, m.scale_tril, m)
m2 = MultivariateNormal(torch.ones(3, 2), scale_tril=torch.tensor([[1., 0.], [0.3, 0.8]]))
print(m2, m2.batch_shape, m2.event_shape, m2.log_prob(torch.zeros(3, 2)), m2.rsample().shape)
m3 = MultivariateNormal(torch.zeros(2), precision_matrix=torch.linalg.inv(cov))
print(m3.scale_tril, m3.log_prob(torch.tensor([[0.5, -0.3], [1.0, 1.0]])))
ind = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(ind, ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(3)), ind.sample(),
      ind.entropy())
for bad in ("Uniform(0., 1.).log_prob(torch.tensor([2.]))", "Uniform(1., 0.)",
            "Exponential(torch.tensor([-1.]))", "Laplace(0., -1.)",
            "u2.cdf(torch.tensor([0.5, 2.0]))"):
    try:
        eval(bad)
    except ValueError as ex:
        print(type(ex).__name__, ex)
print(kl_divergence(ind, Independent(Normal(torch.ones(3), torch.ones(3) * 2), 1)))
print(kl_divergence(Uniform(0., 1.), Uniform(-1., 2.)),
      kl_divergence(Uniform(0., 1.), Uniform(0.5, 2.)),
      kl_divergence(Exponential(torch.tensor(1.)), Exponential(torch.tensor(2.))))
print(kl_divergence(m, MultivariateNormal(torch.ones(2), torch.eye(2) * 2)))
# learning a Gaussian by maximum likelihood, and a reparameterised loss
mu = torch.zeros(2, requires_grad=True)
raw = torch.zeros(2, 2, requires_grad=True)
data = MultivariateNormal(torch.tensor([1.0, -1.0]), cov).sample((200,))
opt = torch.optim.Adam([mu, raw], lr=0.1)
for step in range(50):
    lower = torch.tril(raw, -1) + torch.diag(raw.diagonal().exp())
    nll = -MultivariateNormal(mu, scale_tril=lower).log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
print(round(nll.item(), 4), mu.detach(), (lower @ lower.T).detach())
rate = torch.tensor(2.0, requires_grad=True)
loss = Exponential(rate).rsample((100,)).mean() + Laplace(rate, 1.0).rsample((5,)).sum() + \
    LogNormal(rate * 0.1, 0.5).rsample((3,)).sum() + Uniform(rate - 1, rate + 1).rsample().sum()
loss.backward()
print(loss, rate.grad)
"""


def test_more_distributions_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
