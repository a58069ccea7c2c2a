"""torch.distributions' transforms and the distributions made of others, on the NumPy engine
against torch run here: a tanh-squashed Normal policy (rsample, log_prob by the change of
variables, gradients), composed and inverse transforms, a Gaussian mixture
(MixtureSameFamily: sampling in torch's order of draws, log_prob, a fitting step),
OneHotCategorical and the constraints' checks and reprs; and torch's older triangular helpers
(triangular_solve, cholesky_inverse) with linalg.vander and linalg.diagonal; as_strided and
stft (torch's graph of it; its warnings are checked for their words, torch names its own
file as their place); torch.gradient."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

SCRIPTS = {
    'transforms_mixtures_one_hot': r'''
import torch
from torch.distributions import (Normal, Categorical, MixtureSameFamily, TransformedDistribution,
                                 OneHotCategorical, constraints, Uniform)
from torch.distributions.transforms import (TanhTransform, AffineTransform, ExpTransform,
                                            SigmoidTransform, ComposeTransform, PowerTransform)
torch.manual_seed(2)
mu = torch.tensor([0.3, -0.5], requires_grad=True)
sigma = torch.tensor([0.8, 1.2], requires_grad=True)
squashed = TransformedDistribution(Normal(mu, sigma), [TanhTransform(cache_size=1)])
action = squashed.rsample()
logp = squashed.log_prob(action)
print(squashed, squashed.batch_shape, squashed.event_shape, squashed.has_rsample)
print(action, logp)
(logp.sum() + action.sum()).backward()
print(mu.grad, sigma.grad)
t = ComposeTransform([AffineTransform(1.0, 2.0), ExpTransform()])
print(t, t.inv, t.domain, t.codomain, t.bijective, t.sign)
x = torch.tensor([0.1, -0.4])
y = t(x)
print(y, t.inv(y), t.log_abs_det_jacobian(x, y))
logit_normal = TransformedDistribution(Normal(0.0, 1.0), SigmoidTransform())
s = logit_normal.sample((4,))
print(s, logit_normal.log_prob(s), logit_normal.support)
p = PowerTransform(torch.tensor(2.0))
print(p(torch.tensor([1.5, 3.0])), p.inv(torch.tensor([4.0])),
      p.log_abs_det_jacobian(torch.tensor([1.5]), torch.tensor([2.25])))
mix = Categorical(torch.tensor([0.3, 0.5, 0.2]))
comp = Normal(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor([0.5, 1.0, 0.7]))
gmm = MixtureSameFamily(mix, comp)
print(gmm)
print(gmm.sample((6,)), gmm.mean, gmm.variance)
print(gmm.log_prob(torch.tensor([-2.0, 0.1, 2.5])))
weights = torch.zeros(3, requires_grad=True)
means = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
model = MixtureSameFamily(Categorical(logits=weights), Normal(means, torch.ones(3)))
nll = -model.log_prob(torch.tensor([0.5, -1.5, 2.0, 0.0])).mean()
nll.backward()
print(nll, weights.grad, means.grad)
batch = MixtureSameFamily(Categorical(torch.ones(2, 3)),
                          Normal(torch.randn(2, 3), torch.ones(2, 3)))
print(batch.batch_shape, batch.sample((2,)).shape, batch.log_prob(torch.zeros(2)))
oh = OneHotCategorical(torch.tensor([0.2, 0.5, 0.3]))
print(oh, oh.sample(), oh.sample((3,)), oh.log_prob(torch.tensor([0., 1., 0.])), oh.entropy())
print(oh.mean, oh.mode, oh.variance, oh.enumerate_support(), oh.batch_shape, oh.event_shape)
for c in [constraints.positive, constraints.real, constraints.unit_interval, constraints.simplex,
          constraints.interval(-1.0, 2.0), constraints.greater_than(3),
          constraints.nonnegative_integer,
          constraints.independent(constraints.positive, 1), constraints.boolean,
          constraints.real_vector]:
    print(c, c.event_dim, c.is_discrete, c.check(torch.tensor([[0.5, 0.5], [-1.0, 2.0]])))
print(Normal(0., 1.).support, Uniform(0., 1.).has_rsample)
for bad in [lambda: squashed.log_prob(torch.tensor([1.5, 0.0])),
            lambda: TransformedDistribution(Normal(0., 1.), "exp"),
            lambda: MixtureSameFamily(Categorical(torch.ones(2)), comp),
            lambda: oh.log_prob(torch.tensor([0.5, 0.5, 0.]))]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
''',
    'gmm_fit_by_gradient_descent': r'''
import torch
from torch.distributions import Categorical, MixtureSameFamily, Normal, Independent
torch.manual_seed(0)
data = torch.cat([torch.randn(20, 2) * 0.5 - 1.0, torch.randn(20, 2) * 0.3 + 1.5])
logits = torch.zeros(2, requires_grad=True)
means = torch.tensor([[-0.5, 0.0], [0.5, 0.5]], requires_grad=True)
log_scales = torch.zeros(2, 2, requires_grad=True)
optimizer = torch.optim.Adam([logits, means, log_scales], lr=0.1)
for step in range(25):
    optimizer.zero_grad()
    gmm = MixtureSameFamily(Categorical(logits=logits),
                            Independent(Normal(means, log_scales.exp()), 1))
    loss = -gmm.log_prob(data).mean()
    loss.backward()
    optimizer.step()
    if step % 8 == 0:
        print(step, round(loss.item(), 4))
print(means.detach(), logits.softmax(-1).detach())
print(gmm.sample((3,)))
''',
    'triangular_helpers': r'''
import torch
A = torch.tensor([[2.0, 0.5, -1.0], [0.0, 1.5, 0.3], [0.0, 0.0, 0.8]], requires_grad=True)
b = torch.tensor([[1.0, 0.2], [2.0, -1.0], [0.5, 0.4]], requires_grad=True)
r = torch.triangular_solve(b, A)
print(r)
(r.solution.sum() + (r.cloned_coefficient * 2).sum()).backward()
print(b.grad, A.grad)
for upper, transpose, unit in [(False, False, False), (True, True, False), (False, True, True),
                              (True, False, True)]:
    M = (A.detach() if upper else A.detach().t()).requires_grad_()
    c = b.detach().clone().requires_grad_()
    x, copy = torch.triangular_solve(c, M, upper=upper, transpose=transpose, unitriangular=unit)
    (x * torch.tensor([[1.0, -1.0], [0.5, 2.0], [3.0, 1.0]])).sum().backward()
    print(upper, transpose, unit, x, c.grad, M.grad)
x, _ = b.triangular_solve(A)
print(x, x.grad_fn.name())
L = torch.tensor([[2.0, 0.0, 0.0], [0.5, 1.5, 0.0], [-0.3, 0.2, 0.9]], requires_grad=True)
inv = torch.cholesky_inverse(L)
print(inv, inv.grad_fn.name())
(inv * torch.arange(9.).reshape(3, 3)).sum().backward()
print(L.grad)
U = L.detach().t().contiguous().requires_grad_()
iu = torch.cholesky_inverse(U, upper=True)
iu.trace().backward()
print(iu, U.grad)
xs = torch.tensor([1.0, 2.0, -1.5], requires_grad=True)
v = torch.linalg.vander(xs)
print(v, v.grad_fn.name(), torch.linalg.vander(xs, N=4))
(v * v).sum().backward()
print(xs.grad)
print(torch.linalg.vander(torch.tensor([2, 3])),
      torch.linalg.vander(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
m = torch.arange(12.).reshape(2, 2, 3).requires_grad_()
d = torch.linalg.diagonal(m)
print(d, d.grad_fn.name(), torch.linalg.diagonal(m, offset=1),
      torch.linalg.diagonal(m, dim1=0, dim2=2))
d.sum().backward()
print(m.grad)
for bad in [lambda: torch.linalg.vander(xs, N=1), lambda: torch.triangular_solve(torch.ones(3), A),
            lambda: torch.cholesky_inverse(torch.ones(2, 3))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", e)
''',
    'as_strided_and_stft': r'''
import torch
x = torch.arange(10.)
print(x.as_strided((3, 4), (2, 1)), x[2:].as_strided((2, 2), (1, 1)),
      x[2:].as_strided((2, 2), (1, 1), 0))
try:
    x.as_strided((5, 5), (3, 1))
except RuntimeError as e:
    print("RuntimeError", e)
y = torch.arange(6.).reshape(2, 3).t()
print(y.as_strided((2, 2), (1, 2)), torch.as_strided(x, (2,), (3,), 1))
a = torch.zeros(6)
v = a.as_strided((2, 2), (2, 1))
v.add_(1)
print(a, v)
xx = torch.arange(5., requires_grad=True)
s = xx.as_strided((2, 3), (1, 1))
(s * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(s.grad_fn.name(), xx.grad)
torch.manual_seed(0)
signal = torch.randn(32, requires_grad=True)
window = torch.hann_window(8)
spec = torch.stft(signal, 8, hop_length=4, window=window, return_complex=True)
print(spec.shape, spec.dtype, spec.grad_fn.name())
print(spec[:2, :3].real, spec[1:3, 1:4].imag)
spec.abs().pow(2).sum().backward()
print(signal.grad[:6])
batch = torch.randn(2, 16)
print(torch.stft(batch, 8, window=torch.hann_window(8), return_complex=True, center=False).shape)
print(torch.stft(batch, 8, hop_length=2, win_length=6, window=torch.hann_window(6),
                 normalized=True, return_complex=True)[0, 1, 1:3])
print(torch.stft(torch.arange(8.), 4, window=torch.ones(4), return_complex=True,
                 onesided=False).shape)
''',
    'numerical_gradient': r'''
import torch
x = torch.tensor([1., 4., 9., 16., 25.], requires_grad=True)
g = torch.gradient(x)
print(g, g[0].grad_fn.name(), [n[0].name() for n in g[0].grad_fn.next_functions])
g[0].sum().backward()
print(x.grad)
print(torch.gradient(x, spacing=2.0, edge_order=2))
print(torch.gradient(torch.tensor([1, 4, 9, 16])))
m = torch.arange(12.).reshape(3, 4) ** 2
print(torch.gradient(m), torch.gradient(m, dim=1, spacing=[0.5]),
      torch.gradient(m, dim=(0, 1), spacing=(1.0, 2.0)))
for f in [lambda: torch.gradient(x, edge_order=3), lambda: torch.gradient(torch.ones(1)),
          lambda: torch.gradient(m, spacing=[1., 2., 3.])]:
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_composed_distributions_print_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)


def test_stft_says_what_torch_says_when_a_window_or_the_complex_return_is_missing(torch):
    import warnings

    import playground.npgrad as pg
    from playground.npgrad import _strided

    _strided._said.clear()
    _strided._said_real.clear()
    for module in (torch, pg):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(RuntimeError) as refused:
                module.stft(module.ones(16), 8)
            shape = module.stft(module.ones(16), 8, window=module.ones(8),
                                return_complex=False).shape
        messages = [str(w.message) for w in caught]
        if module is torch:
            expected = (messages, str(refused.value), tuple(shape))
    assert (messages, str(refused.value), tuple(shape)) == expected
