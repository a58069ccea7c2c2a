"""F.bilinear and nn.Bilinear: y = x₁ᵀ A x₂ + b for each output feature, computed as torch's
at::bilinear computes it (both inputs flattened to rows, one _trilinear op, TrilinearBackward0,
then the output's shape and the bias)."""

from __future__ import annotations

import math

import numpy as np

from .. import _recording
from .._formula_kit import Kit
from .._tensor import Tensor
from . import init
from .modules import Module, weight_and_bias

SECOND_ORDER = ("the derivative of bilinear under create_graph=True is not in the built-in "
                "NumPy engine; switch the engine to torch")


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
    values = np.einsum("bi,oij,bj->bo", rows1._data, weight._data.astype(rows1._data.dtype),
                       rows2._data, optimize=True).astype(rows1._data.dtype, copy=False)
    output = _recording.output("trilinear", values, (rows1, weight, rows2),
                               (rows1, weight, rows2))
    output = output.view(*input1.shape[:-1], weight.shape[0])
    return output if bias is None else output + bias


def trilinear_grad(k, grad, first, weight, second, which: int):
    """TrilinearBackward0 of a bilinear layer: each input's gradient is the output's gradient
    contracted with the other two."""
    if not isinstance(grad, np.ndarray):
        raise NotImplementedError(SECOND_ORDER)
    pattern = ("bo,oij,bj->bi", "bo,bi,bj->oij", "bo,bi,oij->bj")[which]
    others = ((weight, second), (first, second), (first, weight))[which]
    return np.einsum(pattern, grad, *others, optimize=True).astype(grad.dtype, copy=False)


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
