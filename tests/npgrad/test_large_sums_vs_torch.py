"""Whole sums of more than torch's grain (32,768 elements) on npgrad against real torch,
run here: torch shares them among its threads (each adds its equal run of the elements, then
the threads' totals are added, a slot per thread), so the bits depend on
torch.get_num_threads(); float32 and float64, sum and mean, a loss's mean, a transposed
tensor (added in memory order), a broadcast's gradient, on 1 to 16 threads."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
torch.manual_seed(0)
for threads in (1, 2, 3, 4, 7, 8, 16):
    torch.set_num_threads(threads)
    sums = []
    for n in (32767, 32768, 32769, 65536, 65537, 98305, 200003, 1000000):
        a = torch.randn(n)
        sums.append((a.sum().item(), a.mean().item(), a.double().sum().item()))
    print(threads, sums)
    b = torch.randn(300, 700)
    print(b.sum().item(), b.t().sum().item(), b.view(1, -1).sum(1).item(),
          b.sum(dim=(0, 1)).item(), torch.nn.functional.mse_loss(b, b * 0.5).item())
    w = torch.randn(1, requires_grad=True)
    ((b + w) * b).sum().backward()
    print(w.grad)
"""


def test_sums_past_the_grain_as_torchs_threads_add_them(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
