"""LowRankMultivariateNormal on npgrad against real torch, run here: its matrices (made when
first read), draws from torch's generator, log_prob and entropy through the capacitance
matrix with their gradients, batches, the KL divergences to and from a MultivariateNormal,
and torch's refusals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch.distributions import LowRankMultivariateNormal as LR
from torch.distributions import MultivariateNormal as MVN, kl_divergence
torch.manual_seed(0)
loc = torch.randn(3, requires_grad=True)
W = torch.randn(3, 2, requires_grad=True)
D = (torch.rand(3) + 0.5).requires_grad_()
m = LR(loc, W, D)
print(m, m.batch_shape, m.event_shape, m.mean, m.mode)
print(m.variance, m.covariance_matrix, m.scale_tril, m.precision_matrix)
print(m._capacitance_tril, m._capacitance_tril.grad_fn.name())
x = m.rsample((2,))
print(x, x.grad_fn.name())
lp = m.log_prob(torch.tensor([0.5, -1.0, 2.0]))
print(lp, lp.grad_fn.name(), torch.autograd.grad(lp, (loc, W, D), retain_graph=True))
print(m.entropy(), m.sample())
b = LR(torch.zeros(2, 3), torch.randn(2, 3, 1), torch.ones(3))
print(b, b.batch_shape, b.log_prob(torch.randn(4, 2, 3)), b.entropy(),
      b.expand((5, 2)).batch_shape)
q = LR(torch.randn(3), torch.randn(3, 1), torch.rand(3) + 1)
full = MVN(torch.randn(3),
           scale_tril=torch.tensor([[1.0, 0, 0], [0.5, 2.0, 0], [-0.3, 0.1, 0.7]]))
k1, k2, k3 = kl_divergence(m, q), kl_divergence(full, m), kl_divergence(m, full)
print(k1, k2, k3, k1.grad_fn.name())
print(torch.autograd.grad(k1 + k2 + k3, (loc, W, D)))
print(torch.allclose(MVN(loc, m.covariance_matrix).log_prob(x), m.log_prob(x)))
for bad in (lambda: LR(torch.tensor(1.0), W, D), lambda: LR(loc, torch.ones(3), D),
            lambda: LR(loc, torch.ones(2, 2), D), lambda: LR(loc, W, torch.ones(2)),
            lambda: LR(torch.zeros(2, 3), torch.ones(3, 3, 1), D),
            lambda: kl_divergence(m, LR(torch.zeros(2), torch.ones(2, 1), torch.ones(2)))):
    try:
        bad()
    except ValueError as e:
        print(e)
print(type(m).__module__, sorted(k for k in vars(m) if not k.startswith("_batch")))
"""


def test_low_rank_normal_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


BROADCASTING = r"""
import torch
for shapes in (((2, 3), (3, 3)), ((2, 3, 1), (3, 3, 1)), ((4,), (3,)), ((2, 1, 5), (3, 4)),
               ((2, 1), (1, 3), (4, 1, 1), (2, 5))):
    try:
        torch.broadcast_tensors(*(torch.ones(s) for s in shapes))
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.broadcast_shapes(), torch.broadcast_shapes(3, (2, 1)),
      torch.broadcast_shapes(torch.Size([2, 1]), [4, 1, 5]), torch.broadcast_shapes((2, 1), None))
for bad in (lambda: torch.broadcast_shapes(torch.Size([2, 3]), (4, 3)),
            lambda: torch.broadcast_shapes((2, 3), [1, 4]), lambda: torch.broadcast_shapes((2, -1)),
            lambda: torch.broadcast_shapes((1,), {1: 2})):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
"""


def test_shapes_that_do_not_broadcast_are_refused_in_torchs_words(tmp_path) -> None:
    """torch.broadcast_tensors and torch.broadcast_shapes: their messages (the first
    folded pairwise, its last mismatching dimension named; the second torch's Python's)."""
    assert_playground_prints_as_torch(BROADCASTING, tmp_path)
