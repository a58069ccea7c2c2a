"""The kit derivative formulas are written against: each formula calls ``k.<primitive>``, and a
kit holds the primitives on NumPy arrays (``_formula_numpy.NUMPY_KIT``, a plain backward) or on
tensors (``_formula_tensors.TENSOR_KIT``, create_graph=True records the backward too). Here:
the formulas written once in terms of those primitives, and the helpers both kits share."""

from __future__ import annotations

import math

import numpy as np

from . import _convolution, _pooling, _recurrent
from ._gelu_bits import hands_to_onednn, onednn_gelu_derivative
from ._graph_kit import GraphBackwards
from ._kernel_exp import softmax_exp
from ._numerics import erf_values, fused_values, safe_softmax_values
from ._softmax_rows import log_softmax_grad_rows
from ._summation_order import softmax_sums
from ._tensor import Tensor


def _normalize_dims(dims, ndim: int) -> tuple[int, ...]:
    if dims is None:
        return tuple(range(ndim))
    return tuple(sorted(d % ndim if ndim else 0 for d in dims))


def _along(dim: int, item) -> tuple:
    return (slice(None),) * dim + (item,)


def writable_diagonal(data: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """np.diagonal's view (the (dim1, dim2) diagonals as the last dimension), writable where
    ``data`` is: NumPy's own is read-only, torch's is not (``a.diagonal().add_(1)``)."""
    picked = np.diagonal(data, offset, dim1, dim2)
    if picked.size == 0:
        return picked.copy()
    start = [slice(None)] * data.ndim
    start[dim1] = slice(max(-offset, 0), None)
    start[dim2] = slice(max(offset, 0), None)
    return np.lib.stride_tricks.as_strided(data[tuple(start)], picked.shape, picked.strides,
                                           writeable=data.flags.writeable)


GELU_BETA, GELU_KAPPA = 0.7978845608028654, 0.044715  # sqrt(2 / pi), torch's kappa
SQRT_HALF = 0.7071067811865476
_INVERSE_SQRT_2PI = 0.3989422804014327


def gelu_derivative(x: np.ndarray, approximate: str) -> np.ndarray:
    """d gelu / dx, in x's dtype as torch's kernel computes it (a float32 cdf that rounds to
    0 or 1 far out, as torch's does; oneDNN's where torch hands the tensor to it)."""
    number = x.dtype.type
    if approximate == "tanh":  # torch's order, its three fused multiply-adds included
        beta, kappa = number(GELU_BETA), number(GELU_KAPPA)
        inner = beta * fused_values(kappa, x * x * x, x)
        tanh = np.tanh(inner.astype(np.float64)).astype(x.dtype)  # (rounded once)
        slope = beta * fused_values(number(3) * kappa, x * x, 1)
        return number(0.5) * (tanh + 1) + number(0.5) * x * fused_values(-tanh, tanh, 1) * slope
    if hands_to_onednn(x):
        return onednn_gelu_derivative(x)
    cdf = (erf_values(x * number(SQRT_HALF)) + 1) * number(0.5)
    density = np.exp(x * x * number(-0.5)) * number(_INVERSE_SQRT_2PI)
    return fused_values(x, density, cdf)  # cdf + x·density, fused as in torch's kernel


def attention_probabilities(query: np.ndarray, key: np.ndarray, mask, scale: float
                            ) -> np.ndarray:
    """softmax(query keyᵀ scale + mask) over the keys, in the inputs' dtype; a row every key
    of which is masked out is all 0 (``mask``: None, or an additive array of 0 and -inf). A
    key with fewer heads (dim -3) serves groups of query heads (GQA)."""
    key = heads_for(key, query.shape[-3])
    scores = (query @ np.swapaxes(key, -1, -2)) * query.dtype.type(scale)
    if mask is not None:
        scores = scores + mask.astype(scores.dtype, copy=False)
    return safe_softmax_values(scores, -1)


def attention_gradients(grad, query, key, value, mask, scale) -> tuple:
    """The gradients for query, key and value of attention, from the probabilities again (a
    key's or value's summed over the query heads it serves)."""
    heads = query.shape[-3]
    probabilities = attention_probabilities(query, key, mask, scale)
    value_grad = np.swapaxes(probabilities, -1, -2) @ grad
    probability_grad = grad @ np.swapaxes(heads_for(value, heads), -1, -2)
    score_grad = probabilities * (probability_grad - np.sum(probability_grad * probabilities,
                                                            axis=-1, keepdims=True))
    score_grad = score_grad * query.dtype.type(scale)
    key_grad = np.swapaxes(score_grad, -1, -2) @ query
    return (score_grad @ heads_for(key, heads), _per_head(key_grad, key.shape[-3]),
            _per_head(value_grad, value.shape[-3]))


def heads_for(data: np.ndarray, heads: int) -> np.ndarray:
    """Each head of a key or value repeated for the group of query heads it serves."""
    if data.ndim < 3 or data.shape[-3] == heads:
        return data
    return np.repeat(data, heads // data.shape[-3], axis=-3)


def _per_head(grad: np.ndarray, heads: int) -> np.ndarray:
    """A gradient over the query heads summed back to the key's or value's own heads."""
    if grad.ndim < 3 or grad.shape[-3] == heads:
        return grad
    shape = grad.shape
    groups = shape[-3] // heads
    return grad.reshape(*shape[:-3], heads, groups, *shape[-2:]).sum(axis=-3)


def _array(value) -> np.ndarray:
    return value._data if isinstance(value, Tensor) else value


def _negated(shifts):
    """The shifts that undo a roll by ``shifts`` (one number or one per dimension)."""
    return tuple(-shift for shift in shifts) if isinstance(shifts, tuple) else -shifts


def _zero_elsewhere(values, chosen: np.ndarray):
    """nll's gradient is zero (+0, as torch's kernel writes it) but at the chosen targets; the
    product there is -0 where grad is positive (a printed ``-0.``). Arrays only: a tensor's
    zeros stay as its graph made them."""
    if isinstance(values, np.ndarray):
        values[chosen == 0] = 0
    return values


def _count(shape: tuple, dims) -> int:
    dims = _normalize_dims(dims, len(shape))
    return int(np.prod([shape[d] for d in dims])) if dims else 1


class Kit(GraphBackwards):
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

    def atan2_reciprocal(k, self, other):
        """1 / (self² + other²), 0 where that sum is 0: torch's atan2_backward."""
        total = self * self + other * other
        return k.where(total == 0, 0, 1 / total)

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
        """torch's var_backward: 2 / (n - correction) · grad · (x - mean), the mean as
        ``x.mean()`` for a whole tensor's variance, else ``x.mean(dims, keepdim=True)``."""
        freedom = _count(value.shape, dims) - correction
        mean = k.mean(value, dims, dims is not None)
        grad = k.restore_dims(grad, dims, keepdim)
        if freedom <= 0 and (dims is None or not value.shape):  # torch's: ∞, NaN at the mean
            return grad * k.where(value == mean, math.nan, math.inf)
        return (2.0 / freedom if freedom else math.inf) * grad * (value - mean)

    def norm_grad(k, grad, value, order, dims, keepdim, result):
        grad = k.restore_dims(grad, dims, keepdim)
        norm = k.restore_dims(result, dims, keepdim)
        # torch's norm_backward, in its order: grad · (x / norm) for 2, sgn(x) |x|^(p-1)
        # (x |x|^(p-2) past 2) times grad / norm^(p-1) for the others
        if order == 2:
            return grad * k.masked_fill(value / norm, norm == 0, 0)
        if order == 0:  # a count: torch's norm_backward leaves the gradient undefined
            return None
        if order == 1:
            return k.sign(value) * grad
        if order in (float("inf"), -float("inf")):
            mask = k.abs(value) == norm  # (torch's: sgn(x) · (grad / count · mask))
            return k.sign(value) * (grad / k.sum(mask * 1.0, dims, True) * mask)
        if order < 1:
            scaled = k.sign(value) * k.where(value == 0, 0, k.power(k.abs(value), order - 1))
            return scaled * grad * k.power(norm, 1 - order)
        scaled = k.sign(value) * k.power(k.abs(value), order - 1) if order < 2 else \
            value * k.power(k.abs(value), order - 2)
        return scaled * k.where(norm == 0, 0, grad / k.power(norm, order - 1))

    def softmax_grad(k, grad, result, dim):
        """(grad - Σ grad·result) · result, the sum added as torch's softmax backward kernel
        adds it (_summation_order.softmax_sums)."""
        total = softmax_sums(_array(grad), dim, _array(result))
        if not isinstance(grad, Tensor):  # (arrays, or a NumPy scalar of a 0-d gradient)
            return (grad - total) * result
        return k._same_values(result * (grad - k.sum(grad * result, (dim,), True)),
                              (_array(grad) - total) * _array(result))

    def log_softmax_grad(k, grad, result, dim):
        """grad - e^result Σ grad, one fused multiply-add as torch's kernel (its sum as
        softmax_sums adds it)."""
        if not isinstance(grad, Tensor):  # in C where it can be (the same bits)
            values = log_softmax_grad_rows(np.asarray(grad), _array(result), dim)
            if values is not None:
                return values
        total = softmax_sums(_array(grad), dim)
        exp = softmax_exp(_array(result), dim)  # (its kernel's e^x: a float32 row's Sleef's)
        values = fused_values(-exp(_array(result)), total, _array(grad))
        if not isinstance(grad, Tensor):
            return values
        return k._same_values(grad - k.exp(result) * k.sum(grad, (dim,), True), values)

    def log_sigmoid_grad(k, grad, self, buffer):
        """grad σ(-x) as torch's kernel has it from the buffer b = e^-|x|: (1 - b / (1 + b))
        grad, or (b / (1 + b)) grad where x ≥ 0 (recorded as grad σ(-x))."""
        ratio = buffer / (1 + buffer)
        values = np.where(_array(self) < 0, 1 - ratio, ratio) * _array(grad)
        if not isinstance(grad, Tensor):
            return values
        return k._same_values(grad * k.sigmoid(-self), values)

    def trace_grad(k, grad, shape):
        """grad on the diagonal of a matrix of ``shape``, zeros elsewhere (+0, as torch's
        zeros; a product with an identity would give -0 beside a negative grad)."""
        return k.where(np.eye(*shape, dtype=bool), k.expand(k.reshape(grad, (1, 1)), shape), 0)

    def negated(k, value):
        """``-value``, where torch's negation of an undefined gradient raises."""
        if value is None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor "
                               "in C++) for argument #0 'self'")
        return -value

    def mse_grad(k, grad, value, target, reduction):
        difference = 2 * (value - target)
        if reduction == "mean":
            return difference * (grad / _count(difference.shape, None))
        return difference * grad

    def share_extremes(k, grad, value, dims, keepdim, result):
        """amax/amin: the elements equal to the extreme share its gradient evenly (torch's
        scale_grad_by_count: the share times the mask)."""
        mask = value == k.restore_dims(result, dims, keepdim)
        return k.restore_dims(grad, dims, keepdim) / k.sum(mask * 1.0, dims, True) * mask

    def unrepeat(k, grad, shape, repeats):
        """repeat's gradient: the tiles summed back onto one (each dim split into tiles)."""
        padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
        split = [extent for pair in zip(repeats, padded, strict=True) for extent in pair]
        summed = k.sum(k.reshape(grad, tuple(split)), tuple(range(0, len(split), 2)), False)
        return k.reshape(summed, tuple(shape))

    def nll_grad(k, grad, chosen, reduction, count):
        """-grad at each row's target class (``chosen`` holds its weight there), for a mean
        first divided by the count (the total weight), as torch's kernel divides."""
        if reduction == "none" and chosen.ndim == 2:
            grad = k.unsqueeze(grad, 1)
        if reduction == "mean":
            grad = grad / chosen.dtype.type(count)
        return _zero_elsewhere(grad * -chosen, chosen)

    def index_add_source(k, grad, dim, index, alpha):
        """index_add's gradient for the source: grad's rows at the index, expanded as the
        source (torch's expand_as: an ExpandBackward0 under create_graph)."""
        picked = k.index_select(grad, dim, index)
        if not isinstance(picked, np.ndarray):
            picked = k.expand(picked, tuple(picked.shape))
        return k.scale(picked, alpha)

    def embedding_double(k, grad, indices, padding_idx, shape):
        """embedding_dense_backward's derivative: each looked-up row of ``grad`` (zero for the
        padding index), shaped as the embedding's output."""
        rows = k.index_select(grad, 0, indices)
        if padding_idx is not None:
            rows = k.masked_fill(rows, (indices == padding_idx)[:, None], 0)
        return k.reshape(rows, shape)

    def not_implemented(k, name):
        raise RuntimeError(f"derivative for {name} is not implemented")

    def no_derivative(k, what):
        """torch's nodes that exist without a formula (AsinhBackward1 of ``asinh_``)."""
        raise NotImplementedError(f"the derivative for '{what}' is not implemented.")

    def conv2d_input(k, grad, input, weight, stride, padding, dilation, groups=1):
        """d loss / d input of a convolution (a transposed convolution of grad by weight),
        on arrays; under create_graph torch's ConvolutionBackwardBackward0 node."""
        # contiguous, as torch's kernel writes it (with padding it is a larger array's middle)
        values = np.ascontiguousarray(_convolution.conv2d_input_grad(
            _array(grad), tuple(input.shape), _array(weight), stride, padding, dilation, groups))
        return k._backward_of("conv2d_input_backward", values, (grad, input, weight),
                              (grad, weight, stride, padding, dilation, groups))

    def conv2d_weight(k, grad, input, weight, stride, padding, dilation, groups=1):
        values = _convolution.conv2d_weight_grad(_array(grad), _array(input),
                                                 tuple(weight.shape[2:]), stride, padding,
                                                 dilation, groups)
        return k._backward_of("conv2d_weight_backward", values, (grad, input, weight),
                              (grad, input, stride, padding, dilation, groups))

    def conv2d_forward(k, input, weight, stride, padding, dilation, groups=1):
        """The convolution itself, in a second derivative (recorded under create_graph)."""
        values = _convolution.conv2d(_array(input), _array(weight), stride, padding, dilation,
                                     groups)
        return k._backward_of("conv2d", values, (input, weight, None),
                              (input, weight, stride, padding, dilation, groups))

    def max_scatter(k, grad, self, shape, indices, dims, backward):
        """Each window's gradient added to its maximum, window after window as torch adds them
        (max pooling of every kind, 1-d to 3-d); under create_graph the node of the `backward`
        row."""
        values = _convolution.max_plane_scatter(_array(grad), shape, indices, dims)
        if isinstance(grad, np.ndarray):
            return values
        return k._backward_of(backward, values, (grad, self), (indices, shape, dims))

    def max_gather(k, grad, indices, dims):
        """The incoming gradient at each index of its plane or volume: max unpooling's gradient
        and max pooling's second (sizes spelt out, for empty batches)."""
        flat = k.reshape(grad, (*grad.shape[:-dims], int(np.prod(grad.shape[-dims:]))))
        flat_indices = indices.reshape(*indices.shape[:-dims],
                                       int(np.prod(indices.shape[-dims:])))
        picked = k.gather(flat, len(grad.shape) - dims, flat_indices)
        return k.reshape(picked, tuple(indices.shape))

    def fold_windows(k, grad, shape, dim, size, step):
        """unfold's gradient: each window's gradient added back where the window lay (an
        element in several windows hears from them in their order)."""
        values = _array(grad)
        if not shape:  # unfold of a number
            values = values.reshape(())
        else:
            result = np.zeros(shape, values.dtype)
            count = values.shape[dim]
            for offset in reversed(range(size)):  # later offsets: earlier windows
                place = _along(dim, slice(offset, offset + step * (count - 1) + 1, step))
                result[place] += values[..., offset]
            values = result
        return k._backward_of("unfold_backward", values, (grad,), (dim, size, step))

    def avg_pool_input(k, grad, self, shape, windows, adaptive):
        """An average pool's input gradient; under create_graph torch's node for it, whose
        own derivative pools the incoming gradient again."""
        values = _pooling.pool_backward(_array(grad), shape, windows)
        op = "adaptive_avg_pool2d_backward" if adaptive else "avg_pool2d_backward"
        return k._backward_of(op, values, (grad, self), (windows,))

    def avg_pool_forward(k, grad, windows, adaptive):
        values = _pooling.pool_forward(_array(grad), windows)
        op = "adaptive_avg_pool2d" if adaptive else "avg_pool2d"
        return k._backward_of(op, values, (grad,), (grad, tuple(grad.shape), windows, adaptive))

    def smooth_l1_grad(k, grad, value, target, reduction, beta):
        """SmoothL1LossBackward0 as torch's kernel: ±norm·grad past beta, else
        norm·(x - y)·grad / beta (norm: 1/n for the mean)."""
        difference = value - target
        norm = 1.0 / _count(difference.shape, None) if reduction == "mean" else 1.0
        return k.where(difference <= -beta, -norm * grad, k.where(
            difference >= beta, norm * grad, norm * difference * grad / beta))

    def huber_grad(k, grad, value, target, reduction, delta):
        """HuberLossBackward0 as torch's kernel: ±norm·grad·delta past delta, else
        norm·(x - y)·grad."""
        difference = value - target
        norm = 1.0 / _count(difference.shape, None) if reduction == "mean" else 1.0
        return k.where(difference <= -delta, -norm * grad * delta, k.where(
            difference >= delta, norm * grad * delta, norm * difference * grad))

    def gelu_grad(k, grad, self, approximate):
        """GeluBackward0: grad times the derivative of x Φ(x) (or of torch's tanh
        approximation), computed on arrays in the input's dtype as torch's kernel does; under
        create_graph torch's GeluBackwardBackward0 node."""
        values = _array(grad) * gelu_derivative(_array(self), approximate)
        return k._backward_of("gelu_backward", values, (grad, self), (grad, self, approximate))

    def gelu_second(k, grad, grad_output, self, approximate):
        """GeluBackwardBackward0's gradient for ``self``: the second derivative of gelu."""
        if approximate == "tanh":
            beta, kappa = GELU_BETA, GELU_KAPPA
            inner = k.tanh((self + self * self * self * kappa) * beta)
            g = 1 - inner * inner
            h = (self * self * (3 * kappa) + 1) * beta
            curvature = g * h + self * h * (g * inner * -2) * h * 0.5 + \
                self * 0.5 * g * (self * (6 * kappa * beta))
            return grad * grad_output * curvature
        density = k.exp(self * self * -0.5) * _INVERSE_SQRT_2PI
        return grad * grad_output * density * (2 - self * self)

    def elu_grad(k, grad, self, alpha):
        """EluBackward0, on arrays; under create_graph torch's EluBackwardBackward0 node."""
        from ._pointwise import exp_rounded_once  # (its kernel's own exp, not MKL's)

        values = np.where(_array(self) > 0, _array(grad),
                          _array(grad) * np.asarray(alpha, _array(self).dtype) *
                          exp_rounded_once(_array(self)))
        return k._backward_of("elu_backward", values, (grad, self), (grad, self, alpha))

    def attention_grad(k, grad, query, key, value, mask, scale, which):
        """d loss / d query, key or value (``which`` 0, 1, 2) of scaled dot product
        attention, on arrays; under create_graph a node torch cannot differentiate."""
        gradients = attention_gradients(_array(grad), _array(query), _array(key),
                                        _array(value), mask, scale)
        return k._backward_of("attention_backward", gradients[which],
                              (grad, query, key, value))

    def det_grad(k, grad, A, result):
        """d det / dA = det · A⁻ᵀ (an invertible A), found as torch finds it: a solve of Aᵀ
        against det times the identity."""
        size = A.shape[-1]
        identity = np.eye(size, dtype=_array(A).dtype)
        scaled = k.unsqueeze(k.unsqueeze(grad * result, -1), -1) * identity
        return k.solve(k.mT(A), scaled)

    def slogdet_grad(k, grad, A):
        """Through log |det| (a real matrix's sign is flat): A⁻ᵀ times its gradient; for a
        complex one the sign's gradient adds i·Im(conj(sign)·g_sign), times A⁻ᴴ (torch's)."""
        if isinstance(A, np.ndarray) and A.dtype.kind == "c":
            return complex_slogdet_grad(grad[0], grad[1], A)
        logabsdet = grad[1]
        if logabsdet is None:
            return None
        return k.unsqueeze(k.unsqueeze(logabsdet, -1), -1) * k.mT(k.inverse(A))

    def solve_grad(k, grad, A, result, vector, left, for_A):
        """X = A⁻¹B: dB = A⁻ᵀ g, dA = -dB Xᵀ; X = BA⁻¹: dB = g A⁻ᵀ, dA = -Xᵀ dB."""
        column = k.unsqueeze(grad, -1) if vector else grad
        d_b = k.solve(k.mT(A), column, left)
        if not for_A:
            return k.squeeze_dim(d_b, -1) if vector else d_b
        x = k.unsqueeze(result, -1) if vector else result
        return -k.matmul(d_b, k.mT(x)) if left else -k.matmul(k.mT(x), d_b)

    def join_unbind(k, grads, shape, dim):
        """UnbindBackward0: the slices' gradients stacked back, zeros where none came."""
        grads = grads if isinstance(grads, tuple) else (grads,)
        return k.join_split(tuple(None if g is None else k.unsqueeze(g, dim) for g in grads),
                            shape, dim, (1,) * len(grads))

    def lstm_layer_grad(k, grad, run, memo, which):
        """MkldnnRnnLayerBackward0: the gradient for input ``which`` (input, the four
        weights, h0, c0) of an LSTM layer, all of them worked out once per backward (``memo``
        holds them). torch cannot differentiate it again: under create_graph the result has
        no graph."""
        if not memo or memo[0] is not grad:
            received = [None if g is None else _array(g) for g in grad]
            memo[:] = [grad, _recurrent.lstm_layer_grads(run, *received)]
        values = memo[1][which]
        if all(g is None or isinstance(g, np.ndarray) for g in grad):
            return values
        return Tensor._make(values)

    def as_strided_backward(k, grad, shape: tuple, positions: np.ndarray):
        """Each element of a view's gradient added at its place (``positions``, flat) in a
        base of ``shape``."""
        return k.reshape(k.index_backward(grad, (math.prod(shape),), (positions,)), shape)

    def sum_to(k, grad, shape: tuple):
        """Undo broadcasting: sum a gradient down to the shape of the input it flows into."""
        grad_shape = grad.shape
        if grad_shape == shape:
            return grad
        extra = grad.ndim - len(shape)
        if extra < 0:  # a (1, n) value written into an (n,) place: its leading ones back
            return k.reshape(grad, shape)
        dims = tuple(range(extra)) + tuple(
            extra + i for i, size in enumerate(shape) if size == 1 and grad_shape[extra + i] != 1
        )
        reduced = k.sum(grad, dims, True) if dims else grad
        return k.reshape(reduced, shape) if extra else reduced


def complex_slogdet_grad(g_sign, g_logabsdet, A: np.ndarray) -> np.ndarray | None:
    if g_sign is None and g_logabsdet is None:
        return None
    total = np.zeros(A.shape[:-2], A.dtype) if g_logabsdet is None else g_logabsdet.astype(A.dtype)
    if g_sign is not None:
        sign = np.linalg.slogdet(A)[0]
        total = total + 1j * np.imag(np.conj(sign) * g_sign)
    return total[..., None, None] * np.conj(np.swapaxes(np.linalg.inv(A), -1, -2))
