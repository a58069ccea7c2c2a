"""F.conv_transpose3d and nn.ConvTranspose3d on npgrad against real torch, run here (values,
gradients, the nodes of a create_graph backward, the module's repr and refusals), Conv3d's
padding modes, and every
convolution's three create_graph gradients named as torch names them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 3, 4, 2, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 3, 2, 3, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
y = F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(0, 1, 1), output_padding=(1, 0, 1),
                       groups=2)
print(y.shape, y.grad_fn.name(), y[1, 4, 2, :2])
gx, gw, gb = torch.autograd.grad(y.pow(2).sum(), (x, w, b), create_graph=True)
print(gx.grad_fn.name(), gx[0, 1, 1], gw[2, 1, 0], gb)
print(torch.autograd.grad((gx.sum() + gw.pow(2).sum() + gb.pow(3).sum()), (x, w, b)))
torch.manual_seed(1)
m = nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1, output_padding=1)
print(m, m.weight.shape, m.bias, nn.ConvTranspose3d(2, 2, (1, 2, 3), bias=False, groups=2))
z = m(x.float()[0])
print(z.shape, z.grad_fn.name(), z[1, 0, 0], torch.conv_transpose3d(x, w, None, 1, 0, 0, 2).shape)
class Upsampling(nn.ConvTranspose2d):
    pass
for layer, mode in ((nn.ConvTranspose3d, "reflect"), (nn.ConvTranspose1d, "circular"),
                    (nn.ConvTranspose2d, "replicate"), (Upsampling, "reflect")):
    try:
        layer(2, 2, 2, padding_mode=mode)
    except ValueError as e:
        print(e)
print(nn.ConvTranspose1d(2, 4, 3, padding=1, output_padding=1, stride=2),
      nn.ConvTranspose2d(2, 4, 3, padding=(1, 0), output_padding=1, stride=2).output_padding)
try:
    F.conv_transpose3d(x, w[:3])
except RuntimeError as e:
    print(e)
print(nn.ConvTranspose3d, type(m).__module__)
v = torch.randn(1, 2, 4, 5, 3, dtype=torch.float64, requires_grad=True)
for mode, padding in (("reflect", 1), ("replicate", "same"), ("circular", (1, 0, 1))):
    c = nn.Conv3d(2, 3, 3, padding=padding, padding_mode=mode).double()
    y = c(v)
    print(c, y.shape, y.grad_fn.next_functions[0][0].name(), y[0, 1, 1, 1],
          torch.autograd.grad(y.pow(2).sum(), v)[0][0, 0, 0, 0])
for f, xs, ws in ((F.conv1d, (1, 2, 5), (3, 2, 2)), (F.conv2d, (1, 2, 5, 5), (3, 2, 2, 2)),
                  (F.conv3d, (1, 2, 4, 4, 4), (3, 2, 2, 2, 2)),
                  (F.conv_transpose1d, (1, 2, 5), (2, 3, 2)),
                  (F.conv_transpose2d, (1, 2, 4, 4), (2, 3, 2, 2)),
                  (F.conv_transpose3d, (1, 2, 3, 3, 3), (2, 3, 2, 2, 2))):
    x = torch.randn(*xs, requires_grad=True)
    w = torch.randn(*ws, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    grads = torch.autograd.grad(f(x, w, b).pow(2).sum(), (x, w, b), create_graph=True)
    print(f.__name__, [g.grad_fn.name() for g in grads],
          [n.name() for n, _ in grads[2].grad_fn.next_functions if n is not None])
"""


def test_transposed_volume_convolution_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
