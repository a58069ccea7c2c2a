"""torch.distributions.ContinuousBernoulli on npgrad against real torch, run here: by probs
(inside and outside torch's unstable region near ½, where its Taylor series take over) and
by logits, float32 and float64; draws by the inverse cdf from torch's stream, log_prob and
its gradients, moments, entropy, cdf and icdf, expand, reprs with lazily made parameters,
torch's errors, and a VAE-style reconstruction loss."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + r"""
import torch
import torch.distributions as D
torch.manual_seed(0)
p = torch.tensor([0.1, 0.4995, 0.5, 0.502, 0.93], requires_grad=True)
for make in (lambda: D.ContinuousBernoulli(p),
             lambda: D.ContinuousBernoulli(logits=torch.tensor([-2., 0., 0.001, 3.])),
             lambda: D.ContinuousBernoulli(0.3),
             lambda: D.ContinuousBernoulli(probs=torch.tensor([0.2, 0.7], dtype=torch.float64))):
    d = make()
    show("repr", lambda: d)
    show(" sample", lambda: d.sample((2,)))
    show(" rsample", lambda: torch.autograd.grad(d.rsample((3,)).sum(), p, allow_unused=True))
    v = torch.rand(d.batch_shape, dtype=d.probs.dtype)
    show(" log_prob", lambda: d.log_prob(v))
    show(" lp grad", lambda: torch.autograd.grad(d.log_prob(v).sum(), p, allow_unused=True))
    show(" moments", lambda: (d.mean, d.variance, d.stddev))
    show(" entropy", lambda: d.entropy())
    show(" cdf", lambda: (d.cdf(v), d.cdf(torch.zeros_like(v)), d.icdf(v)))
    show(" expand", lambda: d.expand((3,) + tuple(d.batch_shape)).sample().shape)
    show(" bad", lambda: d.log_prob(v + 2))
    show(" after", lambda: (d, d.logits, d.probs))
for bad in ("D.ContinuousBernoulli(1.5)", "D.ContinuousBernoulli(1.5, validate_args=True)",
            "D.ContinuousBernoulli()"):
    show(bad, lambda: eval(bad))
vae_x = torch.rand(4, 6)
logits = torch.randn(4, 6, requires_grad=True)
loss = -D.ContinuousBernoulli(logits=logits).log_prob(vae_x).sum()
loss.backward()
print(loss, logits.grad[0])
print(D.ContinuousBernoulli, torch.rand(2))
"""


def test_continuous_bernoulli_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
