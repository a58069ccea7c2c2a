"""Layers that draw random numbers while training: F.alpha_dropout and F.feature_alpha_dropout
(SELU's dropout: dropped units set to SELU's negative saturation, the rest rescaled) and
F.rrelu (a leaky ReLU whose negative slope is drawn per element, RreluWithNoiseBackward0),
with their modules; the draws are torch's, from the same generator."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _random
from .._factories import zeros
from .._formula_kit import Kit
from .._tensor import Tensor
from .modules import Dropout, Module

_SELU_ALPHA = 1.7580993408473766  # -SELU's negative saturation, scaled


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool,
                   feature: bool) -> Tensor:
    """aten's _dropout_impl with alpha: noise ~ Bernoulli(1 - p); the output is
    input · a·noise + (noise - 1)·αa + αap, a = 1/√((α²p + 1)(1 - p))."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * zeros((), dtype=input.dtype)
    shape = (*input.shape[:2], *(1,) * (input.ndim - 2)) if feature else tuple(input.shape)
    noise = Tensor._make(np.empty(shape, input._data.dtype)).bernoulli_(1 - p)
    scale = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_SELU_ALPHA * scale).add_(_SELU_ALPHA * scale * p)
    noise.mul_(scale)
    return (input.mul_(noise) if inplace else input * noise).add_(shift)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    return _alpha_dropout(input, p, training, inplace, False)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    return _alpha_dropout(input, p, training, inplace, True)


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, inplace: bool = False) -> Tensor:
    """x where x > 0; else x·r, r drawn from U(lower, upper) per element while training
    (torch's generator, in order), (lower + upper)/2 in eval."""
    data = input._data
    if training:
        negative = data <= 0
        slopes = np.ones(data.shape, data.dtype)
        slopes[negative] = _random.uniforms(_random.chosen(None), int(negative.sum()),
                                            np.float64, float(lower), float(upper))
        values = np.where(negative, data * slopes, data)
    else:
        slopes = None
        values = np.where(data > 0, data, data * data.dtype.type((lower + upper) / 2))
    from .more_activations import _activated

    return _activated("rrelu_with_noise", input, values, (slopes, lower, upper, training),
                      inplace)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False) -> Tensor:
    return rrelu(input, lower, upper, training, True)


def rrelu_grad(k, grad, self, noise, lower, upper, training):
    """grad times each element's slope (torch's rrelu_with_noise_backward); under
    create_graph its RreluWithNoiseBackwardBackward0, linear in grad."""
    flowing = np.asarray(getattr(grad, "_data", grad))
    data = np.asarray(getattr(self, "_data", self))
    if training and upper - lower > 1e-6:
        values = flowing * noise
    else:
        slope = data.dtype.type((lower + upper) / 2)
        values = np.where(data > 0, flowing, flowing * slope)
    values = values.astype(flowing.dtype)
    if isinstance(grad, np.ndarray):
        return values
    return k._backward_of("rrelu_with_noise_backward", values, (grad, self),
                          (self, noise, lower, upper, training))


class AlphaDropout(Dropout):
    def forward(self, input: Tensor) -> Tensor:
        return _alpha_dropout(input, self.p, self.training, self.inplace,
                              isinstance(self, FeatureAlphaDropout))


class FeatureAlphaDropout(AlphaDropout):
    pass


class RReLU(Module):
    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:
        return rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}{', inplace=True' if self.inplace else ''}"


Kit.rrelu_grad = rrelu_grad

FUNCTIONS = ("alpha_dropout", "feature_alpha_dropout", "rrelu", "rrelu_")
MODULES = ("AlphaDropout", "FeatureAlphaDropout", "RReLU")


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A softmax of logits plus Gumbel noise (minus the log of an exponential draw), over
    ``tau``; with ``hard``, one-hot forward and the soft gradient (straight-through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    from .._factories import empty_like, zeros_like

    gumbels = -empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
