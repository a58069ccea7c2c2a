"""torch.distributions on npgrad against real torch, run here: Categorical (by probs and by
logits, lazily made logits and probs as the repr shows them), Normal (sample, rsample through
which gradients flow, log_prob, entropy, kl_divergence) and Bernoulli, their draws from torch's
random stream after a seed, and torch's errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
from torch.distributions import Categorical, Normal, Bernoulli
p = torch.tensor([0.2, 0.3, 0.5], requires_grad=True)
c = Categorical(p); print(c)
_ = c.logits; print(c)
torch.manual_seed(0); print(c.sample(), c.sample((2, 3)))
lp = c.log_prob(torch.tensor(1)); print(lp)
print(c.entropy())
(lp + c.entropy()).backward(); print(p.grad)
c2 = Categorical(logits=torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]],
                                    requires_grad=True))
torch.manual_seed(1)
s = c2.sample()
print(s, c2.log_prob(s), c2.probs, c2.batch_shape)
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n, n.batch_shape, n.event_shape)
torch.manual_seed(0)
print(n.sample(), n.rsample((2,)), n.log_prob(torch.tensor([0.5, 0.5])), n.entropy())
n2 = Normal(0.0, 1.0); print(n2, n2.loc)
torch.manual_seed(0); print(n2.sample(), n2.sample((3,)))
mu = torch.tensor([0.5, -0.5], requires_grad=True)
sigma = torch.tensor([1.0, 0.5], requires_grad=True)
q = Normal(mu, sigma); torch.manual_seed(3); z = q.rsample(); print(z)
prior = Normal(torch.zeros(2), torch.ones(2))
(q.log_prob(z).sum() + torch.distributions.kl_divergence(q, prior).sum()).backward()
print(mu.grad, sigma.grad)
b = Bernoulli(logits=torch.tensor([0.3, -1.0])); print(b)
torch.manual_seed(0); print(b.sample(), b.log_prob(torch.tensor([1., 0.])), b.probs, b.entropy())
b2 = Bernoulli(torch.tensor([0.25, 0.75])); torch.manual_seed(5); print(b2.sample((2,)), b2.logits)
print(torch.distributions.kl_divergence(n, Normal(torch.zeros(2), torch.ones(2))))
for bad in ("Normal(torch.tensor([0.0]), torch.tensor([-1.0]))", "Categorical()"):
    try: eval(bad)
    except Exception as e: print(type(e).__name__, e)
print(Categorical(logits=torch.tensor([1.0, 2.0])).probs)
"""


def test_distributions_print_what_torch_prints(tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
