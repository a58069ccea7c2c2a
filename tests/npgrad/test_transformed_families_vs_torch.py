"""torch.distributions' HalfNormal, HalfCauchy, Weibull, Pareto and InverseGamma (torch's
transformed distributions) and Gamma.cdf on npgrad against real torch, run here: draws from
torch's stream, reparameterised and score gradients, moments, entropy, cdf and icdf,
supports, expand, reprs and torch's errors (Weibull's graph freed by a first gradient
too)."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + r"""
import torch
import torch.distributions as D
torch.manual_seed(0)
s = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([0.5, 3.0], requires_grad=True)
x = torch.tensor([1.5, 2.5])
for make in (lambda: D.HalfNormal(s), lambda: D.HalfCauchy(s), lambda: D.Weibull(s, c),
             lambda: D.Pareto(s, c), lambda: D.InverseGamma(c, s), lambda: D.HalfNormal(1.5),
             lambda: D.Weibull(1., 2.), lambda: D.Pareto(1., 3.), lambda: D.InverseGamma(3., 2.)):
    d = make()
    print(d, d.sample((2,)), d.support)
    show("rsample", lambda: torch.autograd.grad(d.rsample((3,)).sum(), (s, c), allow_unused=True))
    show("log_prob", lambda: torch.autograd.grad(d.log_prob(x).sum(), (s, c), allow_unused=True))
    show("moments", lambda: (d.mean, d.mode, d.variance, d.stddev, d.entropy()))
    show("cdf", lambda: (d.cdf(x), d.icdf(torch.tensor([0.3, 0.6]))))
    show("expand", lambda: (d.expand((3, 2)).batch_shape, d.expand((3, 2)).sample().shape))
    show("outside", lambda: d.log_prob(torch.tensor([-1.0, 0.5])))
g = D.Gamma(torch.tensor([2.0, 0.7]), torch.tensor([1.5, 3.0]))
print(g.cdf(torch.tensor([0.5, 1.0])), g.cdf(torch.tensor(2.0)))
show("gamma cdf outside", lambda: g.cdf(torch.tensor([-0.5, 1.0])))
for bad in ("D.HalfNormal(-1.)", "D.HalfCauchy(torch.tensor([0., 1.]))", "D.Weibull(1., -2.)",
            "D.Weibull(-1., 2.)", "D.Pareto(1., -2.)", "D.Pareto(-1., 2.)",
            "D.InverseGamma(-1., 2.)"):
    show(bad, lambda: eval(bad))
print(torch.rand(2))
"""


def test_transformed_families_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


SIMPLEX_AND_UNIT = SHOW + r"""
import torch
import torch.distributions as D
from torch.distributions.weibull import Weibull
from torch.distributions.transforms import SoftmaxTransform
torch.manual_seed(0)
a = torch.tensor([0.5, 2.0], requires_grad=True)
b = torch.tensor([3.0, 0.7], requires_grad=True)
for make in (lambda: D.Kumaraswamy(a, b), lambda: D.Kumaraswamy(2., 5.),
             lambda: D.LogisticNormal(a, b), lambda: D.LogisticNormal(0., 1.),
             lambda: D.OneHotCategoricalStraightThrough(probs=a.softmax(0)),
             lambda: D.OneHotCategoricalStraightThrough(logits=torch.randn(2, 3))):
    d = make()
    print(d, d.sample((2,)), d.batch_shape, d.event_shape, d.support)
    weights = torch.arange(1., 2. + (d.event_shape.numel() if d.event_shape else 0))[:3]
    show("rsample", lambda: torch.autograd.grad((d.rsample((3,)) * weights[-1]).sum(), (a, b),
                                                allow_unused=True))
    value = d.sample()
    show("log_prob", lambda: (d.log_prob(value),
                              torch.autograd.grad(d.log_prob(value).sum(), (a, b),
                                                  allow_unused=True)))
    show("moments", lambda: (d.mean, d.variance, d.mode, d.entropy()))
    show("expand", lambda: d.expand((3, 2) if d.batch_shape else (3,)).sample().shape)
for bad in ("D.Kumaraswamy(-1., 2.)", "D.Kumaraswamy(1., -2.)", "D.LogisticNormal(0., -1.)",
            "D.Kumaraswamy(2., 3.).log_prob(torch.tensor(1.5))"):
    show(bad, lambda: eval(bad))
print(D.Gumbel, D.Binomial, D.NegativeBinomial, D.Multinomial, D.HalfNormal, D.Kumaraswamy,
      D.LogisticNormal, D.RelaxedBernoulli, D.OneHotCategoricalStraightThrough, Weibull,
      SoftmaxTransform, D.transforms.StickBreakingTransform, torch.nn.FractionalMaxPool2d,
      D.constraint_registry.ConstraintRegistry, type(D.constraints.multinomial(3)))
print(torch.rand(2))
"""


def test_simplex_and_unit_interval_families_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SIMPLEX_AND_UNIT, tmp_path)
