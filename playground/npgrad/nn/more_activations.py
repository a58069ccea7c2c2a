"""The rest of torch's activations, functional and as modules: relu6, hardtanh, selu, celu,
prelu, mish, hardswish, hardsigmoid, glu, threshold, softshrink, hardshrink (one node each,
torch's names), softsign, tanhshrink, softmin and Softmax2d (made of other ops, as torch
makes them), and the channel-wise dropouts (dropout1d, dropout2d)."""

from __future__ import annotations

import warnings

import numpy as np

from .. import _factories, _reductions, _shapes
from .._autocast import lower_precision
from .._complex_refusals import refused_for_complex
from .._kernel_exp import vector_loop_mask
from .._pointwise import UNARY
from .._recording import output
from .._tensor import Tensor
from .modules import Dropout, Module, Parameter

SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _typed(value: float, data: np.ndarray):
    return np.asarray(value, data.dtype)


def _activated(op: str, input: Tensor, values: np.ndarray, saved: tuple,
               inplace: bool) -> Tensor:
    """The op's result, recorded as its node; with ``inplace`` written into the input as
    torch's in-place variant does (torch refuses a leaf that requires grad): where the table
    has a row ``op_`` (torch's ...Backward1, computed from the result) that node, else the
    op's own, keeping the input's old values."""
    values = values.astype(input._data.dtype, copy=False)
    if inplace:
        from .._inplace import _inplace
        from .._recording import RESULT
        from .._rules import RULES

        if f"{op}_" in RULES:
            return _inplace(f"{op}_", input, values, None, (RESULT, *saved))
        return _inplace(op, input, values, None, (input._data.copy(), *saved))
    return output(op, values, (input,), (input, *saved))


@refused_for_complex("hardtanh")
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    data = input._data
    values = np.clip(data, _typed(min_val, data), _typed(max_val, data))
    return _activated("hardtanh", input, values, (min_val, max_val), inplace)


@refused_for_complex("hardtanh_")
def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, True)


@refused_for_complex("relu6")
def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def _elu(input: Tensor, op: str, alpha: float, scale: float, input_scale: float,
         inplace: bool) -> Tensor:
    """torch's elu kernel: x·scale where positive, expm1(x·input_scale)·negcoef else, its
    coefficients in the input's type (negcoef = alpha·scale rounded there)."""
    data = input._data
    scale, input_scale = _typed(scale, data)[()], _typed(input_scale, data)[()]
    negcoef = _typed(alpha, data)[()] * scale
    negative = UNARY["expm1"].on_arrays(data * input_scale) * negcoef
    values = np.where(data > 0, data * scale, negative)
    return _activated(op, input, values, (negcoef, scale, input_scale), inplace)


def scaled_elu_grad(k, grad, self, negcoef, scale, input_scale):
    """EluBackward0 of an elu with a scale (selu, celu), on arrays; under create_graph
    torch's EluBackwardBackward0."""
    x, g = getattr(self, "_data", self), getattr(grad, "_data", grad)
    values = np.where(x > 0, g * scale, g * input_scale * negcoef * np.exp(x * input_scale))
    return k._backward_of("scaled_elu_backward", values.astype(g.dtype), (grad, self),
                          (grad, self, negcoef, scale, input_scale))


def scaled_elu_result_grad(k, grad, result, negcoef, scale, input_scale):
    """EluBackward1 (an in-place elu): from the result, grad·input_scale·(result + negcoef)
    where it is not positive."""
    return k.where(result > 0, grad * scale, grad * input_scale * (result + negcoef))


def masked_grad(k, op: str, grad, self, mask):
    """grad where ``mask``, 0 elsewhere; under create_graph torch's node ``op`` for it."""
    mask = getattr(mask, "_data", mask)
    values = np.where(mask, getattr(grad, "_data", grad), 0)
    return k._backward_of(op, values, (grad, self), (mask,))


def hardswish_grad(k, grad, self):
    x, g = getattr(self, "_data", self), getattr(grad, "_data", grad)
    three, half = _typed(3, x), _typed(0.5, x)
    values = np.where(x <= -three, 0, np.where(x < three, g * (x / three + half), g))
    return k._backward_of("hardswish_backward", values.astype(g.dtype), (grad, self),
                          (grad, self))


def hardsigmoid_grad(k, grad, self):
    x, g = getattr(self, "_data", self), getattr(grad, "_data", grad)
    one_sixth = _typed(np.float32(1) / np.float32(6), x)  # torch's 1.0f / 6.0f, even for double
    values = np.where((x > -3) & (x < 3), g * one_sixth, 0).astype(g.dtype)
    return k._backward_of("hardsigmoid_backward", values, (grad, self), ())


def prelu_grad(k, grad, self, weight, for_input: bool):
    """PreluKernelBackward0's gradient for the input or the weight; under create_graph torch's
    PreluKernelBackwardBackward0."""
    x, g, w = (getattr(value, "_data", value) for value in (self, grad, weight))
    if for_input:
        values = np.where(x > 0, g, w * g).astype(g.dtype)
        return k._backward_of("prelu_input_backward", values, (grad, self, weight),
                              (grad, self, weight))
    values = np.where(x > 0, 0, x * g).astype(g.dtype)
    return k._backward_of("prelu_weight_backward", values, (grad, self), (grad, self))


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return _elu(input, "scaled_elu", SELU_ALPHA, SELU_SCALE, 1.0, inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return _elu(input, "celu", alpha, 1.0, 1.0 / alpha, inplace)


@lower_precision
def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where positive, weight·x elsewhere; the weight viewed across dim 1 as torch does."""
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    channels = input.shape[1] if input.ndim > 1 else 1
    if weight.numel() not in (1, channels):
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                           f"parameter numbers = {weight.numel()} and channel size = "
                           f"{channels}.")
    if weight.dtype != input.dtype:
        names = {"float32": "Float", "float64": "Double", "float16": "Half",
                 "bfloat16": "BFloat16"}
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{names.get(str(input.dtype)[6:])} and "
                           f"{names.get(str(weight.dtype)[6:])}")
    if weight.ndim != input.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    data = input._data
    values = np.where(data > 0, data, weight._data * data).astype(data.dtype)
    return output("prelu", values, (input, weight), (input, weight))


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    data = input._data
    return _activated("mish", input, data * np.tanh(np.log1p(np.exp(data))), (), inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    data = input._data
    values = data * np.minimum(np.maximum(data + _typed(3, data), 0), _typed(6, data)) / \
        _typed(6, data)
    return _activated("hardswish", input, values, (), inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    data = input._data
    values = np.minimum(np.maximum(data + _typed(3, data), 0), _typed(6, data)) / \
        _typed(6, data)
    return _activated("hardsigmoid", input, values, (), inplace)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The first half along ``dim`` times the sigmoid of the second."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = dim % input.ndim
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    first, second = np.split(input._data, 2, axis=dim)
    values = (first * (1 / (1 + np.exp(-second)))).astype(input._data.dtype)
    return output("glu", values, (input,), (input, dim))


def glu_grad(k, grad, self, dim: int):
    """GluBackward0: σ(b)·grad for the first half, (1 - σ(b))·σ(b)·a·grad for the second;
    under create_graph torch's GluBackwardBackward0."""
    if isinstance(self, Tensor) or isinstance(grad, Tensor):
        values = glu_grad(k, _array(grad), _array(self), dim)
        return k._backward_of("glu_backward", values, (grad, self), (grad, self, dim))
    first, second = np.split(self, 2, axis=dim)
    gate = 1 / (1 + np.exp(-second))
    return np.concatenate([gate * grad, (1 - gate) * gate * first * grad], axis=dim)


def _array(value):
    return getattr(value, "_data", value)


def _halves(value, dim: int):
    """The two halves along ``dim`` (a tensor's by narrow, as torch's formulas take them)."""
    size = value.shape[dim] // 2
    if isinstance(value, np.ndarray):
        return np.split(value, 2, axis=dim)
    return value.narrow(dim, 0, size), value.narrow(dim, size, size)


def _joined(k, pieces, dim: int):
    return np.concatenate(pieces, axis=dim) if isinstance(pieces[0], np.ndarray) else \
        _shapes.cat(pieces, dim)


def glu_double(k, grad, grad_output, self, dim: int):
    """GluBackwardBackward0 by the input (torch's glu_double_backward): with s = σ(b),
    [V_b g s(1-s) ; V_a g s(1-s) + V_b a g s(1-s)(1-2s)] for ``grad`` V = [V_a ; V_b]."""
    first, second = _halves(self, dim)
    gate = k.sigmoid(second)
    rest = 1 - gate
    slope = gate * rest
    grad_first, grad_second = _halves(grad, dim)
    curve = slope * rest - gate * slope
    return _joined(k, [grad_second * grad_output * slope,
                       grad_second * first * grad_output * curve +
                       grad_first * grad_output * slope], dim)


def glu_double_grad_output(k, grad, self, dim: int):
    """GluBackwardBackward0 by grad_output: ``grad`` times the gradient of a unit output,
    the two halves added."""
    shape = list(self.shape)
    shape[dim] //= 2
    unit = glu_grad(k, k._zeros(self, tuple(shape)) + 1, self, dim)
    first, second = _halves(grad * unit, dim)
    return first + second


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    data = input._data
    values = np.where(data > threshold, data, _typed(value, data))
    return _activated("threshold", input, values, (threshold,), inplace)


threshold = _threshold  # (torch's F.threshold is its _threshold too)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    if lambd < 0:
        largest = np.finfo(input._data.dtype).max
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{'Double' if input._data.dtype == np.float64 else 'Float'}, but "
                           f"found {lambd:g}")
    data = input._data
    bound = _typed(lambd, data)
    # torch's scalar code gives x * 0 inside the band (-0 for a negative x), its vector code +0
    values = np.where(data > bound, data - bound, np.where(data < -bound, data + bound, data * 0))
    # (torch registers softshrink's kernel without AVX-512: its AVX2 code runs there)
    vector = vector_loop_mask(data, avx512_kernel=False)
    if vector is not None:
        values[vector & (values == 0)] = 0
    return output("softshrink", values.astype(data.dtype), (input,), (input, lambd))


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    data = input._data
    bound = _typed(lambd, data)
    values = np.where((data >= -bound) & (data <= bound), 0, data).astype(data.dtype)
    return output("hardshrink", values, (input,), (input, lambd))


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    if dim is None:
        warnings.warn("Implicit dimension choice for softmin has been deprecated. Change the "
                      "call to include dim=X as an argument.", stacklevel=_stacklevel)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _reductions.softmax(-input, dim) if dtype is None else \
        _reductions.softmax((-input).to(dtype), dim)


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:
    """torch's feature dropout: one draw per (sample, channel), the same across the rest."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        return input.mul_(0) if inplace else input * _factories.zeros((), dtype=input.dtype)
    shape = (*input.shape[:2], *(1,) * (input.ndim - 2))
    noise = Tensor._make(np.empty(shape, input._data.dtype)).bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def _check_probability(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _warn_rank(spatial: int, ndim: int) -> None:
    """torch's warning when dropout2d/3d is given an input of another rank (at the caller's
    caller: the user's line)."""
    name = f"dropout{spatial}d"
    warnings.warn(f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will "
                  "result in an error in a future release. To retain the behavior and silence "
                  f"this warning, please use dropout instead. Note that {name} exists to "
                  f"provide channel-wise dropout on inputs with {spatial} spatial dimensions, a "
                  "channel dimension, and an optional batch dimension (i.e. "
                  f"{spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_probability(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D "
                           "input. Note that dropout1d exists to provide channel-wise dropout "
                           "on inputs with 1 spatial dimension, a channel dimension, and an "
                           "optional batch dimension (i.e. 2D or 3D inputs).")
    batched = input.ndim == 3
    if not batched:
        input = input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    return result if batched else result.squeeze(0)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    _check_probability(p)
    if input.ndim not in (3, 4):
        _warn_rank(2, input.ndim)
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. This behavior will change in "
                      "a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout "
                      "behavior, please switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Whole channels of a volume zeroed (an unbatched 4-D input taken as one sample)."""
    _check_probability(p)
    if input.ndim not in (4, 5):
        _warn_rank(3, input.ndim)
    if input.ndim != 4:
        return _feature_dropout(input, p, training, inplace)
    result = _feature_dropout(input.unsqueeze(0), p, training, inplace)
    return result.squeeze(0)


class _Function(Module):
    """An activation module that calls its function with the options it was made with."""

    OPTIONS: tuple[str, ...] = ()

    def forward(self, input: Tensor) -> Tensor:
        options = [getattr(self, name) for name in self.OPTIONS]
        if self.inplace:
            return type(self).function(input, *options, inplace=True)
        return type(self).function(input, *options)


def _module(name: str, function, options: tuple[str, ...] = (), defaults: tuple = (),
            shown=None, shows_inplace: bool = True) -> type:
    """A module class calling ``function``, taking ``options`` (with ``defaults``) and an
    ``inplace`` flag, printed by ``shown(module)`` (torch's extra_repr; some of torch's do
    not show the flag)."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: N807 - the class's own __init__
        Module.__init__(self)
        values = dict(zip(options, defaults, strict=True), inplace=False)
        values.update(zip((*options, "inplace"), args, strict=False))
        values.update(kwargs)
        for option in (*options, "inplace"):
            setattr(self, option, values[option])

    def extra_repr(self) -> str:
        text = shown(self) if shown else ""
        if not (shows_inplace and self.inplace):
            return text
        return text + (", " if text else "") + "inplace=True"

    return type(name, (_Function,), {"__init__": __init__, "extra_repr": extra_repr,
                                     "function": staticmethod(function), "OPTIONS": options,
                                     "__module__": __name__})


ReLU6 = _module("ReLU6", relu6)
Hardtanh = _module("Hardtanh", hardtanh, ("min_val", "max_val"), (-1.0, 1.0),
                   lambda m: f"min_val={m.min_val}, max_val={m.max_val}")
SELU = _module("SELU", selu)
CELU = _module("CELU", celu, ("alpha",), (1.0,), lambda m: f"alpha={m.alpha}")
Mish = _module("Mish", mish, shows_inplace=False)
Hardswish = _module("Hardswish", hardswish, shows_inplace=False)
Hardsigmoid = _module("Hardsigmoid", hardsigmoid, shows_inplace=False)
GLU = _module("GLU", glu, ("dim",), (-1,), lambda m: f"dim={m.dim}")
Threshold = _module("Threshold", threshold, ("threshold", "value"), (None, None),
                    lambda m: f"threshold={m.threshold}, value={m.value}")
Softshrink = _module("Softshrink", softshrink, ("lambd",), (0.5,), lambda m: str(m.lambd))
Hardshrink = _module("Hardshrink", hardshrink, ("lambd",), (0.5,), lambda m: f"{m.lambd}")
Softsign = _module("Softsign", softsign)
Tanhshrink = _module("Tanhshrink", tanhshrink)
Softmin = _module("Softmin", softmin, ("dim",), (None,), lambda m: f"dim={m.dim}")


class Softmax2d(Module):
    def forward(self, input: Tensor) -> Tensor:
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D "
                             "instead")
        return _reductions.softmax(input, -3)


class PReLU(Module):
    """prelu with a learnt slope (one, or one per channel), initially ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(_factories.full((num_parameters,), init, dtype=dtype))

    def forward(self, input: Tensor) -> Tensor:
        return prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class _ChannelDropout(Dropout):
    """nn.Dropout's options and printing; whole channels dropped (``function``)."""

    def forward(self, input: Tensor) -> Tensor:
        return type(self).function(input, self.p, self.training, self.inplace)


class Dropout1d(_ChannelDropout):
    function = staticmethod(dropout1d)


class Dropout2d(_ChannelDropout):
    function = staticmethod(dropout2d)


class Dropout3d(_ChannelDropout):
    function = staticmethod(dropout3d)


FUNCTIONS = ("hardtanh", "relu6", "selu", "celu", "prelu", "mish", "hardswish", "hardsigmoid",
             "glu", "threshold", "softshrink", "hardshrink", "softsign", "tanhshrink", "softmin",
             "dropout1d", "dropout2d", "dropout3d")
MODULES = ("ReLU6", "Hardtanh", "SELU", "CELU", "Mish", "Hardswish", "Hardsigmoid", "GLU",
           "Threshold", "Softshrink", "Hardshrink", "Softsign", "Tanhshrink", "Softmin",
           "Softmax2d", "PReLU", "Dropout1d", "Dropout2d", "Dropout3d")


def _register() -> None:
    from .._formula_kit import Kit

    Kit.glu_grad, Kit.scaled_elu_grad, Kit.masked_grad = glu_grad, scaled_elu_grad, masked_grad
    Kit.glu_double, Kit.glu_double_grad_output = glu_double, glu_double_grad_output
    Kit.hardswish_grad, Kit.hardsigmoid_grad = hardswish_grad, hardsigmoid_grad
    Kit.prelu_grad, Kit.scaled_elu_result_grad = prelu_grad, scaled_elu_result_grad


_register()
