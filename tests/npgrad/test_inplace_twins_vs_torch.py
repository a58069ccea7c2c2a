"""In-place twins of out-of-place ops (atan2_, fmod_, cumsum_, addmm_, nan_to_num_...) against
torch run here: the values written, the node recorded (torch's out-of-place node; the in-place
op's own name for ops without a derivative), gradients through self's history and the other
operand, a write through a view, the write under no_grad, and torch's refusals (a leaf that
requires grad, a result self's dtype cannot hold, a result of another shape)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch_within

pytest.importorskip("torch")

TWINS = r'''
import torch
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4, requires_grad=True)
m = torch.randn(4, 4, requires_grad=True)
v = torch.randn(4, requires_grad=True)
cases = [("atan2_", (b,)), ("arctan2_", (b,)), ("fmod_", (b,)), ("remainder_", (1.5,)),
         ("remainder_", (b,)), ("hypot_", (b,)), ("copysign_", (b,)), ("xlogy_", (b.abs(),)),
         ("logit_", (0.01,)), ("nan_to_num_", ()), ("cumsum_", (1,)), ("cumprod_", (0,)),
         ("deg2rad_", ()), ("rad2deg_", ()), ("sgn_", ()), ("sinc_", ()), ("erfinv_", ()),
         ("i0_", ()), ("ldexp_", (torch.tensor(2),)), ("addmm_", (m[:3], m)),
         ("addmv_", (m, v)), ("baddbmm_", (m[:3].unsqueeze(0), m.unsqueeze(0))),
         ("floor_divide_", (0.7,)), ("heaviside_", (b,))]
for op, args in cases:
    x = a.sigmoid() * 1 if op in ("erfinv_", "logit_") else a * 1
    if op == "baddbmm_":
        x = x.unsqueeze(0)
    if op == "addmv_":
        x = a[0] * 1
    if op == "i0_":
        x = a.abs() + 1
    version = x._version
    returned = getattr(x, op)(*args)
    print(op, returned is x, x._version - version, x.grad_fn.name())
    print(x)
    try:
        print(torch.autograd.grad(x.sum(), [a, b, m, v], allow_unused=True))
    except RuntimeError as error:
        print("RuntimeError:", error)

x = a * 1
x[1:].atan2_(b[1:])
print(x.grad_fn.name(), torch.autograd.grad(x.sum(), [a, b]))
with torch.no_grad():
    y = torch.ones(3)
    print(y.fmod_(torch.tensor([2.0, 0.5, 0.7])), y._version)
free = torch.tensor([1.0, 2.0])
free.hypot_(b[0, :2])
print(free.grad_fn.name(), torch.autograd.grad(free.sum(), b)[0][0])
k = torch.arange(6).reshape(2, 3)
k.bitwise_not_()
k.remainder_(4)
k.cumsum_(0)
print(k)
n = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
print(n.nan_to_num_(posinf=9.0), n.nan_to_num_(nan=1.5))
for attempt in (lambda: a.atan2_(b), lambda: torch.arange(3).sinc_(),
                lambda: torch.ones(3).fmod_(torch.ones(2, 3)),
                lambda: torch.arange(3).logit_()):
    try:
        attempt()
    except RuntimeError as error:
        print("RuntimeError:", error)
'''


def test_in_place_twins_write_and_record_as_torch(tmp_path):
    assert_playground_prints_as_torch_within(TWINS, tmp_path, 1e-5)
