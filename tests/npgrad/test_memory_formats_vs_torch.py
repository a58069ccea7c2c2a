"""Memory formats against real torch run here: where a copy's elements lie (clone keeps a
tensor's layout, channels_last and channels_last_3d as named), which ``stride()`` and
``is_contiguous(memory_format=...)`` show, the node each copy records, and torch's errors.
Pasted code for convolutional nets converts to channels_last and checks it."""

from __future__ import annotations

import pytest

import playground.npgrad as npgrad
from tests.oracle import run_printing

torch = pytest.importorskip("torch")

SHOWN = """
def show(label, t):
    formats = [t.is_contiguous()]
    if t.dim() == 4:
        formats.append(t.is_contiguous(memory_format=torch.channels_last))
    if t.dim() == 5:
        formats.append(t.is_contiguous(memory_format=torch.channels_last_3d))
    name = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(label, tuple(t.shape), t.stride(), formats, name, f"{float(t.double().abs().sum()):.6g}")
"""

LAYOUTS = {
    "to channels_last": "x.to(memory_format=torch.channels_last)",
    "contiguous channels_last": "x.contiguous(memory_format=torch.channels_last)",
    "clone channels_last": "x.clone(memory_format=torch.channels_last)",
    "clone keeps channels_last": "x.to(memory_format=torch.channels_last).clone()",
    "back to contiguous": "x.to(memory_format=torch.channels_last).contiguous()",
    "clone contiguous_format": "x.to(memory_format=torch.channels_last)"
                               ".clone(memory_format=torch.contiguous_format)",
    "a dtype keeps it": "x.to(memory_format=torch.channels_last).to(torch.float64)",
    "dtype and format": "x.to(torch.float64, memory_format=torch.channels_last)",
    "one channel": "x[:, :1].to(memory_format=torch.channels_last)",
    "pointwise keeps it": "x.to(memory_format=torch.channels_last) * 2 + 1",
    "relu keeps it": "torch.relu(x.to(memory_format=torch.channels_last))",
    "reshape copies": "x.to(memory_format=torch.channels_last).reshape(2, -1)",
    "3d": "x.unsqueeze(2).expand(2, 3, 2, 4, 5).to(memory_format=torch.channels_last_3d)",
    "clone of a transpose": "x[0, 0].t().clone()",
    "clone of a strided transpose": "x[0, 0].t()[::2].clone()",
    "clone of a permute": "x.permute(0, 2, 3, 1).clone()",
    "clone of an expand": "x[0, 0, :1].expand(3, 5).clone()",
    "clone of a row expand": "x[0, 0, 0].expand(3, 5).clone()",
    "clone of a slice": "x[:, :, 1:3].clone()",
    "repeat_interleave": "x[0, 0].t().repeat_interleave(2, dim=0)",
    "conv2d of channels_last": "torch.nn.functional.conv2d(x.to(memory_format=torch.channels_last),"
                               " x[:2, :, :3, :3] / 100, padding=1)",
    "conv2d by channels_last filters": "torch.nn.functional.conv2d(x, (x[:2, :, :3, :3] / 100)"
                                       ".contiguous(memory_format=torch.channels_last))",
    "max_pool2d": "torch.nn.functional.max_pool2d(x.to(memory_format=torch.channels_last), 2)",
    "avg_pool2d": "torch.nn.functional.avg_pool2d(x.to(memory_format=torch.channels_last), 2)",
    "adaptive to one": "torch.nn.functional.adaptive_avg_pool2d("
                       "x.to(memory_format=torch.channels_last), 1)",
    "adaptive": "torch.nn.functional.adaptive_avg_pool2d("
                "x.to(memory_format=torch.channels_last), (2, 3))",
    "interpolate": "torch.nn.functional.interpolate(x.to(memory_format=torch.channels_last),"
                   " scale_factor=2, mode='bilinear')",
    "batch_norm": "torch.nn.functional.batch_norm(x.to(memory_format=torch.channels_last),"
                  " None, None, training=True)",
    "mean over channels": "x.to(memory_format=torch.channels_last).mean(1, keepdim=True)",
    "sum over rows": "x.to(memory_format=torch.channels_last).sum(2, keepdim=True)",
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("label", LAYOUTS)
def test_layout_as_torch(label: str, dtype: str) -> None:
    code = SHOWN + (f"x = torch.arange(120.).reshape(2, 3, 4, 5).to(torch.{dtype})"
                    f".requires_grad_()\n"
                    f"y = {LAYOUTS[label]}\n"
                    f"show({label!r}, y)\n"
                    f"y.sum().backward()\n"
                    f"print(x.grad.stride(), round(float(x.grad.abs().sum()), 3))\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


def test_same_format_is_no_copy() -> None:
    code = ("x = torch.ones(2, 3, 4, 5)\n"
            "c = x.to(memory_format=torch.channels_last)\n"
            "print(c.to(memory_format=torch.channels_last) is c,"
            " c.contiguous(memory_format=torch.channels_last) is c,"
            " x.contiguous() is x, x.to(memory_format=torch.contiguous_format) is x)\n"
            "print(torch.ones(1, 1, 1, 1).is_contiguous(memory_format=torch.channels_last),"
            " torch.ones(2, 3, 4, 5).is_contiguous(memory_format=torch.channels_last),"
            " torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last))\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


@pytest.mark.parametrize("call", [
    "torch.ones(2, 3).contiguous(memory_format=torch.channels_last)",
    "torch.ones(2, 3).clone(memory_format=torch.channels_last_3d)",
    "torch.ones(2, 3, 4).to(memory_format=torch.channels_last)",
    "torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last).view(2, -1)",
])
def test_errors_as_torch(call: str) -> None:
    code = f"try:\n    {call}\nexcept RuntimeError as error:\n    print(error)\n"
    printed = run_printing(code, torch)
    assert printed and run_printing(code, npgrad) == printed


def test_a_model_to_channels_last() -> None:
    """Module.to(memory_format=...) lays out its 4-d weights; a step of SGD keeps them so,
    and their gradients are laid out as they are."""
    code = ("torch.manual_seed(0)\n"
            "model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU())\n"
            "model = model.to(memory_format=torch.channels_last)\n"
            "weight = model[0].weight\n"
            "print(weight.stride(), model[0].bias.stride())\n"
            "x = torch.randn(2, 3, 6, 6).to(memory_format=torch.channels_last)\n"
            "y = model(x)\n"
            "print(y.stride(), y.is_contiguous(memory_format=torch.channels_last))\n"
            "y.sum().backward()\n"
            "print(weight.grad.stride())\n"
            "torch.optim.SGD(model.parameters(), lr=0.1).step()\n"
            "print(weight.stride(), round(float(weight.sum()), 4))\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


@pytest.mark.parametrize("factory", ["zeros_like(x)", "ones_like(x)", "empty_like(x).shape",
                                     "full_like(x, 2.5)", "rand_like(x)", "randn_like(x)",
                                     "randint_like(x, 9)", "randn_like(x[:, :1])",
                                     "zeros_like(x, memory_format=torch.contiguous_format)",
                                     "rand_like(x, memory_format=torch.contiguous_format)",
                                     "randn_like(torch.ones(2, 3).t())"])
def test_like_factories_as_torch(factory: str) -> None:
    """The ``*_like`` factories keep the input's layout; random ones draw in memory order
    (randn, one Box-Muller pair at a time into a layout that is not row-major)."""
    code = ("torch.manual_seed(3)\n"
            "x = torch.ones(2, 3, 2, 2).to(memory_format=torch.channels_last)\n"
            f"y = torch.{factory}\n"
            "print(y if isinstance(y, torch.Size) else (y, y.stride()))\n"
            "print(torch.rand(2))\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


A_CHANNELS_LAST_WALK = """
x = torch.empty(10, 3, 32, 32)
print(x.stride(), x.to(memory_format=torch.channels_last).stride())
x = x.to(memory_format=torch.channels_last).to(memory_format=torch.contiguous_format)
print(x.stride(), x.contiguous(memory_format=torch.channels_last).stride())
print(torch.empty(10, 3, 32, 32, memory_format=torch.channels_last).stride())
print(torch.empty(2, 3, 4, 5, memory_format=torch.contiguous_format).stride())
x = torch.ones(10, 3, 32, 32).to(memory_format=torch.channels_last)
print(x.permute(0, 2, 3, 1).is_contiguous())
one = torch.randn(4, 1, 4, 4).contiguous(memory_format=torch.channels_last)
print(one.is_contiguous(memory_format=torch.channels_last), one.is_contiguous())
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                            torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                            torch.nn.Linear(8, 2)).to(memory_format=torch.channels_last)
inp = torch.randn(2, 3, 8, 8).to(memory_format=torch.channels_last)
out = model(inp)
for i, layer in enumerate(model):
    inp = layer(inp)
    print(i, type(layer).__name__, inp.stride(), type(inp.grad_fn).__name__)
out.sum().backward()
print(model[0].weight.grad.stride())
"""


def test_a_channels_last_walk_as_torch() -> None:
    """What a tutorial on channels-last prints: strides, checks, a small net's layers."""
    assert run_printing(A_CHANNELS_LAST_WALK, npgrad) == \
        run_printing(A_CHANNELS_LAST_WALK, torch)


def test_an_empty_tensors_strides_as_torch() -> None:
    """NumPy gives a tensor without elements zero strides; torch counts them row-major."""
    code = ("print(torch.empty(3, 0).stride(), torch.empty(0, 3).stride(),"
            " torch.empty(2, 0, 4).stride(), torch.zeros(0).stride(),"
            " torch.empty(0, 3).clone().stride(), torch.ones(0, 2, 2).stride(1))\n")
    assert run_printing(code, npgrad) == run_printing(code, torch)


STRIDED_OVER_A_KEPT_LAYOUT = """
x = torch.arange(12.).reshape(3, 4).t().clone()
print(x.stride(), x.as_strided((2, 2), (1, 2)), x.as_strided((3,), (4,), 1))
print((x.clone().requires_grad_() * 2).as_strided((2, 3), (3, 1)))
v = torch.arange(12.).reshape(3, 4).t().clone()[1:]
print(v.as_strided((2,), (1,)), v.as_strided((2,), (3,), 2))
c = torch.ones(1, 3, 2, 2).to(memory_format=torch.channels_last)
c = c * torch.arange(3.).reshape(1, 3, 1, 1)
print(c.as_strided((4,), (1,)), c.stride())
w = torch.arange(6.).reshape(2, 3).t().clone().requires_grad_()
u = w * 1
u.as_strided_((3,), (2,))
(u * torch.tensor([1., 2., 3.])).sum().backward()
print(u, w.grad)
"""


def test_as_strided_reads_memory_as_torch_lays_it_out() -> None:
    """as_strided of a tensor whose copy kept a transpose's or channels-last layout reads its
    memory in that order, as torch's does (not in the order of its indices)."""
    assert run_printing(STRIDED_OVER_A_KEPT_LAYOUT, npgrad) == \
        run_printing(STRIDED_OVER_A_KEPT_LAYOUT, torch)
