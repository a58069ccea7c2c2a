"""The array functions derivative formulas call: on NumPy arrays, or on tensors for create_graph."""

from __future__ import annotations

import math

import numpy as np

from . import _convolution
from ._arithmetic import mul_scalar, where
from ._indexing import along_axis, scatter_into_zeros
from ._numerics import power_by_number, whole_sum
from ._pointwise import UNARY
from ._recording import output
from ._tensor import Tensor


def _normalize_dims(dims, ndim: int) -> tuple[int, ...]:
    if dims is None:
        return tuple(range(ndim))
    return tuple(sorted(d % ndim if ndim else 0 for d in dims))


def _along(dim: int, item) -> tuple:
    return (slice(None),) * dim + (item,)


class Kit:
    """Formulas written once in terms of the primitives each kit defines (``k`` is the kit)."""

    # ruff: noqa: N805 - the kit is named k, as in the formula texts

    def scale(k, grad, alpha):
        return grad if alpha == 1 else grad * alpha

    def pow_self_grad(k, grad, base, exponent):
        if isinstance(exponent, int | float):
            if exponent == 0:
                return k.zeros_like(grad)
            return grad * k.times(k.power(base, exponent - 1), exponent)
        return k.where(exponent == 0, 0, grad * (exponent * base ** (exponent - 1)))

    def pow_exponent_grad(k, grad, base, exponent, result):
        if isinstance(base, int | float):
            log_base = float(np.log(base)) if base > 0 else float("nan")
            if base == 0:
                return k.where(exponent >= 0, 0, grad * (result * log_base))
            return grad * (result * log_base)
        return grad * k.where((base == 0) & (exponent >= 0), 0, result * k.log(base))

    def between(k, value, low, high):
        if low is not None and high is not None:
            return (value >= low) & (value <= high)
        if low is not None:
            return value >= low
        return value <= high

    def restore_dims(k, grad, dims, keepdim):
        """Put back the reduced dimensions a reduction without keepdim removed."""
        if keepdim or dims is None:
            return grad
        for dim in dims:
            grad = k.unsqueeze(grad, dim)
        return grad

    def evenly_distribute(k, grad, value, result):
        mask = value == result
        return k.where(mask, grad / k.count_true(mask), 0)

    def var_grad(k, grad, value, dims, correction, keepdim):
        count = _count(value.shape, dims)
        mean = k.sum(value, dims, True) / count
        return (2.0 / (count - correction)) * k.restore_dims(grad, dims, keepdim) * (value - mean)

    def norm_grad(k, grad, value, order, dims, keepdim, result):
        grad = k.restore_dims(grad, dims, keepdim)
        norm = k.restore_dims(result, dims, keepdim)
        if order == 2:
            return value * k.where(norm == 0, 0, grad / norm)
        if order == 1:
            return k.sign(value) * grad
        if order == float("inf"):
            mask = k.abs(value) == norm
            return k.sign(value) * k.where(mask, grad / k.sum(mask * 1.0, dims, True), 0)
        scaled = value * k.abs(value) ** (order - 2)
        return scaled * k.where(norm == 0, 0, grad / norm ** (order - 1))

    def mse_grad(k, grad, value, target, reduction):
        difference = 2 * (value - target)
        if reduction == "mean":
            return difference * (grad / _count(difference.shape, None))
        return difference * grad

    def share_extremes(k, grad, value, dims, keepdim, result):
        """amax/amin: the elements equal to the extreme share its gradient evenly."""
        mask = value == k.restore_dims(result, dims, keepdim)
        return k.where(mask, k.restore_dims(grad, dims, keepdim) / k.sum(mask * 1.0, dims, True),
                       0)

    def unrepeat(k, grad, shape, repeats):
        """repeat's gradient: the tiles summed back onto one (each dim split into tiles)."""
        padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
        split = [extent for pair in zip(repeats, padded, strict=True) for extent in pair]
        summed = k.sum(k.reshape(grad, tuple(split)), tuple(range(0, len(split), 2)), False)
        return k.reshape(summed, tuple(shape))

    def nll_grad(k, grad, chosen, reduction, count):
        """-grad at each row's target class (``chosen`` is 1 there), over the count for mean."""
        if reduction == "none" and chosen.ndim == 2:
            grad = k.unsqueeze(grad, 1)
        return grad * (chosen * (-1.0 / count))

    def not_implemented(k, name):
        raise RuntimeError(f"derivative for {name} is not implemented")

    def conv2d_input(k, grad, input, weight, stride, padding, dilation):
        """d loss / d input of a convolution (a transposed convolution of grad by weight),
        on arrays; under create_graph torch's ConvolutionBackwardBackward0 node."""
        values = _convolution.conv2d_input_grad(_array(grad), tuple(input.shape),
                                                _array(weight), stride, padding, dilation)
        return k._backward_of("conv2d_input_backward", values, (grad, input, weight),
                              (grad, weight, stride, padding, dilation))

    def conv2d_weight(k, grad, input, weight, stride, padding, dilation):
        values = _convolution.conv2d_weight_grad(_array(grad), _array(input),
                                                 tuple(weight.shape[2:]), stride, padding,
                                                 dilation)
        return k._backward_of("conv2d_weight_backward", values, (grad, input, weight),
                              (grad, input, stride, padding, dilation))

    def conv2d_forward(k, input, weight, stride, padding, dilation):
        """The convolution itself, in a second derivative (recorded under create_graph)."""
        values = _convolution.conv2d(_array(input), _array(weight), stride, padding, dilation)
        return k._backward_of("conv2d", values, (input, weight, None),
                              (input, weight, stride, padding, dilation))

    def conv2d_bias(k, grad):
        return k.sum(grad, (0, 2, 3), False)

    def max_pool2d_input(k, grad, shape, indices):
        values = _convolution.max_pool2d_grad(_array(grad), shape, indices)
        return k._backward_of("max_pool2d_backward", values, (grad,), (indices,))

    def max_pool2d_gather(k, grad, indices):
        """max_pool2d's second derivative: the incoming gradient at each window's maximum."""
        flat = k.reshape(grad, (*grad.shape[:2], -1))
        picked = k.gather(flat, 2, indices.reshape(*indices.shape[:2], -1))
        return k.reshape(picked, tuple(indices.shape))

    def batch_norm_input(k, grad, input, mean, weight, invstd, training, eps):
        """d loss / d input of batch norm: through the batch statistics while training,
        a plain scaling with the running ones in eval."""
        shape = (1, -1) + (1,) * (len(grad.shape) - 2)
        if training and not isinstance(input, np.ndarray):  # create_graph: statistics too
            mean, invstd = k._batch_statistics(input, eps)
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
        dims = (0, *range(2, len(grad.shape)))
        if not by_normalized:
            return k.sum(grad, dims, False)
        shape = (1, -1) + (1,) * (len(grad.shape) - 2)
        if training and not isinstance(input, np.ndarray):
            mean, invstd = k._batch_statistics(input, eps)
        normalized = (input - mean.reshape(shape)) * invstd.reshape(shape)
        return k.sum(grad * normalized, dims, False)

    def _batch_statistics(k, input, eps):
        """The batch's mean and 1/std as tensors of the input, so that they differentiate."""
        dims = (0, *range(2, len(input.shape)))
        count = math.prod(input.shape) // input.shape[1]
        mean = k.sum(input, dims, False) / count
        shape = (1, -1) + (1,) * (len(input.shape) - 2)
        centered = input - mean.reshape(shape)
        variance = k.sum(centered * centered, dims, False) / count
        return mean, k.rsqrt(variance + eps)

    def sum_to(k, grad, shape: tuple):
        """Undo broadcasting: sum a gradient down to the shape of the input it flows into."""
        grad_shape = grad.shape
        if grad_shape == shape:
            return grad
        extra = grad.ndim - len(shape)
        dims = tuple(range(extra)) + tuple(
            extra + i for i, size in enumerate(shape) if size == 1 and grad_shape[extra + i] != 1
        )
        reduced = k.sum(grad, dims, True) if dims else grad
        return k.reshape(reduced, shape) if extra else reduced


def _array(value) -> np.ndarray:
    return value._data if isinstance(value, Tensor) else value


def _negated(shifts):
    """The shifts that undo a roll by ``shifts`` (one number or one per dimension)."""
    return tuple(-shift for shift in shifts) if isinstance(shifts, tuple) else -shifts


def _count(shape: tuple, dims) -> int:
    dims = _normalize_dims(dims, len(shape))
    return int(np.prod([shape[d] for d in dims])) if dims else 1


class NumpyKit(Kit):
    """Primitives on ndarrays: the fast path of every backward without create_graph."""

    matmul = staticmethod(np.matmul)
    outer = staticmethod(np.outer)
    zeros_like = staticmethod(np.zeros_like)
    floor_divide = staticmethod(np.floor_divide)
    tril = staticmethod(np.tril)
    triu = staticmethod(np.triu)

    def trunc_divide(k, a, b):
        return np.trunc(a / b)

    def clamp_min(k, value, low):
        return np.maximum(value, low)

    def gather(k, grad, dim, index):
        return grad[along_axis(index, dim)]

    def scatter_add_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        np.add.at(result, along_axis(index, dim), grad)
        return result

    def scatter_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        result[along_axis(index, dim)] = grad
        return result

    def scatter_fill(k, grad, dim, index, value):
        result = grad.copy()
        result[along_axis(index, dim)] = value
        return result

    def index_select(k, grad, dim, index):
        return np.take(grad, index, axis=dim)

    def index_add_into(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        np.add.at(result, (slice(None),) * dim + (index,), grad)
        return result

    def embedding_backward(k, grad, shape, indices, padding_idx):
        """Each looked-up row's gradient added into its row; none for the padding row."""
        rows = grad.reshape(-1, shape[1])
        if padding_idx is not None:
            keep = indices != padding_idx
            indices, rows = indices[keep], rows[keep]
        result = k._zeros(grad, shape)
        np.add.at(result, indices, rows)
        return result

    def reverse_cumsum(k, grad, dim):
        return np.flip(np.cumsum(np.flip(grad, dim), axis=dim), dim)

    def flip(k, grad, dims):
        return np.flip(grad, dims)

    def unroll(k, grad, shifts, dims):
        return np.roll(grad, _negated(shifts), axis=dims)

    def times(k, value, number):
        return value * number

    def power(k, value, number):
        return power_by_number(value, number)

    def where(k, condition, a, b):
        return np.where(condition, a, b)

    def count_true(k, mask):
        return np.count_nonzero(mask)

    def sum(k, value, dims, keepdim):
        axes = None if dims is None else tuple(dims)
        if axes is None or len(axes) == value.ndim:  # everything: in torch's order of adding
            total = whole_sum(value)
            if total is not None:
                return np.asarray(total).reshape((1,) * value.ndim if keepdim else ())
        return np.asarray(value.sum(axis=axes, keepdims=keepdim))

    def expand(k, grad, shape):
        return np.broadcast_to(grad, shape)

    def reshape(k, grad, shape):
        return grad.reshape(shape)

    def unsqueeze(k, grad, dim):
        return np.expand_dims(grad, dim)

    def squeeze_dim(k, grad, dim):
        return np.squeeze(grad, axis=dim)

    def mT(k, value):
        return np.swapaxes(value, -1, -2)

    def swapaxes(k, grad, dim0, dim1):
        return np.swapaxes(grad, dim0, dim1)

    def unpermute(k, grad, dims):
        return np.transpose(grad, np.argsort(dims))

    def select(k, grad, dim, index):
        return grad[_along(dim, index)]

    def slice(k, grad, dim, start, end, step):
        return grad[_along(dim, slice(start, end, step))]

    def narrow(k, grad, dim, offset, size):
        return grad[_along(dim, slice(offset, offset + size))]

    def getitem(k, grad, index):
        return np.asarray(grad[index])

    def _zeros(k, grad, shape):
        return np.zeros(shape, dtype=grad.dtype)

    def _like(k, grad, values):
        return values

    def _backward_of(k, op, values, inputs, saved=()):
        return values

    def select_backward(k, grad, shape, dim, index):
        result = k._zeros(grad, shape)
        result[_along(dim, index)] = grad
        return result

    def slice_backward(k, grad, shape, dim, start, end, step):
        result = k._zeros(grad, shape)
        result[_along(dim, slice(start, end, step))] = grad
        return result

    def index_backward(k, grad, shape, indices):
        result = k._zeros(grad, shape)
        np.add.at(result, indices, grad)
        return result

    def zero_at(k, grad, index):
        result = np.array(grad, copy=True)
        result[index] = 0
        return result

    def scatter_indices(k, grad, shape, dim, indices, keepdim):
        result = k._zeros(grad, shape)
        if not keepdim:
            grad = np.expand_dims(grad, dim)
            indices = np.expand_dims(indices, dim)
        np.put_along_axis(result, indices, grad, axis=dim)
        return result

    def prod_grad(k, grad, value, dim, keepdim):
        """Product of all the other elements, without dividing (zeros are allowed)."""
        axis = 0 if dim is None else dim
        flat = value.reshape(-1) if dim is None else value
        ones_shape = list(flat.shape)
        ones_shape[axis] = 1
        ones = np.ones(ones_shape, dtype=flat.dtype)
        before = np.cumprod(np.concatenate([ones, flat], axis=axis), axis=axis)
        before = np.take(before, range(flat.shape[axis]), axis=axis)
        flipped = np.flip(flat, axis=axis)
        after = np.cumprod(np.concatenate([ones, flipped], axis=axis), axis=axis)
        after = np.flip(np.take(after, range(flat.shape[axis]), axis=axis), axis=axis)
        others = (before * after).reshape(value.shape)
        return k.restore_dims(grad, None if dim is None else (dim,), keepdim) * others


class TensorKit(Kit):
    """Primitives on tensors, so that a backward with create_graph=True records a graph too."""

    def power(k, value, number):
        return value ** number

    def times(k, value, number):
        """``value * number`` recorded as torch's formulas record it (MulBackward1)."""
        return mul_scalar(value, number)

    def matmul(k, a, b):
        return a.matmul(b)

    # floor and trunc division are flat: constants, as torch's formulas treat them
    def floor_divide(k, a, b):
        return a.div(b, rounding_mode="floor").detach()

    def trunc_divide(k, a, b):
        return a.div(b, rounding_mode="trunc").detach()

    def reverse_cumsum(k, grad, dim):
        return grad.flip(dim).cumsum(dim).flip(dim)

    def clamp_min(k, value, low):
        return value.clamp_min(low)

    def _index(k, index):
        return Tensor._make(np.asarray(index))

    def _zeros(k, grad, shape):
        return Tensor._make(np.zeros(shape, grad._data.dtype))

    def _like(k, grad, values):
        """Computed on arrays: no graph of its own (its second derivative is not recorded)."""
        return Tensor._make(values)

    def _backward_of(k, op, values, inputs, saved=()):
        """A first derivative computed on arrays, recorded as torch records it (its node,
        e.g. ConvolutionBackwardBackward0) so that the next backward goes through it."""
        return output(op, values, inputs, saved)

    def gather(k, grad, dim, index):
        return grad.gather(dim, k._index(index))

    def scatter_add_into(k, grad, shape, dim, index):
        return k._zeros(grad, shape).scatter_add(dim, k._index(index), grad)

    def scatter_into(k, grad, shape, dim, index):
        return k._zeros(grad, shape).scatter(dim, k._index(index), grad)

    def scatter_fill(k, grad, dim, index, value):
        return grad.scatter(dim, k._index(index), value)

    def index_select(k, grad, dim, index):
        return grad.index_select(dim, k._index(index))

    def index_add_into(k, grad, shape, dim, index):
        return k._zeros(grad, shape).index_add(dim, k._index(index), grad)

    def embedding_backward(k, grad, shape, indices, padding_idx):
        rows = grad.reshape(-1, shape[1])
        if padding_idx is not None:
            rows = rows * Tensor._make((indices != padding_idx)[:, None].astype(rows.dtype.numpy))
        return k._zeros(grad, shape).index_add(0, k._index(indices), rows)

    def flip(k, grad, dims):
        return grad.flip(dims)

    def unroll(k, grad, shifts, dims):
        return grad.roll(_negated(shifts), dims)

    def tril(k, grad, diagonal):
        return grad.tril(diagonal)

    def triu(k, grad, diagonal):
        return grad.triu(diagonal)

    def outer(k, a, b):
        return a.unsqueeze(1) * b.unsqueeze(0)

    def zeros_like(k, value):
        return Tensor._make(np.zeros_like(value._data))

    def where(k, condition, a, b):
        return where(condition, a, b)

    def count_true(k, mask):
        return float(np.count_nonzero(mask._data))

    def sum(k, value, dims, keepdim):
        if dims is None and not keepdim:
            return value.sum()
        return value.sum(tuple(range(value.ndim)) if dims is None else tuple(dims), keepdim)

    def expand(k, grad, shape):
        return grad.expand(shape)

    def reshape(k, grad, shape):
        return grad.reshape(shape)

    def unsqueeze(k, grad, dim):
        return grad.unsqueeze(dim)

    def squeeze_dim(k, grad, dim):
        return grad.squeeze(dim)

    def mT(k, value):
        return value.transpose(-1, -2)

    def swapaxes(k, grad, dim0, dim1):
        return grad.transpose(dim0, dim1)

    def unpermute(k, grad, dims):
        return grad.permute(*[int(i) for i in np.argsort(dims)])

    def select(k, grad, dim, index):
        return grad.select(dim, index)

    def slice(k, grad, dim, start, end, step):
        return grad[_along(dim, slice(start, end, step))]

    def narrow(k, grad, dim, offset, size):
        return grad.narrow(dim, offset, size)

    def getitem(k, grad, index):
        return grad[index]

    def select_backward(k, grad, shape, dim, index):
        return scatter_into_zeros("select_backward", grad, shape, _along(dim, index),
                                           (dim, index))

    def slice_backward(k, grad, shape, dim, start, end, step):
        return scatter_into_zeros("slice_backward", grad, shape,
                                           _along(dim, slice(start, end, step)),
                                           (dim, start, end, step))

    def index_backward(k, grad, shape, indices):
        return scatter_into_zeros("index_backward", grad, shape, indices, (indices,))

    def zero_at(k, grad, index):
        mask = np.ones(grad.shape, dtype=bool)
        mask[index] = False
        return grad * Tensor._make(mask)

    def scatter_indices(k, grad, shape, dim, indices, keepdim):
        mask = np.zeros(shape, dtype=bool)
        idx = indices if keepdim else np.expand_dims(indices, dim)
        np.put_along_axis(mask, idx, True, axis=dim)
        grad = grad if keepdim else grad.unsqueeze(dim)
        return grad.expand(shape) * Tensor._make(mask)

    def prod_grad(k, grad, value, dim, keepdim):
        result = value.prod() if dim is None else value.prod(dim, True)
        return k.restore_dims(grad, None if dim is None else (dim,), keepdim) * result / value


# The elementwise functions of one tensor are declared once (_pointwise.unary); formulas call
# them as k.exp, k.sigmoid, ... on arrays or on tensors.
for _name, _unary in UNARY.items():
    setattr(NumpyKit, _name, staticmethod(_unary.on_arrays))
    setattr(TensorKit, _name, staticmethod(_unary.on_tensors))

NUMPY_KIT = NumpyKit()
TENSOR_KIT = TensorKit()
