"""nn.AdaptiveLogSoftmaxWithLoss on npgrad against real torch, run here: its layers (torch's
initialisation from one seed), outputs, loss and gradients, log_prob, predict, one
unbatched sample and torch's refusals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn
torch.manual_seed(0)
asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0)
print(asm)
x = torch.randn(5, 8, requires_grad=True)
target = torch.tensor([1, 5, 9, 0, 7])
out = asm(x, target)
print(out.output, out.loss, out.loss.grad_fn.name(), out.output.grad_fn.name(), type(out).__name__)
out.loss.backward()
print(x.grad[0], asm.head.weight.grad[0], asm.tail[1][1].weight.grad)
print(asm.log_prob(x).exp().sum(1), asm.log_prob(x).grad_fn.name(), asm.predict(x))
one = asm(x[0], torch.tensor(4))
print(one, one.output.shape)
print(nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2], head_bias=True).head, type(asm).__module__)
only_head = nn.AdaptiveLogSoftmaxWithLoss(4, 6, [3])
print(only_head(torch.randn(3, 4), torch.tensor([0, 1, 2])).loss,
      only_head.predict(torch.randn(4, 4)))
for bad in (lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
            lambda: nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3]),
            lambda: asm(x, torch.tensor([1, 2, 3, 4, 12])), lambda: asm(x, target[:3]),
            lambda: asm(x, torch.tensor(1)), lambda: asm(x, target.view(5, 1))):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
"""


def test_adaptive_log_softmax_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
