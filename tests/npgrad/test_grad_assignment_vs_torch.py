"""Assigning ``.grad`` and a leaf's ``grad_dtype`` on npgrad against real torch, run here:
torch's refusals in its words (not a tensor, the tensor itself, another dtype than its
grad_dtype, another size), grad_dtype's default, None letting any dtype in, the refusal on a
non-leaf (after the warning torch gives there) and gradients accumulated in grad_dtype."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import torch
x = torch.randn(3, requires_grad=True)
for g in [torch.zeros(3, dtype=torch.float64), torch.zeros(3, dtype=torch.int64),
          torch.zeros(1, 3), torch.zeros(()), 5, x, torch.zeros(2, dtype=torch.float64),
          torch.zeros(3, dtype=torch.complex64), torch.ones(3)]:
    show("assign", lambda: (setattr(x, "grad", g), x.grad)[1])
i = torch.zeros(3, dtype=torch.int64)
show("integer", lambda: (setattr(i, "grad", torch.zeros(3, dtype=torch.int64)), i.grad)[1])
show("integer given float", lambda: setattr(i, "grad", torch.zeros(3)))
print(x.grad_dtype, i.grad_dtype)
show("non-leaf", lambda: setattr(x * 2, "grad_dtype", torch.float64))
show("not a dtype", lambda: setattr(x, "grad_dtype", "float64"))
x.grad = None
x.grad_dtype = torch.float64
(x * 2).sum().backward()
print(x.grad, x.grad_dtype)
(x * 2).sum().backward()
print(x.grad)
z = torch.randn(2)
print(z.grad_dtype)
z.grad_dtype = None
z.grad = torch.ones(2, dtype=torch.float64)
print(z.grad_dtype, z.grad)
w = torch.randn(3, requires_grad=True)
w.grad_dtype = None
(w * 2).sum().backward()
print(w.grad)
"""


def test_grad_assignment_and_grad_dtype_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
