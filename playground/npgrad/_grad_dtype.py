"""A leaf's ``grad_dtype`` (torch 2.9 on): the dtype its ``.grad`` must have and its
accumulated gradients take (the tensor's own unless set; None lets any in), and torch's
checks, in its words, of a gradient assigned to ``.grad``."""

from __future__ import annotations

import warnings

from . import _dtype as dtypes
from ._bindings import bind_method
from ._dtype_checks import c_type_name
from ._tensor import _NON_LEAF_GRAD_WARNING, Tensor

# A leaf's choice: None where it made none, False for any dtype, or the dtype (read through
# the class default, so that no tensor's __dict__ is made to ask).
Tensor._grad_dtype = None


def wanted_dtype(tensor):
    """The dtype the tensor's gradient must have, or None for any."""
    chosen = tensor._grad_dtype
    if chosen is None:
        return dtypes.from_numpy_dtype(tensor._data.dtype)
    return chosen or None


def _set_grad_dtype(tensor, value) -> None:
    if value is not None and not isinstance(value, dtypes.dtype):
        raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got "
                           f"{type(value).__name__}")
    if not tensor.is_leaf:
        if not tensor.retains_grad and tensor._grad is None:  # (torch reads .grad first)
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    tensor._grad_dtype = False if value is None else value


def check_assigned_grad(tensor, value, tensor_class) -> None:
    """torch's refusals of ``tensor.grad = value``: not a tensor, itself, another dtype than
    its grad_dtype, another size."""
    if not isinstance(value, tensor_class):
        raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                        f"{type(value).__name__}")
    if value is tensor:
        raise RuntimeError("can't assign Variable as its own grad")
    wanted = wanted_dtype(tensor)
    if wanted is not None and value._data.dtype != wanted.numpy:
        raise RuntimeError(
            f"attempting to assign a gradient with dtype '{c_type_name(value._data.dtype)}' "
            f"to a tensor with grad_dtype '{dtypes.scalar_type_name(wanted.numpy)}'. The "
            "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). "
            "You can set the tensor's grad_dtype attribute with a specific dtype, or None to "
            "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
            "and its gradient may break downstream systems that assume they match.")
    if tuple(value.shape) != tuple(tensor.shape):
        raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to "
                           f"a tensor of size '{list(tensor.shape)}'. Please ensure that the "
                           "gradient and the tensor are the same size")


bind_method("grad_dtype", property(wanted_dtype, _set_grad_dtype))
