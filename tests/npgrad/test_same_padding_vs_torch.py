"""padding='same' and 'valid' of conv1d, conv2d and conv3d and their modules on npgrad
against real torch, run here: an even span (kernel and dilation) pads one more on the right
through torch's ConstantPadNdBackward0 node, with torch's warning once; values, shapes,
gradients, and torch's errors for strides and unknown strings."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
for make in (lambda: F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(1, 1, 3, 3), padding="same",
                              stride=2),
             lambda: nn.Conv2d(1, 1, 3, padding="same", stride=2),
             lambda: nn.Conv1d(1, 1, 3, padding="same", stride=(2,)),
             lambda: F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(1, 1, 3, 3), padding="full"),
             lambda: F.conv1d(torch.randn(1, 1, 5), torch.randn(1, 1, 3), padding="full"),
             lambda: nn.Conv3d(1, 1, 3, padding="full")):
    try:
        print(make())
    except (RuntimeError, ValueError) as ex:
        print(type(ex).__name__, str(ex).replace("'valid', 'same'", "'same', 'valid'"))
x = torch.randn(2, 2, 7, requires_grad=True)
w = torch.randn(3, 2, 4, requires_grad=True)
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    y = F.conv1d(x, w, padding="same")
    F.conv1d(x, w, padding="same")
print([str(warning.message) for warning in seen])
print(y.shape, y.grad_fn.name(), [f[0].name() if f[0] else None for f in y.grad_fn.next_functions])
y.pow(2).sum().backward()
print(x.grad[0, 0], w.grad[0, 0])
x2 = torch.randn(1, 2, 6, 5, requires_grad=True)
for kernel, dilation in (((2, 3), (1, 2)), ((2, 2), 2), ((4, 2), 1), ((3, 3), 1)):
    y2 = F.conv2d(x2, torch.randn(2, 2, *kernel), torch.ones(2), padding="same",
                  dilation=dilation)
    first = y2.grad_fn.next_functions[0][0]
    print(y2.shape, first.name() if first else None, y2[0, 0, 0])
m = nn.Conv2d(2, 4, 4, padding="same", bias=False)
print(m, m(x2).shape, m(x2)[0, 0, -1])
m1 = nn.Conv1d(2, 3, 2, padding="same", dilation=3)
print(m1, m1(x).shape, m1(x)[1, 2])
print(nn.Conv2d(2, 2, 4, padding="same", padding_mode="reflect")(x2)[0, 1, 0])
x3 = torch.randn(1, 2, 5, 6, 4, requires_grad=True)
m3 = nn.Conv3d(2, 3, (2, 3, 4), padding="same")
y3 = m3(x3)
print(y3.shape, y3[0, 1, 2, 3], torch.autograd.grad(y3.sum(), x3)[0][0, 0, 4])
print(F.conv2d(x2, torch.randn(1, 2, 3, 3), padding="valid").shape)
"""


def test_same_padding_as_torch(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
