"""A distribution's parameters given as Python numbers beside tensors, on npgrad against real
torch, run here: as torch's broadcast_all, each number takes the first tensor's dtype (0.1
beside a float64 scale is float64's 0.1, not float32's widened), or the default dtype where
no parameter is a tensor; and a parameter that is neither is refused in torch's words."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + r"""
import torch
import torch.distributions as D
torch.manual_seed(0)
s = torch.tensor([1.0, 2.5], dtype=torch.float64)
h = torch.tensor([0.5, 3.0], dtype=torch.float16)
for make in (lambda: D.Normal(0.1, s), lambda: D.Binomial(s * 4, probs=0.3),
             lambda: D.Uniform(0.1, s), lambda: D.Gumbel(0.1, s), lambda: D.Weibull(s, 2.1),
             lambda: D.Gamma(2.1, s), lambda: D.Laplace(0.1, s), lambda: D.Cauchy(0.1, s),
             lambda: D.StudentT(3.1, 0.1, s), lambda: D.Pareto(1.1, s),
             lambda: D.Kumaraswamy(2.1, s), lambda: D.NegativeBinomial(s, probs=0.3),
             lambda: D.Beta(0.7, s), lambda: D.Exponential(s), lambda: D.Normal(0.1, 0.2),
             lambda: D.Normal(h, 0.1)):
    d = make()
    print(type(d).__name__, d.mean.dtype, d.sample().dtype)
print(D.Normal(0.1, s).loc.tolist(), D.Uniform(0.1, s).low.tolist(),
      D.Binomial(s * 4, probs=0.3).probs.tolist(), D.Gamma(2.1, s).concentration.tolist(),
      D.Pareto(1.1, s).scale.tolist(), D.Beta(0.7, s).concentration1.tolist(),
      D.Normal(0.1, 0.2).loc.tolist())
show("not a number", lambda: D.Normal([0.0], s))
"""


def test_number_parameters_take_the_tensors_dtype(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
