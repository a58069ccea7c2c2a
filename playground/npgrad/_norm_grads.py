"""Layer and batch norm's gradients (NativeLayerNormBackward0, NativeBatchNormBackward0) and
their own derivatives (torch's NativeLayerNormBackwardBackward0 and
NativeBatchNormBackwardBackward0), as methods of the formula kit, added to it here.

A norm layer's input gradient is F = rstd · P(w g) along the normalized dims, with x̂ the
normalized input and P(v) = v - mean(v) - x̂ mean(v x̂) a symmetric projection. Under
create_graph each first derivative is computed on arrays and recorded as torch's one node;
that node's derivatives, below, are written in the kit's ops, so they differentiate again, with
the forward's mean and 1/std as constants (torch's layer_norm_double_backward and
batchnorm_double_backward read them so: a third derivative does not go through them)."""

from __future__ import annotations

import math
import weakref

import numpy as np

from ._batch_norm_kernel import backward as backward_kernel
from ._formula_kit import Kit


def _array(value):
    return value if value is None or isinstance(value, np.ndarray) else value._data


def _numpy_kit():
    from ._formula_numpy import NUMPY_KIT

    return NUMPY_KIT


class _Norm:
    """How one norm layer reduces: the normalized ``dims`` (kept), the dims its weight's
    gradient sums over, and its weight shaped to broadcast against the input."""

    def __init__(self, layer: bool, ndim: int, dims: tuple) -> None:
        self.layer = layer
        self.dims = tuple(dims) if layer else (0, *range(2, ndim))
        self.summed = tuple(range(ndim - len(self.dims))) if layer else self.dims
        self.shape = None if layer else (1, -1) + (1,) * (ndim - 2)

    def spread(self, value):
        """A weight-shaped value broadcastable against the input."""
        return value if value is None or self.shape is None else value.reshape(self.shape)

    def statistics(self, k, input, eps):
        """The mean and 1/std along the dims, kept, from the input (so that they differentiate
        under create_graph)."""
        count = math.prod(input.shape[dim] for dim in self.dims)
        mean = k.sum(input, self.dims, True) / count
        centered = input - mean
        variance = k.sum(centered * centered, self.dims, True) / count
        return mean, k.rsqrt(variance + eps)

    def average(self, k, value, count: int):
        return k.sum(value, self.dims, True) / count

    def count(self, input) -> int:
        return math.prod(input.shape[dim] for dim in self.dims)


# ----- the first derivatives ---------------------------------------------------------------------
def layer_norm_input(k, grad, input, mean, rstd, weight, dims, eps):
    """d loss / d input of layer norm: through each row's own mean and variance."""
    if not isinstance(input, np.ndarray):  # create_graph: torch's one node, differentiable
        values = layer_norm_input(_numpy_kit(), _array(grad), input._data, _array(mean),
                                  _array(rstd), _array(weight), dims, eps)
        return k._backward_of("layer_norm_input_backward", values, (grad, input, weight),
                              (grad, input, weight, mean, rstd, dims))
    normalized = (input - mean) * rstd
    scaled = grad if weight is None else grad * weight
    count = math.prod(input.shape[dim] for dim in dims)
    mean_grad = k.sum(scaled, dims, True) / count
    mean_projection = k.sum(scaled * normalized, dims, True) / count
    return rstd * (scaled - mean_grad - normalized * mean_projection)


def layer_norm_parameter(k, grad, input, mean, rstd, dims, eps, by_normalized):
    """d loss / d weight (``by_normalized``) or d bias: summed over the leading dims."""
    if not isinstance(input, np.ndarray):
        values = layer_norm_parameter(_numpy_kit(), _array(grad), input._data, _array(mean),
                                      _array(rstd), dims, eps, by_normalized)
        return _recorded_parameter(k, "layer", values, grad, input, by_normalized,
                                   (mean, rstd, dims))
    leading = tuple(range(len(grad.shape) - len(dims)))
    if not by_normalized:
        return k.sum(grad, leading, False)
    return k.sum(grad * ((input - mean) * rstd), leading, False)


def batch_norm_input(k, grad, input, mean, weight, invstd, training, eps):
    """d loss / d input of batch norm: through the batch statistics while training,
    a plain scaling with the running ones in eval."""
    if not isinstance(input, np.ndarray):
        values = batch_norm_input(_numpy_kit(), _array(grad), input._data, _array(mean),
                                  _array(weight), _array(invstd), training, eps)
        return k._backward_of("batch_norm_input_backward", values, (grad, input, weight),
                              (grad, input, weight, mean, invstd, training))
    found = _kernel_gradients(grad, input, weight, mean, invstd, training)
    if found is not None:
        return found[0]
    shape = (1, -1) + (1,) * (len(grad.shape) - 2)
    normalized = (input - mean.reshape(shape)) * invstd.reshape(shape)
    scale = invstd.reshape(shape)
    if weight is not None:
        scale = scale * weight.reshape(shape)
    if not training:
        return grad * scale
    dims = (0, *range(2, len(grad.shape)))
    count = math.prod(grad.shape) // grad.shape[1]
    mean_grad = k.sum(grad, dims, True) / count
    mean_projection = k.sum(grad * normalized, dims, True) / count
    return scale * (grad - mean_grad - normalized * mean_projection)


def batch_norm_parameter(k, grad, input, mean, invstd, training, eps, by_normalized):
    """d loss / d weight (``by_normalized``) or d bias: summed over all but the channels."""
    if not isinstance(input, np.ndarray):
        values = batch_norm_parameter(_numpy_kit(), _array(grad), input._data, _array(mean),
                                      _array(invstd), training, eps, by_normalized)
        return _recorded_parameter(k, "batch", values, grad, input, by_normalized,
                                   (mean, invstd, training))
    found = _kernel_gradients(grad, input, None, mean, invstd, training)
    if found is not None:
        return found[1] if by_normalized else found[2]
    dims = (0, *range(2, len(grad.shape)))
    if not by_normalized:
        return k.sum(grad, dims, False)
    shape = (1, -1) + (1,) * (len(grad.shape) - 2)
    normalized = (input - mean.reshape(shape)) * invstd.reshape(shape)
    return k.sum(grad * normalized, dims, False)


# [weak references to its arrays, its weight, its gradients]: the node's three rows share
# one call; forgotten when its incoming gradient goes (weak: nothing kept alive by it)
_LAST_KERNEL_CALL: list = []


def _kernel_gradients(grad, input, weight, mean, invstd, training: bool):
    """Batch norm's three gradients as torch's float32 kernel adds them up (None where its
    arithmetic is not followed), computed once for the node's three rows."""
    arrays = (grad, input, mean, invstd)
    if _LAST_KERNEL_CALL:
        held, held_weight, found = _LAST_KERNEL_CALL
        if (weight is None or held_weight is weight) and \
                all(ref() is array for ref, array in zip(held, arrays, strict=True)):
            return found
    found = backward_kernel(grad, input, weight, mean, invstd, training)
    held = tuple(weakref.ref(array) for array in arrays)
    _LAST_KERNEL_CALL[:] = [held, weight, found]
    weakref.finalize(grad, _forget_kernel_call, held)
    return found


def _forget_kernel_call(held: tuple) -> None:
    if _LAST_KERNEL_CALL and _LAST_KERNEL_CALL[0] is held:
        _LAST_KERNEL_CALL.clear()


def _recorded_parameter(k, kind: str, values, grad, input, by_normalized: bool,
                        statistics: tuple):
    """A norm layer's weight (``by_normalized``) or bias gradient, worked out on arrays, as
    torch's one node under create_graph (the weight's reads the statistics again)."""
    if by_normalized:
        return k._backward_of(f"{kind}_norm_weight_backward", values, (grad, input),
                              (grad, input, *statistics))
    return k._backward_of(f"{kind}_norm_bias_backward", values, (grad,), (grad.shape,))


def row_statistics(k, input, dims, eps):
    """Each row's mean and 1/std as tensors of the input, so that they differentiate."""
    return _Norm(True, len(input.shape), dims).statistics(k, input, eps)


# ----- their derivatives (the ...BackwardBackward0 nodes) ---------------------------------------
def norm_input_second(k, grad, grad_output, input, weight, mean, rstd, dims, training: bool,
                      which: int):
    """The derivative of F = rstd · P(w g) given ``grad`` (v) for it, by grad_output (0),
    input (1) or weight (2); a batch norm in eval mode scales by its running statistics alone:
    F = w g rstd, linear in g."""
    norm = _Norm(dims is not None, len(input.shape), dims or ())
    w, mean, rstd = norm.spread(weight), norm.spread(mean), norm.spread(rstd)
    if not training:
        if which == 0:
            return grad * rstd if w is None else grad * rstd * w
        return None if which == 1 else k.sum(grad_output * grad * rstd, norm.summed, False)
    normalized = (input - mean) * rstd
    count = norm.count(input)

    def average(value):
        return norm.average(k, value, count)

    if which != 1:
        projected = rstd * (grad - average(grad) - normalized * average(grad * normalized))
        if which == 0:
            return projected if w is None else projected * w
        return k.sum(grad_output * projected, norm.summed, False)
    u = grad_output if w is None else grad_output * w
    a, b = average(u), average(u * normalized)
    c, d = average(grad), average(grad * normalized)
    twist = 3 * d * b - (average(grad * u) - c * a)
    return rstd * rstd * (normalized * twist - (grad - c) * b - (u - a) * d)


def norm_weight_second(k, grad, grad_output, input, mean, rstd, dims, training: bool,
                       which: int):
    """The derivative of the weight's gradient G = Σ g x̂ given ``grad`` (V, weight-shaped),
    by grad_output (0) or input (1)."""
    norm = _Norm(dims is not None, len(input.shape), dims or ())
    along, mean, rstd = norm.spread(grad), norm.spread(mean), norm.spread(rstd)
    normalized = (input - mean) * rstd
    if which == 0:
        return along * normalized
    flowing = along * grad_output
    if not training:
        return flowing * rstd
    count = norm.count(input)
    return rstd * (flowing - norm.average(k, flowing, count) -
                   normalized * norm.average(k, flowing * normalized, count))


def norm_bias_second(k, grad, shape, layer: bool):
    """The bias's gradient is a sum: its derivative spreads ``grad`` back over the input."""
    if not layer:
        grad = grad.reshape((1, -1) + (1,) * (len(shape) - 2))
    return k.expand(grad, tuple(shape))


for _function in (layer_norm_input, layer_norm_parameter, batch_norm_input,
                  batch_norm_parameter, norm_input_second, norm_weight_second,
                  norm_bias_second):
    setattr(Kit, _function.__name__, _function)
Kit._row_statistics = row_statistics
