"""torch.testing.make_tensor against torch run here: each dtype kind's default range, a range
given (clamped to the dtype, rounded up for integers, halved for one wider than the dtype's
largest float), complex values drawn as their real and imaginary parts, noncontiguous,
exclude_zero, requires_grad, torch's checks and its FutureWarning; and the numbers drawn
after it, so a script that goes on drawing prints what torch prints. Also torch.finfo of a
complex dtype (its parts' limits)."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import warnings
import torch
from torch.testing import make_tensor

torch.manual_seed(11)
for dtype in (torch.float32, torch.float64, torch.int16, torch.int64, torch.uint8, torch.bool,
              torch.complex128):
    print(dtype, make_tensor(2, 2, dtype=dtype, device="cpu"))
print(make_tensor([3], dtype=torch.float32, device="cpu", low=0, high=0.5))
print(make_tensor((5,), dtype=torch.int64, device="cpu", low=-0.5, high=3.2))
print(make_tensor((3,), dtype=torch.uint8, device="cpu", low=-50, high=3))
print(make_tensor((2,), dtype=torch.float64, device="cpu", low=-1e309, high=1e309))
w = make_tensor((2, 2), dtype=torch.float32, device="cpu", noncontiguous=True,
                requires_grad=True)
print(w, w.stride(), w.is_contiguous(), w.is_leaf)
(w.exp() * 2).sum().backward()
print(w.grad)
print(make_tensor((6,), dtype=torch.int32, device="cpu", low=0, high=2, exclude_zero=True))
print(make_tensor((), dtype=torch.float64, device="cpu", low=-1, high=1))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(make_tensor((2,), dtype=torch.float32, device="cpu", low=2, high=2))
print([(w.category.__name__, str(w.message)) for w in caught])
for wrong in (dict(low=3, high=-3), dict(high=float("nan")),
              dict(dtype=torch.int16, requires_grad=True),
              dict(dtype=torch.int8, low=200, high=300),
              dict(noncontiguous=True, memory_format=torch.channels_last)):
    arguments = dict(dtype=torch.float32, device="cpu")
    arguments.update(wrong)
    try:
        make_tensor((2,), **arguments)
    except (ValueError, TypeError) as error:
        print(type(error).__name__, error)
print(torch.randn(3), torch.randint(0, 100, (3,)))
print(torch.finfo(torch.complex64), torch.finfo(torch.complex128).eps)
'''


def test_make_tensor_draws_and_checks_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
