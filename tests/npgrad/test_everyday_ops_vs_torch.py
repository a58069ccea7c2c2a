"""Everyday calls on npgrad against real torch, run here: acosh/atanh, the in-place forms
(floor_..., clip_, tril_/triu_, scatter_, scatter_add_, index_fill_, index_copy_,
fill_diagonal_, comparisons), bitwise ops, broadcast_to/tile/ravel/fliplr/sum_to_size/take,
copysign, runtime settings, type questions, logspace and windows, data_ptr and storages;
frexp and ldexp with their nodes and gradients (an integer exponent's integer power: 0 for a
negative one, as torch's formula gives it), bmm's, baddbmm's and addbmm's shape checks."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
torch.manual_seed(0)
x = torch.tensor([1.5, 2.0, 3.25], requires_grad=True)
print(torch.acosh(x), torch.arccosh(x), torch.atanh(x / 4), x.arctanh if False else "")
(torch.acosh(x).sum() + torch.atanh(x / 4).sum()).backward()
print(x.grad)
y = (x * 1).detach()
print(y.acosh_(), y.atanh_() if False else "")
a = torch.tensor([[1.7, -2.2], [0.5, -0.5]])
for name in ("floor_", "ceil_", "trunc_", "fix_", "round_", "frac_"):
    print(name, getattr(a.clone(), name)())
print(a.clone().clip_(-1, 1), torch.ones(3, 3).tril_(), torch.ones(3, 3).triu_(1))
labels = torch.tensor([2, 0, 1])
print(torch.zeros(3, 4).scatter_(1, labels.unsqueeze(1), 1.0))
print(torch.zeros(2, 4).scatter_add_(1, torch.tensor([[0, 1, 0], [3, 3, 3]]), torch.ones(2, 3)))
w = torch.randn(3, 4, requires_grad=True)
z = w * 1
z.scatter_(0, torch.tensor([[0, 1, 2, 0]]), torch.ones(1, 4) * 5)
z.index_fill_(1, torch.tensor([1]), -1.0)
src = torch.randn(2, 4, requires_grad=True)
q = z.index_copy(0, torch.tensor([2, 0]), src * 2)
print(type(z.grad_fn).__name__, type(q.grad_fn).__name__)
(q * torch.arange(12.).view(3, 4)).sum().backward()
print(w.grad, src.grad)
m = torch.zeros(3, 3)
print(m.fill_diagonal_(4.0), torch.zeros(2, 2, 2).fill_diagonal_(1.0))
g = torch.randn(3, 3, requires_grad=True)
h = g * 1
h.fill_diagonal_(0)
print(type(h.grad_fn).__name__)
h.sum().backward()
print(g.grad)
k = g * 1
k.multiply_(2).subtract_(1, alpha=2).divide_(torch.tensor(4.)).true_divide_(2).square_()
print(k.grad_fn, k)
g.grad = None
k.sum().backward()
print(g.grad)
x = torch.ones(2, 3)
print(x.unsqueeze_(0).shape, x.squeeze_().shape, x.t_().shape, x.transpose_(0, 1).shape,
      x.swapaxes_(0, 1).shape, x.swapdims_(0, 1).shape, x._version, x.stride(), x.is_contiguous())
v = x[0]
v.unsqueeze_(1)
print(v.shape, x.shape, v._version)
y = torch.ones(2, 3, requires_grad=True)
try:
    y.unsqueeze_(0)
except RuntimeError as error:
    print(error)
with torch.no_grad():
    y.unsqueeze_(0)
print(y.shape, y.requires_grad)
z = torch.arange(6.).view(2, 3)
z.t_()
print(z, z.stride(), z.squeeze_(0).shape, torch.ones(1, 2, 1).squeeze_(2).shape)
b = torch.tensor([1.0, -2.0, 3.0])
print(b.clone().gt_(0), b.clone().eq_(3.0), torch.greater(b, 0), b.less_equal(1),
      torch.not_equal(b, 1))
i = torch.tensor([5, 3, 12])
print(torch.bitwise_and(i, 6), i.bitwise_or(1), i ^ 1, i.bitwise_xor(3), torch.bitwise_not(i),
      i << 1, i >> 1, torch.bitwise_left_shift(i, 2))
print(torch.isposinf(torch.tensor([float("inf"), -float("inf"), 1.0])),
      torch.isneginf(torch.tensor([float("inf"), -float("inf")])))
c = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(torch.broadcast_to(c[0], (3, 2)), c.tile(2), c.tile((2, 1, 1)).shape, c.ravel(),
      torch.fliplr(c), torch.flipud(c), torch.positive(c) is c)
s = torch.ones(2, 3, 4).sum_to_size(3, 1)
print(s, s.shape)
t = torch.take(c, torch.tensor([[0, 3], [3, 1]]))
u = torch.copysign(c, torch.tensor([-1.0, 1.0])) + torch.copysign(c, -2.0)
print(t, u, type(t.grad_fn).__name__, type(u.grad_fn).__name__)
(t.sum() + u.pow(2).sum()).backward()
print(c.grad)
print(torch.copysign(torch.tensor([1, -2]), 0.5),
      torch.copysign(torch.tensor([0.0, -0.0, 2.0]), torch.tensor([-1.0, 1.0, -0.0])))
for bad in ("torch.take(c, torch.tensor([9]))", "torch.ones(3).sum_to_size(2)",
            "torch.ones(3).fliplr()"):
    try:
        eval(bad)
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
print(torch.get_num_threads() >= 1, torch.get_float32_matmul_precision(),
      torch.are_deterministic_algorithms_enabled())
torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)
torch.set_float32_matmul_precision("high")
print(torch.get_num_threads(), torch.are_deterministic_algorithms_enabled(),
      torch.get_float32_matmul_precision(), torch.get_deterministic_debug_mode())
print(torch.typename(b), torch.typename(1), torch.typename(torch.ones(1, dtype=torch.int64)),
      torch.result_type(b, 1.0), torch.result_type(torch.tensor([1]), 1.5),
      torch.result_type(2, 3.0), torch.can_cast(torch.float64, torch.int32),
      torch.can_cast(torch.int32, torch.float64), torch.scalar_tensor(3),
      torch.scalar_tensor(2, dtype=torch.int64))
print(torch.logspace(0, 2, 3), torch.logspace(-1, 1, 4, base=2),
      torch.logspace(0, 3, 4, dtype=torch.float64))
print(torch.hann_window(5), torch.hann_window(5, periodic=False), torch.hamming_window(4),
      torch.blackman_window(6), torch.bartlett_window(5), torch.bartlett_window(4, periodic=False),
      torch.hann_window(8, dtype=torch.float64))
print(torch.unravel_index(torch.tensor([5, 7]), (2, 4)), torch.broadcast_shapes((2, 1), (3,)),
      torch.concatenate([b, b]))
print(torch.is_nonzero(torch.tensor([1.])), torch.is_floating_point(b), b.is_signed(),
      torch.tensor([1], dtype=torch.uint8).is_signed(), torch.is_same_size(b, b),
      b.is_nonzero() if False else "")
print(b.data_ptr() == b[0:].data_ptr(), b[1:].data_ptr() - b.data_ptr(),
      b.untyped_storage().data_ptr() == b[1:].untyped_storage().data_ptr(), b.nbytes, b.itemsize,
      b.is_cpu, b.get_device(), b.untyped_storage().nbytes(), len(b.untyped_storage()))
v = b.view(3, 1)
print(v.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
      b.clone().untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
print(torch.blackman_window(7, periodic=False), torch.blackman_window(8, dtype=torch.float64),
      torch.hamming_window(6, periodic=False, alpha=0.5, beta=0.4), torch.bartlett_window(7),
      torch.hann_window(1), torch.hann_window(0))
print(torch.hann_window(400)[100:103], torch.blackman_window(512)[200:202])
"""

POWERS_OF_TWO_AND_BATCHES = r"""
import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1.5, -3.0, 0.0, 1e-40, 7.25, float("inf")], requires_grad=True)
m, e = torch.frexp(x)
print(m, e, m.grad_fn.name(), e.requires_grad)
m.sum().backward()
print(x.grad, torch.tensor([1.5, 8.0], dtype=torch.float64).frexp())
y = torch.tensor([[0.5, 1.0, 2.0, 3.0]], requires_grad=True)
z = torch.ldexp(y, torch.tensor([1, -2, 3, 0]))
z.backward(torch.ones(1, 4))
print(z, y.grad, torch.ldexp(torch.tensor([1, 2]), torch.tensor([2, 3])))
b = torch.tensor([0.5, 3.0], dtype=torch.float64, requires_grad=True)
p = torch.tensor([-1.5, 0.5], dtype=torch.float64, requires_grad=True)
torch.ldexp(b, p).sum().backward()
print(b.grad, p.grad)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([3.0, 0.1]), torch.tensor([1.0, 2.0]))
    print(fwAD.unpack_dual(torch.frexp(d).mantissa).tangent)
r, z = torch.randn, torch.zeros
for call in [lambda: torch.frexp(torch.tensor([1, 2])),
             lambda: torch.bmm(r(2, 3, 4), r(2, 3, 5)),
             lambda: torch.bmm(r(3, 4), r(2, 4, 5)),
             lambda: torch.baddbmm(z(2, 3, 5), r(2, 3, 4), r(3, 4, 5)),
             lambda: torch.baddbmm(z(2, 3, 6), r(2, 3, 4), r(2, 4, 5)),
             lambda: torch.baddbmm(z(2, 3, 5), r(3, 4), r(2, 4, 5)),
             lambda: torch.addbmm(z(3, 5), r(2, 3, 4), r(2, 3, 5)),
             lambda: torch.addbmm(z(3, 5), r(2, 3, 4), r(3, 4, 5)),
             lambda: torch.addbmm(z(4, 5), r(2, 3, 4), r(2, 4, 5)),
             lambda: z(2, 3).expand(3, 4)]:
    try:
        print(call())
    except RuntimeError as error:
        print(error)
"""


@pytest.mark.parametrize("script", [SCRIPT, POWERS_OF_TWO_AND_BATCHES],
                         ids=["everyday", "powers_of_two_and_batches"])
def test_everyday_calls_print_what_torch_prints(script, tmp_path):
    assert_playground_prints_as_torch(script, tmp_path)
