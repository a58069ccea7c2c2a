"""What every torch distribution has beyond sampling and log_prob, on npgrad against real torch
run here: cdf and icdf (Normal, Laplace, Exponential, LogNormal, with gradients), mode, stddev,
perplexity, enumerate_support and param_shape of the discrete ones, expand, sample_n's warning,
and the base class's NotImplementedError for what a kind does not define."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.distributions import (Normal, Laplace, Exponential, LogNormal, Uniform, Bernoulli,
                                 Categorical, MultivariateNormal, Independent)
x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
n = Normal(torch.tensor(0.5, requires_grad=True), torch.tensor(1.5))
c = n.cdf(x)
print(c, n.icdf(torch.tensor([0.1, 0.5, 0.975])))
c.sum().backward(); print(x.grad, n.loc.grad)
print(Normal(0., 1.).cdf(torch.tensor(1.96)), Normal(0., 1.).icdf(torch.tensor(0.975)))
l = Laplace(torch.tensor([0., 1.]), torch.tensor([1., 2.]))
print(l.cdf(torch.tensor([0.3, -1.])), l.icdf(torch.tensor([0.2, 0.7])), l.mode, l.stddev)
e = Exponential(torch.tensor([2.0, 0.5]))
print(e.icdf(torch.tensor([0.3, 0.9])), e.mode, e.stddev)
ln = LogNormal(torch.tensor(0.2), torch.tensor(0.5))
print(ln.cdf(torch.tensor([0.5, 1.5])), ln.icdf(torch.tensor([0.25, 0.5])), ln.mode, ln.stddev)
u = Uniform(torch.tensor([0., 1.]), torch.tensor([2., 4.]))
print(u.mode, u.stddev, u.perplexity())
b = Bernoulli(probs=torch.tensor([0.2, 0.5, 0.9]))
print(b.mean, b.mode, b.variance, b.stddev, b.enumerate_support(), b.enumerate_support(False))
print(b.has_enumerate_support, b.param_shape, b.perplexity())
k = Categorical(logits=torch.tensor([[0.1, 2.0, -1.0], [1.0, 1.0, 0.0]]))
print(k.mean, k.mode, k.variance, k.enumerate_support(), k.enumerate_support(expand=False).shape)
print(k.param_shape, k.perplexity())
m = MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(m.mode, m.stddev)
i = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
print(i.mode, i.stddev, i.expand([4]).batch_shape, i.expand([4]))
print(Normal(torch.zeros(3), 1.).expand([2, 3]), Normal(0., 1.).expand([5]).sample().shape)
print(Categorical(probs=torch.tensor([0.3, 0.7])).expand([4]).batch_shape)
print(m.expand([3]).loc.shape, m.expand([3]))
print(n.mode, n.stddev, n.perplexity(), Normal(0., 1.).has_enumerate_support)
torch.manual_seed(0)
print(Normal(0., 1.).sample_n(3))
for what in [lambda: Bernoulli(0.3).cdf(torch.tensor(1.)),
             lambda: Normal(0., 1.).enumerate_support()]:
    try:
        print(what())
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_distribution_methods_beyond_sampling_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
