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
    print(label, tuple(t.shape), t.stride(), formats, name, float(t.sum()))
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
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("label", LAYOUTS)
def test_layout_as_torch(label: str, dtype: str) -> None:
    code = SHOWN + (f"x = torch.arange(120.).reshape(2, 3, 4, 5).to(torch.{dtype})"
                    f".requires_grad_()\n"
                    f"y = {LAYOUTS[label]}\n"
                    f"show({label!r}, y)\n"
                    f"y.sum().backward()\n"
                    f"print(x.grad.stride(), float(x.grad.sum()))\n")
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
