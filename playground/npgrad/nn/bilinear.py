"""F.bilinear and nn.Bilinear: y = x₁ᵀ A x₂ + b for each output feature, computed as torch's
at::bilinear computes it (both inputs flattened to rows, one _trilinear op, TrilinearBackward0,
then the output's shape and the bias). Each input's gradient is a _trilinear op again, so a
create_graph backward records TrilinearBackward0 nodes and differentiates once more."""

from __future__ import annotations

import math

import numpy as np

from .. import _recording
from .._formula_kit import Kit
from .._tensor import Tensor
from . import init
from .modules import Module, weight_and_bias

BILINEAR = "bi,oij,bj->bo"  # rows x₁, the weight, rows x₂ -> each row's output features


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None):
    """Each output feature o of rows x₁, x₂: Σᵢⱼ x₁ᵢ weight[o, i, j] x₂ⱼ (+ bias[o])."""
    if input1.ndim != input2.ndim or input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(f"bilinear(): input batch dimensions do not match: got "
                           f"{list(input1.shape[:-1])} and {list(input2.shape[:-1])}")
    if weight.ndim != 3 or weight.shape[1:] != (input1.shape[-1], input2.shape[-1]):
        raise RuntimeError(f"bilinear(): weight size does not match the inputs' sizes: got "
                           f"{list(weight.shape)}")
    rows1 = input1.view(-1, input1.shape[-1])
    rows2 = input2.view(-1, input2.shape[-1])
    output = trilinear(rows1, weight, rows2, BILINEAR)
    output = output.view(*input1.shape[:-1], weight.shape[0])
    return output if bias is None else output + bias


def trilinear(i1: Tensor, i2: Tensor, i3: Tensor, pattern: str) -> Tensor:
    """torch's _trilinear as einsum ``pattern`` of three operands, in the first's dtype."""
    dtype = i1._data.dtype
    values = np.einsum(pattern, i1._data, i2._data.astype(dtype), i3._data.astype(dtype),
                       optimize=True).astype(dtype, copy=False)
    return _recording.output("trilinear", values, (i1, i2, i3), (i1, i2, i3, pattern))


def trilinear_grad(k, grad, i1, i2, i3, pattern: str, which: int):
    """TrilinearBackward0: operand ``which``'s gradient is the output's gradient contracted
    with the other two, in their places (torch's _trilinear_backward); under create_graph a
    _trilinear op of its own."""
    inputs, output = pattern.split("->")
    subscripts = inputs.split(",")
    operands = [i1, i2, i3]
    operands[which], subscripts[which] = grad, output
    swapped = f"{','.join(subscripts)}->{inputs.split(',')[which]}"
    if isinstance(grad, np.ndarray):
        return np.einsum(swapped, *operands, optimize=True).astype(grad.dtype, copy=False)
    return trilinear(*operands, swapped)


class Bilinear(Module):
    """y = x₁ᵀ A x₂ + b: an (out, in1, in2) weight and an (out,) bias, both uniform in
    ±1/sqrt(in1) as torch initialises them."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in1_features, in2_features), bias, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


Kit.trilinear_grad = trilinear_grad

__all__ = ["bilinear", "Bilinear"]
