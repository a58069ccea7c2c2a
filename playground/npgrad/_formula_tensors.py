"""The formula kit on tensors: a backward with create_graph=True records its own graph."""

from __future__ import annotations

import numpy as np

from ._arithmetic import add_scalar, mul_scalar, where
from ._formula_kit import Kit, _along, _array, _negated, writable_diagonal
from ._indexing import scatter_into_zeros
from ._numerics import fused_values
from ._pointwise import UNARY
from ._recording import output
from ._tensor import Tensor


class TensorKit(Kit):
    """Primitives on tensors, so that a backward with create_graph=True records a graph too."""

    def power(k, value, number):
        return value ** number

    def times(k, value, number):
        """``value * number`` recorded as torch's formulas record it (MulBackward1)."""
        return mul_scalar(value, number)

    def plus(k, value, number):
        """``value + number`` recorded as torch's formulas record it (AddBackward1)."""
        return add_scalar(value, number)

    def fused(k, a, b, c):
        """``a * b + c`` recorded as those two ops (a number added: AddBackward1), its values
        rounded once as the NumPy kit's (torch's kernel is one fused multiply-add)."""
        product = a * b
        total = k.plus(product, c) if isinstance(c, int | float) else product + c
        return k._same_values(total, fused_values(_array(a), _array(b), _array(c)))

    def _same_values(k, recorded, values):
        """``recorded`` (a formula's graph) holding ``values``, the NumPy kit's result of
        that formula in torch's order of operations, so that both kits agree bit for bit."""
        recorded._data = np.asarray(values, dtype=recorded._data.dtype).reshape(
            recorded._data.shape)
        return recorded

    def matmul(k, a, b):
        return a.matmul(b)

    def inverse(k, value):
        from .linalg import inv

        return inv(value)

    def solve(k, a, b, left=True):
        from .linalg import solve

        return solve(a, b, left=left)

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

    def unfold(k, grad, dim, size, step):
        return grad.unfold(dim, size, step)

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

    def embedding_backward(k, grad, shape, indices, padding_idx, scale=False, sparse=False):
        """The rows' gradients added up on arrays, recorded as torch's embedding_dense_backward
        (EmbeddingDenseBackwardBackward0: its derivative reads the rows back)."""
        from ._formula_numpy import NUMPY_KIT

        if sparse:
            raise NotImplementedError("a sparse embedding's gradient under create_graph is not "
                                      "in the built-in NumPy engine; switch the engine to torch")
        values = NUMPY_KIT.embedding_backward(grad._data, shape, indices, padding_idx, scale)
        return k._backward_of("embedding_dense_backward", values, (grad,),
                              (indices, padding_idx, tuple(grad.shape)))

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

    def mean(k, value, dims, keepdim):
        """MeanBackward0 for a whole tensor's mean, MeanBackward1 along ``dims``."""
        if dims is None and not keepdim:
            return value.mean()
        return value.mean(tuple(range(value.ndim)) if dims is None else tuple(dims), keepdim)

    def masked_fill(k, value, mask, number):
        """torch's ``masked_fill_`` in a formula: MaskedFillBackward0."""
        return value.masked_fill(mask, number)

    def sgn(k, value):
        """torch's ``sgn()`` in a formula (abs's): SgnBackward0, not sign's node."""
        from ._more_math_linalg import sgn

        return sgn(value)

    def number_minus(k, number, value):
        """``number - value`` as torch's C++ formulas record it: SubBackward0 from a
        constant tensor, not RsubBackward1."""
        return Tensor._make(np.full_like(value._data, number)) - value

    def isfinite(k, value):
        return value.isfinite()

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

    def mH(k, value):
        return value.transpose(-1, -2).conj()

    def t(k, matrix):
        """A matrix's transpose as torch's mm backward takes it (``.t()``: TBackward0)."""
        return matrix.t()

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

    def join_split(k, grads, shape, dim, sizes):
        """SplitBackward0 under create_graph: the pieces' gradients concatenated (recorded),
        zeros where none came."""
        from ._shapes import cat

        reference = next(g for g in grads if g is not None)
        pieces = []
        for grad, size in zip(grads, sizes, strict=True):
            piece_shape = tuple(size if axis == dim else side for axis, side in enumerate(shape))
            pieces.append(grad if grad is not None else k._zeros(reference, piece_shape))
        return cat(pieces, dim)

    def getitem(k, grad, index):
        return grad[index]

    def diagonal_backward(k, grad, shape, offset, dim1, dim2):
        data = np.zeros(shape, dtype=grad._data.dtype)
        writable_diagonal(data, offset, dim1, dim2)[...] = grad._data
        return output("diagonal_backward", data, (grad,), (offset, dim1, dim2))

    def diagonal(k, grad, offset, dim1, dim2):
        return grad.diagonal(offset, dim1, dim2)

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

    def prod_grad(k, grad, value, result, dim, keepdim):
        """grad · (product / value), the product recorded again from ``value``; with a zero
        in ``value`` the NumPy kit's values (torch's products of the others)."""
        product = value.prod() if dim is None else value.prod(dim, True)
        recorded = k.restore_dims(grad, None if dim is None else (dim,), keepdim) * \
            (product / value)
        if not (value._data == 0).any():
            return recorded
        from ._formula_numpy import NUMPY_KIT

        return k._same_values(recorded, NUMPY_KIT.prod_grad(
            grad._data, value._data, _array(result), dim, keepdim))


# The elementwise functions of one tensor are declared once (_pointwise.unary); formulas call
# them as k.exp, k.sigmoid, ... (on arrays: _formula_numpy.py does the same)
for _name, _unary in UNARY.items():
    setattr(TensorKit, _name, staticmethod(_unary.on_tensors))


TENSOR_KIT = TensorKit()
