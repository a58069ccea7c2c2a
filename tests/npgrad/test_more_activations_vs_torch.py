"""The rest of torch's activations on npgrad against real torch, run here: relu6, hardtanh,
selu, celu, prelu, mish, hardswish, hardsigmoid, glu, threshold, softshrink, hardshrink,
softsign, tanhshrink, softmin, Softmax2d and the channel dropouts, as functions and modules
(their reprs), in place or not (torch's ...Backward1 nodes, its refusal of a leaf), with first
and second derivatives, and torch's errors."""

from __future__ import annotations

import pytest

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


# torch's softshrink gives x * 0 inside its band in its scalar code (-0. for a negative x) and
# +0. in its vector body: which elements are which depends on the vector width (the machine's
# ATEN_CPU_CAPABILITY), the dtype and the memory order.
ZERO_SIGNS = """
import torch
import torch.nn.functional as F

def signs(t):
    return ''.join('-' if torch.signbit(v) else '+' for v in t.flatten())

for n in (1, 9, 16, 20, 40, 70, 130):
    for dtype in (torch.float32, torch.float64, torch.float16):
        x = -torch.linspace(0, 0.4, n, dtype=dtype)
        print(n, dtype, signs(F.softshrink(x, 0.5)))
print(signs(F.softshrink(torch.full((2, 20), -0.25)[:, 2:], 0.5)))
print(signs(F.softshrink(torch.full((4, 20), -0.25).t(), 0.5)))
print(signs(F.softshrink(torch.full((20, 4), -0.25)[:, :2], 0.5)))
print(signs(F.softshrink(torch.full((3, 1, 40), -0.1).expand(3, 2, 40), 0.5)))
print(signs(F.softshrink(torch.full((40,), -0.1)[::2], 0.5)))
print(F.softshrink(torch.tensor([-3., -1., -0.5, -0.0, 0.0, 0.5, 1., 3., float('nan')]), 1))
print(torch.nn.Softshrink(0.3)(torch.linspace(-1, 1, 5)))
"""


@pytest.mark.parametrize("capability", [None, "avx2", "default"])
def test_softshrink_signs_its_zeros_as_torch(tmp_path, monkeypatch, capability):
    if capability is not None:
        monkeypatch.setenv("ATEN_CPU_CAPABILITY", capability)
    assert_playground_prints_as_torch(ZERO_SIGNS, tmp_path)


# elu, selu and celu take expm1 below zero, as torch's kernel does: a tiny negative input
# stays a tiny negative output (exp(x) - 1 made it 0), and -0. stays -0. And other edges:
# log σ of large inputs, erfinv(-0.).
TINY = """
import torch
import torch.nn as nn
import torch.nn.functional as F

for dtype in (torch.float32, torch.float64):
    x = torch.tensor([-1e-30, -3e-9, -5e-8, -0.0, -1e-4, -0.75, 2.0], dtype=dtype)
    for f in (F.elu, F.selu, F.celu, lambda t: F.elu(t, 0.3), lambda t: F.celu(t, 2.0),
              nn.ELU(), nn.SELU(), nn.CELU(0.5)):
        leaf = x.clone().requires_grad_()
        y = f(leaf)
        y.backward(torch.ones_like(y))
        print(y, leaf.grad)
        z = x.clone()
        f(z) if isinstance(f, nn.Module) else None
    for f in (F.elu_, F.selu_, F.celu_):
        z = x.clone()
        f(z)
        print(z)
# log σ(x) for large x: e^-x is subnormal there, and torch's log1p (Sleef's) halves it first
big = torch.tensor([80., 88., 90., 95., 100., 103., -100., 0.5])
print(F.logsigmoid(big), F.logsigmoid(big.double()))
print(F.binary_cross_entropy_with_logits(big, torch.ones(8), reduction="none"))
print(torch.erfinv(torch.tensor([-0.0, 0.0, -1e-30])), torch.erfinv(torch.tensor([-0.0]).double()))
"""


def test_edge_values_as_torch(tmp_path):
    assert_playground_prints_as_torch(TINY, tmp_path)
