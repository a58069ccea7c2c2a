"""torch.distributions' biject_to and transform_to, and the vector transforms behind them
(SoftmaxTransform, StickBreakingTransform, IndependentTransform), on npgrad against real
torch, run here: the transform each constraint gets and its repr, forward and inverse maps,
log-determinants and their gradients, shapes, the constraints torch cannot transform, a
scale and a probability vector learnt through unconstrained parameters, and a
stick-breaking transformed distribution."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + r"""
import torch
import torch.distributions as D
from torch.distributions import biject_to, transform_to
from torch.distributions import constraints as C
from torch.distributions.transforms import (ExpTransform, IndependentTransform, SoftmaxTransform,
                                            StickBreakingTransform)
torch.manual_seed(0)
for c in (C.real, C.positive, C.nonnegative, C.greater_than(2.), C.greater_than_eq(-1.),
          C.less_than(1.), C.unit_interval, C.interval(-1., 3.), C.simplex, C.real_vector,
          C.independent(C.positive, 1), C.half_open_interval(0., 2.)):
    t, b = transform_to(c), biject_to(c)
    x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
    y = t(x)
    print(repr(c), "|", t, "|", b, "|", y, t.inv(y), t.domain, t.codomain)
    if c is not C.simplex:
        print(t.log_abs_det_jacobian(x, y))
    z = b(x)
    jacobian = b.log_abs_det_jacobian(x, z)
    print(z, b.inv(z), jacobian, torch.autograd.grad(jacobian.sum() + z.sum(), x))
for bad in (C.boolean, C.lower_triangular, C.integer_interval(0, 3)):
    show("bad", lambda: transform_to(bad))
sb = StickBreakingTransform()
x = torch.randn(2, 3, dtype=torch.float64)
print(sb(x), sb.inv(sb(x)), sb.log_abs_det_jacobian(x, sb(x)), sb.forward_shape((2, 3)),
      sb.inverse_shape((2, 4)), sb.bijective)
print(SoftmaxTransform()(x), SoftmaxTransform().inv(SoftmaxTransform()(x)))
it = IndependentTransform(ExpTransform(), 1)
print(it, it.domain, it.codomain, it.log_abs_det_jacobian(x, it(x)), it.with_cache(1),
      it.bijective, it.sign)
show("too few", lambda: sb.forward_shape(()))
# a positive scale and a probability vector learnt through unconstrained parameters
raw_scale = torch.zeros(2, requires_grad=True)
raw_probs = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([raw_scale, raw_probs], lr=0.1)
data = torch.randn(50, 2) * torch.tensor([2.0, 0.5])
for _ in range(20):
    scale = transform_to(C.positive)(raw_scale)
    probs = biject_to(C.simplex)(raw_probs)
    loss = -D.Normal(0., scale).log_prob(data).mean() - \
        D.Categorical(probs).log_prob(torch.tensor([0, 0, 2])).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, scale, probs)
td = D.TransformedDistribution(D.Normal(torch.zeros(3), torch.ones(3)), [StickBreakingTransform()])
print(td.sample(), td.log_prob(td.sample()), td.event_shape, td.batch_shape)
"""


def test_constraint_registry_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
