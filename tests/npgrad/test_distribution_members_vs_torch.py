"""What each distribution answers for the members torch's base class declares (mean,
variance, stddev, mode, entropy, rsample, sample, cdf, enumerate_support) on npgrad
against real torch, run here: values where the kind defines them, torch's errors where it
does not (a NotImplementedError, an Independent's refusal to enumerate a cartesian product,
a transformed distribution's check of the value its base is given)."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + r"""
import torch
import torch.distributions as D
torch.manual_seed(0)
normal = D.Normal(torch.zeros(2, 3), torch.ones(2, 3))
mixing, parts = D.Categorical(torch.ones(2)), D.Normal(torch.tensor([-1., 1.]), torch.ones(2))
ds = {
    "Independent": D.Independent(normal, 1), "Mixture": D.MixtureSameFamily(mixing, parts),
    "TD": D.TransformedDistribution(D.Normal(0., 1.), [D.transforms.ExpTransform()]),
    "MVN": D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
    "Dirichlet": D.Dirichlet(torch.ones(3)), "StudentT": D.StudentT(3.), "Chi2": D.Chi2(3.),
    "Geometric": D.Geometric(0.3), "Poisson": D.Poisson(2.),
    "OneHot": D.OneHotCategorical(torch.ones(3)),
    "RelaxedOneHot": D.RelaxedOneHotCategorical(torch.tensor(0.5), torch.ones(3) / 3),
    "Cauchy": D.Cauchy(0., 1.), "LogNormal": D.LogNormal(0., 1.), "Laplace": D.Laplace(0., 1.),
    "Categorical": D.Categorical(torch.ones(3)),
}
for name, d in ds.items():
    for attr in ("mean", "variance", "stddev", "mode"):
        show(f"{name}.{attr}", lambda: getattr(d, attr))
    show(f"{name}.entropy", lambda: d.entropy())
    show(f"{name}.rsample", lambda: d.rsample().shape)
    show(f"{name}.sample", lambda: d.sample().shape)
    show(f"{name}.cdf", lambda: d.cdf(torch.tensor(0.5)))
    show(f"{name}.enumerate", lambda: d.enumerate_support().shape)
"""


def test_base_members_as_torch(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
