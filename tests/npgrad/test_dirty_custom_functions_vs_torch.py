"""A custom Function that writes its input in place (``ctx.mark_dirty``) on npgrad against
real torch, run here: the version counter counts the marking as a write too, and a view
written so hangs the node from CopySlices on its base (the view then an as_strided view of
it), so the base's other elements and the function's other inputs get torch's gradients."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
from torch.autograd import Function

class Scale(Function):
    @staticmethod
    def forward(ctx, t, s):
        t.mul_(s)
        ctx.mark_dirty(t)
        ctx.save_for_backward(s)
        return t

    @staticmethod
    def backward(ctx, g):
        s, = ctx.saved_tensors
        return g * s, (g * 0).sum()

class Mark(Function):
    @staticmethod
    def forward(ctx, t):
        ctx.mark_dirty(t)
        return t

    @staticmethod
    def backward(ctx, g):
        return g

x = torch.randn(4, requires_grad=True)
s = torch.tensor(3., requires_grad=True)
z = x * 1
print(Scale.apply(z, s) is z, z._version, z.grad_fn.name())
z = x.clone()
Mark.apply(z)
print(z._version)
z = x * 1
v = z[1:3]
out = Scale.apply(v, s)
print(out is v, z._version, v._version, z.grad_fn.name(), v.grad_fn.name())
print([(f.name() if f else None, i) for f, i in z.grad_fn.next_functions])
print(v.grad_fn.next_functions[0][0] is z.grad_fn)
(z * torch.arange(4.)).sum().backward()
print(x.grad, s.grad)
plain = torch.zeros(4)
Scale.apply(plain[::2], s)
print(plain, plain.grad_fn.name(), plain.requires_grad)
plain.sum().backward()
print(s.grad)
untracked = torch.ones(3)
Scale.apply(untracked, torch.tensor(2.))
print(untracked, untracked._version, untracked.grad_fn)
"""


def test_a_function_that_writes_in_place_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
