"""Shapes and views (view, reshape, transpose, squeeze, expand, select, ...), cat and stack.

A view shares its base's values and version counter, as in torch: in-place writes to either
are seen by both, and checked against both."""

from __future__ import annotations

import inspect

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_function, bind_method, binds
from ._deprecations import warn_once
from ._grad_mode import GradMode
from ._memory_formats import is_laid_out
from ._no_grad_views import mark as mark_view
from ._operands import common_shape
from ._pointwise import clone
from ._recording import output, record_several
from ._strides import torch_strides
from ._tensor import Size, Tensor, _wrap_dim, shared_counter
from ._type_info import contiguous_format
from ._view_places import with_torch_step

_make = Tensor._make


def _shape_arg(shape) -> tuple:
    packed = len(shape) == 1 and isinstance(shape[0], tuple | list | Size)
    return tuple(int(s) for s in (shape[0] if packed else shape))


def _infer_shape(shape: tuple, numel: int) -> tuple:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    text = ", ".join(map(str, shape))
    for index, side in enumerate(shape):
        if side < -1:
            raise RuntimeError(f"invalid shape dimension {side} at index {index} of shape [{text}]")
    known = int(np.prod([s for s in shape if s != -1])) if shape else 1
    if -1 in shape and known and not numel % known:
        shape = tuple(numel // known if s == -1 else s for s in shape)
    if -1 in shape or int(np.prod(shape)) != numel:
        raise RuntimeError(f"shape '[{text}]' is invalid for input of size {numel}")
    return shape


# NumPy 2.1 on: np.reshape(copy=False); setting .shape, the older way, is deprecated since 2.5
_RESHAPE_WITHOUT_COPY = "copy" in inspect.signature(np.reshape).parameters
_MESHGRID_INDEXING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument. (Triggered internally at /__w/pytorch/pytorch/aten/"
                      "src/ATen/native/TensorShape.cpp:4215.)")


def _view_data(data: np.ndarray, shape: tuple):
    """A reshape that never copies, or None when the strides don't allow one."""
    if _RESHAPE_WITHOUT_COPY:
        try:
            return np.reshape(data, shape, copy=False)
        except ValueError:
            return None
    result = data.view()
    try:
        result.shape = shape
    except AttributeError:
        return None
    return result


@binds("view", function=False)
def view(self: Tensor, *shape) -> Tensor:
    if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
        return _make(dtypes.bit_view(self._data, shape[0]))
    shape = _infer_shape(_shape_arg(shape), self._data.size)
    data = _view_data(self._data, shape)
    if data is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return output("view", data, (self,), (self._data.shape,), shared_counter(self), self)


@binds("reshape")
def reshape(self: Tensor, *shape) -> Tensor:
    shape = _infer_shape(_shape_arg(shape), self._data.size)
    data = _view_data(self._data, shape)
    if data is not None:  # torch's reshape of a non-contiguous tensor that stays a view
        op = "view" if self._data.flags.c_contiguous else "reshape_alias"
        return output(op, data, (self,), (self._data.shape,), shared_counter(self), self)
    return unsafe_view(clone(self, memory_format=contiguous_format), shape)


def unsafe_view(self: Tensor, shape: tuple) -> Tensor:
    data = self._data.reshape(shape)
    return output("unsafe_view", data, (self,), (self._data.shape,))


@binds("view_as", function=False)
def view_as(self: Tensor, other: Tensor) -> Tensor:
    return view(self, tuple(other.shape))


@binds("reshape_as", function=False)
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return reshape(self, tuple(other.shape))


@binds("unflatten")
def unflatten(self: Tensor, dim: int, sizes) -> Tensor:
    """Dimension ``dim`` split into ``sizes`` (one may be -1): a view."""
    dim = _wrap_dim(dim, self.ndim)
    shape = self._data.shape
    return reshape(self, shape[:dim] + tuple(sizes) + shape[dim + 1:])


@binds("flatten")
def flatten(self: Tensor, start_dim=0, end_dim=-1) -> Tensor:
    ndim = self.ndim
    if ndim == 0:
        return reshape(self, (1,))
    start, end = _wrap_dim(start_dim, ndim), _wrap_dim(end_dim, ndim)
    if start == end:
        return self
    shape = self._data.shape
    middle = int(np.prod(shape[start : end + 1]))
    return reshape(self, shape[:start] + (middle,) + shape[end + 1 :])


@binds("t")
def t(self: Tensor) -> Tensor:
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return output("t", self._data.T, (self,), (), shared_counter(self), self)


@binds("transpose")
@binds("swapaxes", function=False)
def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    ndim = self.ndim
    dim0, dim1 = _wrap_dim(dim0, ndim), _wrap_dim(dim1, ndim)
    data = np.swapaxes(self._data, dim0, dim1)
    return output("transpose", data, (self,), (dim0, dim1), shared_counter(self), self)


@binds("permute")
def permute(self: Tensor, *dims) -> Tensor:
    dims = _shape_arg(dims)
    if len(dims) != self.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {self.ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    dims = tuple(_wrap_dim(d, self.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    data = np.transpose(self._data, dims)
    return output("permute", data, (self,), (dims,), shared_counter(self), self)


def T(self: Tensor) -> Tensor:
    """The dimensions reversed (a permute, as torch's, whatever the dimension); torch's
    deprecation warnings for any but a matrix."""
    if self.ndim != 2:
        warn_once("Tensor.T on 0-D" if self.ndim == 0 else "Tensor.T not on 2-D")
    return permute(self, *reversed(range(self.ndim)))


def mT(self: Tensor) -> Tensor:
    return transpose(self, -2, -1)


def H(self: Tensor) -> Tensor:
    """The conjugate transpose of a matrix."""
    if self.ndim != 2:
        raise RuntimeError("tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{self.ndim}-D tensor.{_BATCHES if self.ndim > 2 else ''}")
    return transpose(self, 0, 1).conj()


def mH(self: Tensor) -> Tensor:
    """The conjugate transpose of each matrix."""
    return transpose(self, -2, -1).conj()


_BATCHES = " For batches of matrices, consider using tensor.mH"
bind_method("T", property(T))
binds("adjoint")(mH)
bind_method("mT", property(mT))
bind_method("mH", property(mH))
bind_method("H", property(H))


def squeeze_to(self: Tensor, shape: tuple, op: str) -> Tensor:
    data = self._data.reshape(tuple(shape))
    return output(op, data, (self,), (self._data.shape,), shared_counter(self), self)


@binds("squeeze")
def squeeze(self: Tensor, dim=None) -> Tensor:
    shape = self._data.shape
    if dim is None:
        return squeeze_to(self, tuple(s for s in shape if s != 1), "squeeze")
    if isinstance(dim, tuple | list):
        dims = {_wrap_dim(d, self.ndim) for d in dim}
        kept = tuple(s for i, s in enumerate(shape) if not (i in dims and s == 1))
        return squeeze_to(self, kept, "squeeze_dims")
    dim = _wrap_dim(dim, self.ndim)
    kept = tuple(s for i, s in enumerate(shape) if not (i == dim and s == 1))
    return squeeze_to(self, kept, "squeeze_dim")


@binds("unsqueeze")
def unsqueeze(self: Tensor, dim: int) -> Tensor:
    dim = _wrap_dim(dim, self.ndim + 1)
    data = with_torch_step(np.expand_dims(self._data, dim), dim)
    return output("unsqueeze", data, (self,), (dim,), shared_counter(self), self)


@binds("expand", function=False)
def expand(self: Tensor, *sizes) -> Tensor:
    sizes = _shape_arg(sizes)
    shape = self._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{[{', '.join(map(str, shape))}]}}, "
            f"size=[{', '.join(map(str, sizes))}]): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor "
            f"({len(shape)})"
        )
    data = np.broadcast_to(self._data, expanded_shape(shape, sizes))
    return output("expand", data, (self,), (shape,), shared_counter(self), self)


def expanded_shape(shape: tuple, sizes) -> tuple:
    """The shape ``shape`` expands to for ``sizes`` (-1: kept), or torch's refusal (of the
    last dimension that does not fit: torch checks them from the last)."""
    offset = len(sizes) - len(shape)
    target = []
    for i, size in reversed(list(enumerate(sizes))):
        existing = shape[i - offset] if i >= offset else 1
        if size == -1:
            size = existing
        elif existing != 1 and existing != size:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size "
                f"({existing}) at non-singleton dimension {i}.  Target sizes: "
                f"[{', '.join(map(str, sizes))}].  Tensor sizes: [{', '.join(map(str, shape))}]"
            )
        target.append(size)
    return tuple(reversed(target))


@binds("expand_as", function=False)
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return expand(self, tuple(other.shape))


def broadcast_tensors(*tensors) -> tuple:
    """Each tensor expanded to their common shape (one already of it: itself, as torch's)."""
    shape = common_shape(*(tuple(t.shape) for t in tensors))
    return tuple(t if tuple(t.shape) == shape else expand(t, shape) for t in tensors)


bind_function("broadcast_tensors", broadcast_tensors)


@binds("contiguous", function=False)
def contiguous(self: Tensor, memory_format=contiguous_format) -> Tensor:
    """``self`` when already laid out so, else a copy that is (CloneBackward0)."""
    if is_laid_out(self._data, memory_format):
        return self
    return clone(self, memory_format=memory_format)


@binds("is_contiguous", function=False)
def is_contiguous(self: Tensor, memory_format=contiguous_format) -> bool:
    return is_laid_out(self._data, memory_format)


@binds("stride", function=False)
def stride(self: Tensor, dim: int | None = None):
    """Steps between neighbours along each dimension, in elements (a view's are its own)."""
    steps = torch_strides(self._data)
    return steps if dim is None else steps[_wrap_dim(dim, self._data.ndim)]


@binds("select")
def select(self: Tensor, dim: int, index: int) -> Tensor:
    if not self.ndim:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, self.ndim)
    size = self._data.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self.shape)} at dimension {dim}")
    index = index % size
    data = self._data[(slice(None),) * dim + (index,)]
    saved = (self._data.shape, dim, index)
    return output("select", data, (self,), saved, shared_counter(self), self)


def sliced(self: Tensor, dim: int, start: int, end: int, step: int) -> Tensor:
    data = self._data[(slice(None),) * dim + (slice(start, end, step),)]
    return output("slice", data, (self,), (self._data.shape, dim, start, end, step),
                   shared_counter(self), self)


@binds("flip", function=False)
def flip(self: Tensor, *dims) -> Tensor:
    """``x.flip(0, 1)``, ``x.flip([0, 1])`` and ``torch.flip(x, dims)``: a copy, as in torch."""
    if len(dims) == 1 and isinstance(dims[0], list | tuple):
        dims = tuple(dims[0])
    axes = tuple(_wrap_dim(d, self.ndim) for d in dims) if self.ndim else ()
    return output("flip", np.flip(self._data, axes).copy(), (self,), (axes,))


bind_function("flip", lambda input, dims: flip(input, dims))


def _triangle(function):
    """tril and triu: the lower or upper triangle of the last two dimensions."""
    op = function.__name__

    def apply(self: Tensor, diagonal: int = 0) -> Tensor:
        if self.ndim < 2:
            raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")
        return output(op, function(self._data, diagonal), (self,), (diagonal,))

    apply.__name__ = op
    return binds(op)(apply)


tril = _triangle(np.tril)
triu = _triangle(np.triu)


@binds("roll")
def roll(self: Tensor, shifts, dims=None) -> Tensor:
    """Elements shifted along ``dims`` (the flattened tensor without), wrapping round."""
    if dims is not None:
        dims = tuple(_wrap_dim(d, self.ndim) for d in (dims if isinstance(dims, list | tuple)
                                                        else (dims,)))
    shifts = tuple(shifts) if isinstance(shifts, list | tuple) else shifts
    data = np.roll(self._data, shifts, axis=dims)
    return output("roll", np.asarray(data), (self,), (shifts, dims))


@binds("repeat", function=False)
def repeat(self: Tensor, *sizes) -> Tensor:
    if len(sizes) == 1 and isinstance(sizes[0], list | tuple):
        sizes = tuple(sizes[0])
    if len(sizes) < self.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return output("repeat", np.tile(self._data, sizes), (self,), (self.shape, tuple(sizes)))


@binds("cat", "concat", method=False)
def cat(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    reference = next((t for t in tensors if t.ndim > 0), tensors[0])
    dim = _wrap_dim(dim, reference.ndim)
    for number, tensor in enumerate(tensors):
        if tensor.ndim == 1 and tensor.shape[0] == 0 and reference.ndim > 1:
            continue
        for d in range(reference.ndim):
            if d != dim and tensor.shape[d] != reference.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{reference.shape[d]} but got size {tensor.shape[d]} for tensor number "
                    f"{number} in the list."
                )
    data = np.concatenate(_promoted(tensors), axis=dim)
    sizes = tuple(t.shape[dim] if t.ndim > dim else 0 for t in tensors)
    offsets = tuple(int(o) for o in np.cumsum((0,) + sizes[:-1]))
    return output("cat", data, tuple(tensors), (dim, offsets, sizes))


@binds("stack", method=False)
def stack(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for number, tensor in enumerate(tensors):
        if tensor.shape != first:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, first))}] at entry 0 and "
                f"[{', '.join(map(str, tensor.shape))}] at entry {number}"
            )
    dim = _wrap_dim(dim, len(first) + 1)
    data = np.stack(_promoted(tensors), axis=dim)
    return output("stack", data, tuple(tensors), (dim,))


def _promoted(tensors: list[Tensor]) -> list[np.ndarray]:
    """The tensors' values in the dtype they promote to together."""
    target = tensors[0].dtype
    for tensor in tensors[1:]:
        target = dtypes.promote_types(target, tensor.dtype)
    return [dtypes.values_as(t._data, target, copy=False) for t in tensors]


@binds("meshgrid", method=False)
def meshgrid(*tensors, indexing: str | None = None) -> tuple[Tensor, ...]:
    """torch.meshgrid: each 0-d or 1-d tensor viewed along its own axis and expanded to the
    grid (ExpandBackward0 over ViewBackward0, as torch records it); "xy" swaps the first two."""
    if len(tensors) == 1 and isinstance(tensors[0], list | tuple):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings

        warnings.warn(_MESHGRID_INDEXING, UserWarning, stacklevel=2)  # (at each call)
        indexing = "ij"
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for tensor in tensors:
        if tensor.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: {tensor}")
        if tensor.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    order = list(tensors)
    swap = indexing == "xy" and len(order) >= 2
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = tuple(max(t._data.size, 1) if t.ndim else 1 for t in order)
    grids = []
    for axis, tensor in enumerate(order):
        along = [1] * len(order)
        along[axis] = -1
        grids.append(expand(view(tensor, *along), *shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@binds("split")
def split(self: Tensor, split_size_or_sections, dim: int = 0) -> tuple[Tensor, ...]:
    """Views of consecutive pieces along ``dim``: each ``split_size`` long (the last maybe
    shorter), or of the sizes listed."""
    dim = _wrap_dim(dim, self.ndim)
    length = self.shape[dim]
    if isinstance(split_size_or_sections, list | tuple):
        sizes = tuple(int(size) for size in split_size_or_sections)
        if sum(sizes) != length or any(size < 0 for size in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {length} (input "
                f"tensor's size at dimension {dim}), but got split_sizes={list(sizes)}")
        return _pieces(self, sizes, dim, "split_with_sizes")
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and length != 0:
        raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {length}")
    count = max(-(-length // size), 1) if size else 1
    sizes = tuple(min(size, length - number * size) for number in range(count))
    return _pieces(self, sizes, dim, "split")


@binds("chunk")
def chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``split`` into ``chunks`` pieces of ceil(length / chunks) (fewer when they run out)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = self.shape[_wrap_dim(dim, self.ndim)]
    return split(self, -(-length // chunks), dim)


def _pieces(self: Tensor, sizes: tuple[int, ...], dim: int, op: str) -> tuple[Tensor, ...]:
    """Consecutive pieces of ``sizes`` along ``dim`` (split, chunk)."""
    ends = np.cumsum(sizes).tolist()
    cuts = [slice(end - size, end) for size, end in zip(sizes, ends, strict=True)]
    return views_along(self, cuts, dim, op, (self._data.shape, dim, sizes))


def views_along(self: Tensor, items: list, dim: int, op: str, saved: tuple) -> tuple[Tensor, ...]:
    """``self[..., item, ...]`` at ``dim`` for each item, views sharing its version counter;
    recorded as one node with an output per view, as torch records it."""
    counter = shared_counter(self)
    views = []
    for item in items:
        view = Tensor._make(self._data[(slice(None),) * dim + (item,)], None, counter)
        view._base = self if self._base is None else self._base
        view._vv = bytes(counter)
        if not GradMode.enabled or self._made:
            mark_view(view, self, GradMode.enabled)
        views.append(view)
    record_several(op, views, (self,), saved)
    return tuple(views)
