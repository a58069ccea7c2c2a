"""The rest of torch's activations on npgrad against real torch, run here: relu6, hardtanh,
selu, celu, prelu, mish, hardswish, hardsigmoid, glu, threshold, softshrink, hardshrink,
softsign, tanhshrink, softmin, Softmax2d and the channel dropouts, as functions and modules
(their reprs), in place or not (torch's ...Backward1 nodes, its refusal of a leaf), with first
and second derivatives, and torch's errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    x = (torch.randn(2, 4, 3, 3, dtype=dtype) * 3).requires_grad_()
    layers = [nn.ReLU6(), nn.Hardtanh(-2, 2), nn.SELU(), nn.CELU(0.5), nn.PReLU(dtype=dtype),
              nn.PReLU(4, dtype=dtype), nn.Mish(), nn.Hardswish(), nn.Hardsigmoid(), nn.GLU(1),
              nn.Softsign(), nn.Threshold(0.1, 20), nn.Softshrink(0.5), nn.Hardshrink(),
              nn.Tanhshrink(), nn.Softmax2d(), nn.Softmin(1), nn.Dropout2d(0.5), nn.Hardtanh(),
              nn.SELU(inplace=True), nn.Dropout1d(0.3)]
    for layer in layers:
        y = layer((x * 1)[:, :, 0] if isinstance(layer, nn.Dropout1d) else x * 1)
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        print(repr(layer), y.grad_fn.name(), y.flatten()[:4], f"{g.abs().sum().item():.4f}")
        if not isinstance(layer, nn.Hardsigmoid):
            gg, = torch.autograd.grad(g.sum(), x)
            print("   ", g.grad_fn.name(), f"{gg.abs().sum().item():.4f}")
    print(F.softmin(x[0, 0], dim=0).sum(0).allclose(torch.ones(3, dtype=dtype)),
          F.glu(x, 1).shape)
    for bad in ("F.glu(x, 2)", "F.hardtanh(x, 2, 1)", "F.softshrink(x, -1)", "F.dropout1d(x)",
                "F.prelu(x, torch.ones(3, dtype=dtype))", "F.glu(x.sum())",
                "F.prelu(x, torch.ones(4, dtype=torch.float16))"):
        try:
            eval(bad)
        except Exception as error:
            print(type(error).__name__, error)

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
for f in (F.relu6, F.hardtanh, F.selu, F.celu, F.hardswish, F.hardsigmoid, F.mish, F.elu,
          F.leaky_relu, F.silu, F.relu):
    y = x * 2
    f(y, inplace=True)
    print(f.__name__, y.grad_fn.name(), y)
    y.sum().backward()
    print(x.grad)
    x.grad = None
    try:
        f(x, inplace=True)
    except RuntimeError as error:
        print(error)
for f in (F.relu_, F.elu_, F.leaky_relu_, F.hardtanh_):
    y = x * 2
    print(f(y) is y, y.grad_fn.name())
y = x * 2
F.threshold(y, 0.1, 2.0, inplace=True)
print(y.grad_fn.name(), y)
for layer in (nn.ReLU(inplace=True), nn.LeakyReLU(0.1, inplace=True), nn.ELU(inplace=True),
              nn.SiLU(inplace=True), nn.ReLU6(inplace=True), nn.Hardswish(True)):
    a = torch.tensor([-1.0, 2.0])
    print(layer, layer(a) is a, a)
g, = torch.autograd.grad(F.hardsigmoid(x).pow(2).sum(), x, create_graph=True)
print(g.grad_fn.name())
try:
    g.sum().backward()
except RuntimeError as error:
    print(error)
"""


def test_more_activations_print_what_torch_prints(tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
