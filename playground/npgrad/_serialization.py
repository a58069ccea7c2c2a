"""torch.save and torch.load for the NumPy engine: any picklable object holding tensors
(state dicts, checkpoints) to a path or a file-like object and back. The files are this
engine's own (pickled arrays), not torch's zip format."""

from __future__ import annotations

import copyreg
import io
import os
import pickle

import numpy as np

from ._bfloat16 import BFloat16Array, marked_bfloat16, plain
from ._selection import byte_offset, owning_array
from ._tensor import Parameter, Tensor, mark_parameter

# what weights_only=True lets a file rebuild besides the containers and numbers
_SAFE = {("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"),
         ("builtins", "slice"), ("builtins", "complex"), ("numpy", "dtype"),
         ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
         ("numpy", "ndarray"), ("numpy.core.multiarray", "scalar"),
         ("numpy._core.multiarray", "scalar"), ("_codecs", "encode"), (__name__, "_rebuild"),
         (__name__, "_rebuild_view")}


def _rebuild(values: np.ndarray, requires_grad: bool, parameter: bool,
             bfloat16: bool = False) -> Tensor:
    tensor = Tensor._make(marked_bfloat16(values) if bfloat16 else values)
    if requires_grad:
        tensor.requires_grad_(True)
    if parameter:
        mark_parameter(tensor)
    return tensor


def _rebuild_view(owner: np.ndarray, offset: int, dtype: np.dtype, shape: tuple,
                  strides: tuple, requires_grad: bool, parameter: bool,
                  bfloat16: bool = False) -> Tensor:
    """A view of a tensor's storage, as it was pickled."""
    values = np.ndarray(shape, dtype, buffer=owner, offset=offset, strides=strides)
    return _rebuild(values, requires_grad, parameter, bfloat16)


def reduce_tensor(tensor: Tensor, share_storage: bool = False):
    """How pickle writes a tensor: its storage with the view's place in it (its strides
    kept), requires_grad and whether a Parameter; not its graph nor its grad (a non-leaf
    comes back a leaf, as in torch). Plain pickle writes each tensor's storage apart, as
    torch's does; ``save`` with ``share_storage`` writes a storage once for all its views,
    so they share it again when loaded."""
    data, parameter = tensor._data, tensor.__class__ is Parameter
    bfloat16 = data.__class__ is BFloat16Array  # (written as its float32 values, and marked)
    data = plain(data)
    owner = plain(owning_array(data))
    if owner is data:  # (a copy apart: two tensors on one array come back apart)
        return _rebuild, (data if share_storage else data.copy(), tensor.requires_grad,
                          parameter, bfloat16)
    if owner.flags.c_contiguous and data.itemsize and min(data.strides, default=0) >= 0:
        return _rebuild_view, (owner if share_storage else owner.copy(),
                               byte_offset(data, owner), data.dtype, data.shape, data.strides,
                               tensor.requires_grad, parameter, bfloat16)
    return _rebuild, (np.array(data), tensor.requires_grad, parameter, bfloat16)


def _reduce_sharing(tensor: Tensor):
    return reduce_tensor(tensor, share_storage=True)


def _engine_class(home: str, qualname: str) -> type:
    """A class of the engine, found where it is defined (its printed path is torch's)."""
    import importlib

    found = importlib.import_module(home)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


class _Pickler(pickle.Pickler):
    """Tensors as their values; the engine's classes by the engine's own module path."""

    def reducer_override(self, obj):
        if isinstance(obj, type) and "_engine_home" in obj.__dict__:
            return _engine_class, (obj._engine_home, obj.__qualname__)
        return NotImplemented


def save(obj, f, pickle_module=pickle, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True, _disable_byteorder_record: bool = False):
    """Pickle ``obj`` (tensors as their values, requires_grad and whether a Parameter) to
    ``f``, a path or a file opened for binary writing."""
    if isinstance(f, str | os.PathLike):
        with open(f, "wb") as opened:
            return save(obj, opened, pickle_module, pickle_protocol)
    pickler = _Pickler(f, protocol=pickle_protocol)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table[Tensor] = pickler.dispatch_table[Parameter] = _reduce_sharing
    pickler.dump(obj)
    return None


class _WeightsOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in _SAFE:
            raise pickle.UnpicklingError(
                "Weights only load failed. This file can still be loaded, to do so you have "
                "two options, do those steps only if you trust the source of the checkpoint. "
                "\n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` "
                "argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
                "`weights_only` set to `False` will likely succeed, but it can result in "
                "arbitrary code execution. Do it only if you got the file from a trusted "
                "source.\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler "
                f"error: Unsupported global: GLOBAL {module}.{name}")
        return super().find_class(module, name)


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None,
         mmap=None, **pickle_load_args):
    """What ``save`` wrote; with weights_only (torch's default) only tensors, numbers and
    containers are rebuilt."""
    if isinstance(f, str | os.PathLike):
        with open(f, "rb") as opened:
            return load(opened, map_location, weights_only=weights_only)
    if isinstance(f, bytes):
        f = io.BytesIO(f)
    unpickler = pickle.Unpickler(f) if weights_only is False else _WeightsOnly(f)
    return unpickler.load()
