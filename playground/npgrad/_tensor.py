"""The Tensor class: a NumPy array plus torch's autograd state (grad, grad_fn, version)."""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from . import _dtype as dtypes
from . import _tensor_protocols as _protocols
from ._bfloat16 import BFloat16Array, settled, values_for_numpy
from ._device import CPU, META, device  # noqa: F401 (torch.device, re-exported)
from ._grad_mode import GradMode
from ._hook_lists import LeafHooks, RemovableHandle
from ._meta import NoValues
from ._nodes import AccumulateGrad, NodeOutput, edge_of
from ._user_warnings import warn_at_user_code
from ._versions import (  # noqa: F401 (the engine's modules import them from here)
    DETACHED_VIEW_MESSAGE,
    INFERENCE_INPLACE_MESSAGE,
    INFERENCE_SAVE_MESSAGE,
    ZERO_VERSION,
    InferenceCounter,
    check_savable,
    counter_value,
    new_counter,
    shared_counter,
    version_of,
)

# The warnings torch gives once in a process (TORCH_WARN_ONCE), once given.
_WARNED = {"scalar": False}

_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"  # torch 2.13's words
)


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 2])``."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))

    def __getitem__(self, item):
        result = tuple.__getitem__(self, item)
        return Size(result) if isinstance(item, slice) else result


# Every tensor class (filled in below, and by Tensor.__init_subclass__).
TENSOR_CLASSES: set[type] = set()
_disabled_torch_function_impl = _protocols.disabled_torch_function_impl


def mark_parameter(tensor: Tensor, kind: type | None = None) -> None:
    tensor.__class__ = kind or Parameter  # (the classes share one layout)


class Tensor:
    """A multi-dimensional array that records the operations applied to it for autograd."""
    __module__ = "torch"  # print(type(x)) shows <class 'torch.Tensor'>, as torch's

    # (``__dict__``: attributes of a user's own, as fastai keeps optimiser state on parameters)
    # (``_fn``: grad_fn as last set; ``_vv``: a view's version then, set with ``_base``)
    __slots__ = ("_data", "_rg", "_fn", "_grad", "_vc", "_base", "_grad_acc", "_hooks",
                 "_vv", "__weakref__", "__dict__")
    _made = 0  # how a view was made, where torch notes it: _no_grad_views.py
    __array_priority__ = 1000  # NumPy defers to our reflected operators in ndarray * tensor

    @staticmethod
    def _make(data: np.ndarray, grad_fn=None, counter: list | None = None) -> Tensor:
        """Wrap an array without copying; ``counter`` is shared with a base tensor for views."""
        tensor = _new(Tensor)
        if data.__class__ is BFloat16Array:  # (the values at rest: rounded, _bfloat16.py)
            settled(data)
        tensor._data = data
        tensor._rg = grad_fn is not None
        tensor._fn = grad_fn
        tensor._grad = None
        if _inference_mode and counter is None:  # a view keeps its base's kind, as in torch
            counter = InferenceCounter(8)
        tensor._vc = counter
        tensor._base = None
        tensor._grad_acc = None
        tensor._hooks = None
        return tensor

    # (torch's Python-level protocols: _tensor_protocols.py)
    __init_subclass__ = _protocols.init_subclass
    __torch_function__ = classmethod(_protocols.torch_function)
    as_subclass = _protocols.as_subclass
    __contains__, __iter__ = _protocols.contains, _protocols.iterate
    __format__ = _protocols.formatted

    def __init__(self, *args, **kwargs) -> None:
        from ._factories import legacy_constructor

        source = legacy_constructor(dtypes.get_default_dtype(), *args, **kwargs)
        for name in ("_data", "_rg", "_fn", "_grad", "_vc", "_base", "_grad_acc", "_hooks"):
            setattr(self, name, getattr(source, name))

    # ----- attributes -------------------------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """The same values, detached from autograd and with its own version counter (an
        inference tensor's ``.data`` is one too)."""
        return Tensor._make(self._data, None, InferenceCounter(8) if self.is_inference() else None)

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data if isinstance(value, Tensor) else np.asarray(value)

    @property
    def requires_grad(self) -> bool:
        if self._base is not None and self._vv != self._vc and not self._made:
            self._rebased()
        return self._rg

    @property
    def grad_fn(self):
        """The node that made it; a view whose base was written since is regenerated as
        torch's as_strided view of the base's history (_recording.rebased_view)."""
        if self._base is not None and self._vv != self._vc:
            return self._rebased()
        return self._fn

    def _rebased(self):
        from ._recording import rebased_view  # (the recording imports this module)

        return rebased_view(self)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None:
            if value:
                return
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if value and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value and not _inference_mode and self.is_inference():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._rg = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if requires_grad and self._data.dtype.kind not in "fc":  # (torch's own words here)
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        fn = self._fn if self._made else self.grad_fn  # (torch reads a no-grad view's as is)
        if fn is not None and not self.retains_grad and self._grad is None:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            from ._grad_dtype import check_assigned_grad

            check_assigned_grad(self, value, Tensor)
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def retains_grad(self) -> bool:
        fn = self._hooked_node()
        return fn is not None and fn._hooks is not None and fn._hooks.retain is not None and (
            fn._hooks.retain() is self)

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> dtypes.dtype:
        data = self._data
        if data.__class__ is BFloat16Array or (data.__class__ is NoValues and data.bfloat16):
            return dtypes.bfloat16
        return dtypes.from_numpy_dtype(data.dtype)

    @property
    def device(self) -> device:
        return META if self._data.__class__ is NoValues else CPU

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:
        return self._data.__class__ is NoValues

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim  # (torch's older name)

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self.dtype.itemsize  # (a bfloat16 tensor's: 2, its float32 values' 4)

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    @property
    def _version(self) -> int:
        if self.is_inference():
            raise RuntimeError("Inference tensors do not track version counter.")
        return version_of(self)

    def is_inference(self) -> bool:
        """Whether this tensor was made under ``inference_mode`` (or is a view of one)."""
        return self._vc.__class__ is InferenceCounter

    @property
    def output_nr(self) -> int:
        """Which output of its grad_fn this tensor is (a custom Function may have several)."""
        node = self._hooked_node()
        return node.index if type(node) is NodeOutput else 0

    # ----- conversion to Python and NumPy ------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._rg and not force and GradMode.enabled:  # (torch allows it under no_grad)
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        if self._data.__class__ is BFloat16Array:  # (torch's words; the views read float32)
            return values_for_numpy(self._data, force)
        return self._data

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def _scalar(self, kind: type):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if kind is not int and self._rg and GradMode.enabled and not _WARNED["scalar"]:
            # torch's float() and complex() warn so, once in a process, where grad mode is on
            _WARNED["scalar"] = True
            warn_at_user_code(  # (at the user's line: float(t), or torch.tensor([t]))
                "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                "behavior.\nConsider using tensor.detach() first. (Triggered internally at "
                "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp"
                ":822.)")
        return kind(self._data.item())

    def __float__(self) -> float:
        return self._scalar(float)

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()).item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from ._printing import tensor_repr

        return tensor_repr(self)

    def __reduce_ex__(self, protocol):
        from ._serialization import reduce_tensor

        return reduce_tensor(self)

    # ----- autograd ----------------------------------------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. the graph leaves (see autograd.backward)."""
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        """Same values and version counter, no history; not a view for autograd (``_base``
        is None, as in torch), so writing into it in place is allowed and changes ``self``."""
        return Tensor._make(self._data, None, shared_counter(self))

    def detach_(self) -> Tensor:
        if self._base is not None:
            raise RuntimeError(DETACHED_VIEW_MESSAGE)
        self._fn = None
        self._rg = False
        self._grad_acc = None  # an output's NodeOutput, or an AccumulateGrad of old
        return self

    def retain_grad(self) -> None:
        if self.grad_fn is None:
            if not self._rg:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        self._hooked_node()._hook_lists().retain = weakref.ref(self)

    def register_hook(self, hook) -> RemovableHandle:
        """``hook(grad)`` runs when this tensor's gradient is computed; may return a new one."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            hooks = self._hooked_node()._hook_lists().tensor_pre
        else:
            if self._hooks is None:
                self._hooks = LeafHooks()
            hooks = self._hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def _hooked_node(self):
        """The node whose pre-hooks see this non-leaf tensor's gradient (None for a leaf)."""
        return None if self.grad_fn is None else edge_of(self)

    def _grad_edge(self):
        """The (node, input_nr) pair an op that uses this tensor points at (the node is a
        NodeOutput for an output of a node with several outputs)."""
        fn = self.grad_fn
        if fn is not None:
            return (edge_of(self), 0)
        if not self._rg:
            return (None, 0)
        accumulator = self._grad_acc() if self._grad_acc is not None else None
        if accumulator is None:
            accumulator = AccumulateGrad(self)
            self._grad_acc = weakref.ref(accumulator)
        return (accumulator, 0)

    def _check_inplace(self) -> None:
        """torch refuses in-place writes to leaves that require grad (and views of them)."""
        if not GradMode.enabled:
            return
        if self._made and self._rg:  # a view made under no_grad (_no_grad_views.py)
            from ._no_grad_views import refused

            raise refused(self, written_itself=True)
        if self.grad_fn is None and self._rg:
            raise RuntimeError("a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
        if self._base is not None and self.grad_fn is not None and \
                self.grad_fn.name() in _SEVERAL_VIEWS:
            raise RuntimeError(
                f"Output {self._grad_acc.index} of {self.grad_fn.name()[:-len('Backward0')]} "
                "is a view and is being modified inplace. This view is the output of a "
                "function that returns multiple views. Such functions do not allow the output "
                "views to be modified inplace. You should replace the inplace operation by an "
                "out-of-place one.")
        base = self._base
        while base is not None:
            if base.grad_fn is None and base._rg:
                raise RuntimeError(
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation."
                )
            base = base._base



class Parameter(Tensor):
    """``nn.Parameter``: ``t`` detached (its values and version counter shared, as torch's),
    requiring grad, registered by a Module it is assigned to; ops on it make plain Tensors."""
    __module__ = "torch.nn.parameter"
    __slots__ = ()  # the layout of Tensor, so that mark_parameter can change a tensor's class
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            from ._factories import empty
            data = empty(0)
        tensor = data.detach()
        if requires_grad and tensor._data.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        tensor.requires_grad_(requires_grad)
        mark_parameter(tensor, cls)
        return tensor

    def __init__(self, *args, **kwargs) -> None:  # (__new__ made it)
        pass


class SparseTensor(Tensor):
    """A sparse COO tensor's class (_sparse.py): a Tensor (``type()`` says ``torch.Tensor``)
    whose arithmetic with numbers and other sparse tensors stays sparse
    (_sparse_arithmetic.py), with no check on a dense tensor's ops."""

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl


SparseTensor.__name__, SparseTensor.__qualname__ = Tensor.__name__, Tensor.__qualname__


# The fast paths test an operand's class by identity: against these, and every subclass
# made since (a user's Parameter or __torch_function__ subclass: Tensor.__init_subclass__).
PLAIN_CLASSES = (Tensor, Parameter, SparseTensor)
TENSOR_CLASSES.update(PLAIN_CLASSES)

_new = object.__new__
# The ops whose outputs are several views of one tensor: torch refuses to write into those.
_SEVERAL_VIEWS = frozenset({"SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0"})


# Whether inference mode is on (_grad_mode's inference_mode sets it): ``_make`` reads it for
# every tensor, and a module global is the cheapest read (a class attribute's: five times).
_inference_mode = False


def set_inference_mode(on: bool) -> bool:
    """Turn inference mode on or off; returns whether it was on."""
    global _inference_mode
    previous, _inference_mode = _inference_mode, bool(on)
    return previous


def inference_mode_on() -> bool:
    return _inference_mode


def bump_version(tensor) -> None:
    """After an in-place write (torch too checks an inference tensor after writing)."""
    if tensor._data.__class__ is BFloat16Array:  # (its values rounded, where they rest)
        settled(tensor._data)
    counter = shared_counter(tensor)
    if counter.__class__ is InferenceCounter and not _inference_mode:
        raise RuntimeError(INFERENCE_INPLACE_MESSAGE)
    place = 0  # (one byte up, carried as far as it must: a third of an int round trip's cost)
    while counter[place] == 255:
        counter[place], place = 0, place + 1
    counter[place] += 1


def _wrap_dim(dim: int, ndim: int) -> int:
    """Check a dimension index like torch and make it non-negative."""
    low, high = (-ndim, ndim - 1) if ndim else (-1, 0)
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
        )
    return dim % ndim if ndim else 0
