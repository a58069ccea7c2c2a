"""torch.distributions' Gumbel, Binomial and Multinomial, and torch.binomial, on npgrad against
real torch, run here: draws bit for bit from torch's stream (the binomial's inversion and
BTRS branches, p above and below ½, float32 and float64, the stream after them), log_prob
and its gradients, entropy, moments, supports, reprs, and torch's argument errors."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.distributions import Binomial, Gumbel, Multinomial
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    counts = torch.tensor([0., 1., 4., 9., 25., 40., 200., 3000.], dtype=dtype)
    for p in (0.0, 0.02, 0.3, 0.5, 0.62, 0.97, 1.0):
        print(p, torch.binomial(counts, torch.full_like(counts, p)).tolist())
print(torch.rand(2))
drawn = torch.binomial(torch.tensor([5., 20.], requires_grad=True), torch.tensor([0.5, 0.7]))
print(drawn, drawn.grad_fn.name())
try:
    drawn.sum().backward()
except RuntimeError as ex:
    print(ex)
g = Gumbel(0., 1.)
print(g, g.sample((3,)), g.log_prob(torch.tensor(0.4)), g.entropy(), g.mean, g.variance)
loc = torch.tensor([0.5, -1.0], requires_grad=True)
scale = torch.tensor([1.0, 2.0], requires_grad=True)
g2 = Gumbel(loc, scale)
draw = g2.rsample((4,))
print(g2, draw, g2.stddev, g2.mode)
print(torch.autograd.grad(draw.sum() + g2.log_prob(torch.tensor(0.3)).sum(), (loc, scale)))
b = Binomial(10, probs=torch.tensor([0.2, 0.65]))
print(b, b.sample((3,)), b.mean, b.variance, b.mode, b.support)
print(b.log_prob(torch.tensor([3., 7.])), b.entropy(), b.enumerate_support().shape)
logits = torch.tensor([-0.4, 1.2], requires_grad=True)
bl = Binomial(torch.tensor([6., 6.]), logits=logits)
score = bl.log_prob(torch.tensor([2., 5.])).sum()
print(bl, score, torch.autograd.grad(score, logits), bl.probs, bl)
print(Binomial(probs=torch.tensor(0.3)), Binomial(20, probs=0.4).sample((5,)))
m = Multinomial(8, torch.tensor([0.2, 0.3, 0.5]))
print(m, m.sample(), m.sample((2,)), m.mean, m.variance, m.support)
print(m.log_prob(torch.tensor([2., 2., 4.])), m.entropy())
ml = Multinomial(5, logits=torch.tensor([[0., 1., -1.], [2., 0., 0.]]))
print(ml.sample(), ml.log_prob(torch.tensor([[1., 3., 1.], [5., 0., 0.]])), ml.batch_shape,
      ml.event_shape)
for bad in ("Binomial(10, probs=torch.tensor(1.5))",
            "Binomial(torch.tensor([2.5]), probs=torch.tensor(0.5))",
            "b.log_prob(torch.tensor([11., 2.]))",
            "Binomial(torch.tensor([3., 4.]), probs=torch.tensor([0.2, 0.3])).entropy()",
            "Binomial(10)", "Multinomial(torch.tensor(5), torch.tensor([0.2, 0.8]))",
            "m.log_prob(torch.tensor([5., 5., 0.]))", "Gumbel(0., -1.)",
            "torch.binomial(torch.tensor([5, 2]), torch.tensor([0.5, 0.5]))",
            "torch.binomial(torch.tensor([5.]), torch.tensor([0.5], dtype=torch.float64))"):
    try:
        eval(bad)
    except (ValueError, RuntimeError, NotImplementedError) as ex:
        print(type(ex).__name__, ex)
print(torch.rand(2))
"""


def test_counting_distributions_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


MORE = SHOW + r"""
import torch
import torch.distributions as D
from torch.distributions.relaxed_bernoulli import LogitRelaxedBernoulli
torch.manual_seed(0)
p = torch.tensor([0.3, 0.8], requires_grad=True)
t = torch.tensor(0.5)
for make in (lambda: D.NegativeBinomial(torch.tensor([3., 5.]), probs=p),
             lambda: D.NegativeBinomial(4, logits=torch.tensor([0.2, -1.0])),
             lambda: D.NegativeBinomial(2.5, probs=0.4), lambda: D.RelaxedBernoulli(t, probs=p),
             lambda: D.RelaxedBernoulli(torch.tensor(2.0), logits=torch.tensor([0.3, -2.0])),
             lambda: D.RelaxedBernoulli(t, probs=0.3), lambda: LogitRelaxedBernoulli(t, probs=p)):
    d = make()
    relaxed = "Relaxed" in type(d).__name__
    value = torch.tensor([0.2, 0.6]) if relaxed else torch.tensor([2., 7.])
    print(d, d.sample((3,)), d.support, d.batch_shape)
    show("rsample", lambda: torch.autograd.grad(d.rsample((2,)).sum(), p, allow_unused=True))
    show("log_prob", lambda: torch.autograd.grad(d.log_prob(value).sum(), p, allow_unused=True))
    show("moments", lambda: (d.mean, d.mode, d.variance))
    show("expand", lambda: d.expand((3, 2)).sample().shape)
    show("outside", lambda: d.log_prob(torch.tensor([-1., 0.5])))
    print(d)
for bad in ("D.NegativeBinomial(-1., probs=0.5)", "D.NegativeBinomial(2., probs=1.0)",
            "D.NegativeBinomial(2.)", "D.RelaxedBernoulli(t, probs=1.5)", "D.RelaxedBernoulli(t)"):
    show(bad, lambda: eval(bad))
# a parameter made lazily under no_grad (by sample) still records, as torch's lazy_property
logits = torch.tensor([0.5, -0.5, 1.0], requires_grad=True)
c = D.Categorical(probs=logits.softmax(0))
with torch.no_grad():
    c.sample()
    b = D.Bernoulli(logits=logits)
    b.probs
print(c.logits.requires_grad, b.probs.grad_fn is not None, torch.rand(2))
"""


def test_negative_binomial_and_relaxed_bernoulli_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(MORE, tmp_path)
