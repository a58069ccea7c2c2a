"""Inference tensors on npgrad: which tensors are, and what autograd refuses to do with them,
with torch's words."""

from __future__ import annotations

import pytest

from tests.oracle import run_printing

SCRIPT = """
z = torch.tensor([0.5, -1.0, 2.0], dtype=DTYPE, requires_grad=True)
with torch.inference_mode():
    g = z * 3
    made = torch.ones(3, dtype=DTYPE)
    leaf = torch.ones(2, dtype=DTYPE).requires_grad_()
    normal = torch.ones(3, dtype=DTYPE)
    print(g.requires_grad, g.is_inference(), made.is_inference(), torch.is_inference_mode_enabled())
    print(leaf.requires_grad, leaf.is_inference(), (leaf * 2).requires_grad)
    with torch.inference_mode(False):
        print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
        print(torch.ones(1).is_inference())
    made.add_(1)
print(z.is_inference(), (z * 2).is_inference(), (g * 2).is_inference(), g.clone().is_inference())
print(g.view(3).is_inference(), g.detach().is_inference(), g.data.is_inference())
print(g[0].is_inference())
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled(), made)
print(z + g, (z.sum() * g.sum()), torch.ones(3, dtype=DTYPE).add_(g))
with torch.no_grad():
    with torch.inference_mode(False):
        print(torch.is_grad_enabled())
for attempt in ("z * g", "g * z", "z.sin() * g", "z @ g", "z.pow(g)", "g.requires_grad_()",
                "g.add_(1)", "g._version", "normal.mul_(2)"):
    try:
        print(attempt, eval(attempt))
    except RuntimeError as error:
        print(attempt, type(error).__name__, error)

class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(y)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad, None

print(Keep.apply(z.detach(), g))
try:
    Keep.apply(z, g)
except RuntimeError as error:
    print(error)

@torch.inference_mode()
def infer(t):
    return t * 2

print(infer(z).is_inference(), infer(z).requires_grad)
"""


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
def test_inference_tensors_behave_as_in_torch(dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    code = SCRIPT.replace("DTYPE", dtype)
    expected = run_printing(code, torch)
    assert run_printing(code, npgrad) == expected
