"""The gamma family on the NumPy engine against torch run here: _standard_gamma, poisson and
_sample_dirichlet draw torch's numbers bit for bit and leave the stream where torch leaves it;
the gradients of a draw (_standard_gamma_grad, _dirichlet_grad) are torch's approximations;
and the distributions built on them (Gamma, Chi2, StudentT, Poisson, Dirichlet, Beta) print
what torch prints, gradients through rsample and their KL divergences included."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

torch = pytest.importorskip("torch")

DTYPES = ("float32", "float64")


def _spread(seed: int, count: int, low: float, high: float) -> np.ndarray:
    """Positive numbers spread over decades (exp of a uniform)."""
    return np.exp(np.random.default_rng(seed).uniform(low, high, count))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("draw", ["_standard_gamma", "poisson", "_sample_dirichlet"])
def test_draws_are_torchs_bit_for_bit(draw, dtype):
    for seed in range(25):
        values = _spread(seed, 60, -3.0, 4.0).reshape(20, 3)
        values[0, 0] = 0.0
        torch.manual_seed(seed)
        pg.manual_seed(seed)
        theirs = getattr(torch, draw)(torch.tensor(values, dtype=getattr(torch, dtype)))
        mine = getattr(pg, draw)(pg.tensor(values, dtype=getattr(pg, dtype)))
        assert str(mine.dtype) == str(theirs.dtype)
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
        # the same number of uniforms and normals taken (normal_'s spare one included)
        assert np.array_equal(pg.randn(3).numpy(), torch.randn(3).numpy())


def test_a_gamma_draws_gradient_is_torchs():
    """float32 bit for bit; float64 within a few last bits (1 value in 10,000 seen to differ,
    in the small-x series)."""
    alphas = _spread(1, 20000, -3.0, 4.0)
    draws = alphas * np.exp(np.random.default_rng(2).normal(0.0, 0.7, alphas.size))
    for dtype, tolerance in (("float32", 0.0), ("float64", 4e-16)):
        a, x = (v.astype(dtype) for v in (alphas, draws))
        theirs = torch._standard_gamma_grad(torch.tensor(a), torch.tensor(x)).numpy()
        mine = pg._standard_gamma_grad(pg.tensor(a), pg.tensor(x)).numpy()
        np.testing.assert_allclose(mine, theirs, rtol=tolerance, atol=0)


def test_a_dirichlet_draws_gradient_is_torchs():
    """float64 bit for bit over all four of torch's approximations; float32 within 5e-5
    relative (torch takes the series' steps in float, through logf and powf: about 1 value in
    200 differs in its last bits, one in 20,000 by 2e-5)."""
    rng = np.random.default_rng(3)
    alpha, beta = _spread(4, 20000, -2.0, 3.0), _spread(5, 20000, -2.0, 3.0)
    x = np.clip(rng.beta(alpha, beta), 1e-6, 1 - 1e-6)
    for dtype, tolerance in (("float64", 0.0), ("float32", 5e-5)):
        arrays = [v.astype(dtype) for v in (x, alpha, alpha + beta)]
        theirs = torch._dirichlet_grad(*(torch.tensor(v) for v in arrays)).numpy()
        mine = pg._dirichlet_grad(*(pg.tensor(v) for v in arrays)).numpy()
        np.testing.assert_allclose(mine, theirs, rtol=tolerance, atol=0)


SCRIPTS = {
    'gamma_poisson_beta': r'''
import torch
from torch.distributions import Gamma, Chi2, StudentT, Poisson, Dirichlet, Beta
import torch.distributions.studentT as st
torch.manual_seed(11)
g = Gamma(torch.tensor([0.5, 2.0, 9.5]), torch.tensor([1.0, 0.5, 3.0]))
print(g, g.batch_shape, g.sample(), g.sample((2,)))
print(g.mean, g.mode, g.variance, g.entropy(), g.log_prob(torch.tensor([0.3, 4.0, 2.5])))
conc = torch.tensor([0.7, 3.0, 12.0], requires_grad=True)
rate = torch.tensor([2.0], requires_grad=True)
x = Gamma(conc, rate).rsample((2,))
print(x, x.grad_fn.name())
x.sum().backward()
print(conc.grad, rate.grad)
print(Gamma(2.0, 3.0), Gamma(2.0, 3.0).sample(), Gamma(3.0, 1.0).rsample((3,)))
c = Chi2(torch.tensor([1.0, 4.0]))
print(c, c.df, c.sample(), c.log_prob(torch.tensor([0.5, 3.0])), c.mean, c.expand((3, 2)).sample())
t = StudentT(torch.tensor([0.8, 1.5, 5.0]), torch.tensor([0.0, 1.0, -1.0]),
             torch.tensor([1.0, 2.0, 0.5]))
print(t, t.sample(), t.mean, t.variance, t.entropy(), t.log_prob(torch.tensor([0.1, 2.0, -3.0])))
df = torch.tensor([3.0], requires_grad=True)
y = StudentT(df).rsample((4,))
y.sum().backward()
print(y, df.grad)
print(st.StudentT(4.0).sample((3,)))
p = Poisson(torch.tensor([0.5, 3.0, 25.0]))
print(p, p.sample(), p.sample((2,)), p.log_prob(torch.tensor([0., 2., 30.])), p.mode)
print(Poisson(4.0).sample((5,)))
d = Dirichlet(torch.tensor([[0.5, 1.0, 2.0], [4.0, 4.0, 0.2]]))
print(d, d.batch_shape, d.event_shape, d.sample(), d.mean, d.variance, d.entropy(), d.mode)
print(d.log_prob(torch.tensor([[0.2, 0.3, 0.5], [0.4, 0.4, 0.2]])))
alpha = torch.tensor([1.5, 0.5, 3.0], requires_grad=True)
s = Dirichlet(alpha).rsample((2,))
print(s, s.grad_fn.name())
(s * torch.tensor([1.0, -2.0, 0.5])).sum().backward()
print(alpha.grad)
b = Beta(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 0.5]))
print(b, b.concentration1, b.sample(), b.mean, b.variance, b.entropy(),
      b.log_prob(torch.tensor([0.3, 0.9])), b.mode)
a1 = torch.tensor([2.0], requires_grad=True)
a0 = torch.tensor([5.0], requires_grad=True)
z = Beta(a1, a0).rsample((3,))
z.sum().backward()
print(z, a1.grad, a0.grad)
print(Beta(2.0, 2.0).sample((4,)), Beta(2.0, 2.0).batch_shape)
for bad in [lambda: Gamma(-1.0, 1.0), lambda: Gamma(1.0, torch.tensor([1.0, 0.0])),
            lambda: Chi2(-2.0), lambda: StudentT(0.0), lambda: Poisson(torch.tensor([-1.0])),
            lambda: Dirichlet(torch.tensor(1.0)), lambda: Dirichlet(torch.tensor([1.0, -1.0])),
            lambda: Beta(0.0, 1.0), lambda: g.log_prob(torch.tensor([-1.0, 1.0, 1.0])),
            lambda: p.log_prob(torch.tensor([0.5, 1., 1.])),
            lambda: d.log_prob(torch.tensor([0.5, 0.6, 0.1])),
            lambda: b.log_prob(torch.tensor([1.5, 0.5])),
            lambda: d.log_prob(torch.tensor([0.5, 0.5])), lambda: t.log_prob(torch.ones(2))]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
print(torch.rand(2))
''',
    'ppo_beta_policy_in_float64': r'''
import torch
from torch.distributions import Beta, Gamma, Dirichlet
torch.manual_seed(0)
head = torch.nn.Linear(3, 2).double()
obs = torch.randn(5, 3, dtype=torch.float64)
params = torch.nn.functional.softplus(head(obs)) + 1.0
policy = Beta(params[:, 0], params[:, 1])
actions = policy.sample()
old = policy.log_prob(actions).detach()
ratio = (policy.log_prob(actions) - old).exp()
advantage = torch.linspace(-1, 1, 5, dtype=torch.float64)
loss = -(ratio * advantage).mean() - 0.01 * policy.entropy().mean()
loss.backward()
print(actions, loss)
print(head.weight.grad, head.bias.grad)
k = torch.tensor([0.2, 1.0, 30.0], dtype=torch.float64, requires_grad=True)
draw = Gamma(k, 1.0).rsample((3,))
draw.sum().backward()
print(draw, k.grad)
topics = Dirichlet(torch.full((4,), 0.3, dtype=torch.float64)).sample((2,))
print(topics, topics.sum(-1))
''',
    'kl_divergences': r'''
import torch
from torch.distributions import Gamma, Chi2, Beta, Dirichlet, Poisson, Cauchy, Geometric
from torch.distributions import kl_divergence
a = torch.tensor([0.5, 2.0], requires_grad=True)
pairs = [(Gamma(a, 2.0), Gamma(torch.tensor([1.0, 3.0]), 0.5)),
         (Chi2(torch.tensor([2.0, 5.0])), Chi2(torch.tensor([3.0, 1.0]))),
         (Beta(a, torch.tensor([1.5, 0.7])),
          Beta(torch.tensor([2.0, 2.0]), torch.tensor([1.0, 4.0]))),
         (Dirichlet(torch.stack([a, a * 2, a + 1], -1)), Dirichlet(torch.tensor([1.0, 1.0, 1.0]))),
         (Poisson(a * 3), Poisson(torch.tensor([1.0, 2.0]))),
         (Cauchy(a, 1.0), Cauchy(0.0, 2.0)),
         (Geometric(a / 3), Geometric(torch.tensor([0.5, 0.1])))]
total = 0
for p, q in pairs:
    kl = kl_divergence(p, q)
    print(type(p).__name__, kl)
    total = total + kl.sum()
total.backward()
print(a.grad)
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_distribution_scripts_print_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
