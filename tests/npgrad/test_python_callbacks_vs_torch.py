"""Tensor.apply_ and Tensor.map_ (a Python callable per element, in place, cast to the
tensor's dtype, refused where autograd tracks the tensor), Tensor.new_empty_strided and
Tensor.is_nested on npgrad against real torch, run here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
t = torch.arange(6.).view(2, 3)
print(t.is_nested, t.new_empty_strided((2, 2), (1, 2)).stride(),
      t.new_empty_strided((2, 2), (1, 2), dtype=torch.int64).dtype)
u = t.clone(); print(u.apply_(lambda v: v * 2), u._version)
w = t.clone(); print(w.map_(torch.tensor([1., 2., 3.]), lambda a, b: a + b))
v = t.clone()[:, 1:]; v.apply_(lambda x: -x); print(v)
i = torch.arange(4).apply_(lambda x: x * 1.7); print(i)
try: t.clone().requires_grad_().apply_(lambda v: v)
except Exception as e: print(type(e).__name__, e)
try: t.clone().requires_grad_().map_(t, lambda a, b: a)
except Exception as e: print(type(e).__name__, e)
"""


def test_python_callbacks_print_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
