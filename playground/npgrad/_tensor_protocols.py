"""Tensor's hooks into Python's protocols that torch defines in Python (``__torch_function__``
and what turns it on, ``as_subclass``, ``in``, iteration, formatting), which _tensor.py takes
as its own; this module imports _tensor.py only when they are called."""

from __future__ import annotations

import numbers


def disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """torch._C._disabled_torch_function_impl: a class's ``__torch_function__`` that runs
    the function plainly (Parameter's: its ops make plain tensors)."""
    from ._torch_function import DisableTorchFunctionSubclass

    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


def init_subclass(cls, **kwargs) -> None:
    """Tensor.__init_subclass__: the fast paths take the subclass's tensors as tensors; one
    with a ``__torch_function__`` of its own (or torch's default, which keeps results in the
    subclass) turns dispatch on (_torch_function.py)."""
    from ._tensor import TENSOR_CLASSES, Tensor

    super(Tensor, cls).__init_subclass__(**kwargs)
    TENSOR_CLASSES.add(cls)
    if cls.__torch_function__ is not disabled_torch_function_impl:
        from ._torch_function import activate

        activate()


def torch_function(cls, func, types, args=(), kwargs=None):
    """torch.Tensor.__torch_function__ (a classmethod)."""
    from ._torch_function import default_torch_function

    return default_torch_function(cls, func, types, args, kwargs)


def as_subclass(self, cls):
    from ._torch_function import as_subclass

    return as_subclass(self, cls)


def contains(self, element) -> bool:
    """``element in tensor``: whether any of its values equals it, as torch's."""
    from ._tensor import Tensor

    if isinstance(element, Tensor | numbers.Number):
        return bool((element == self).any().item())
    raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in "
                       f"a {type(element)}.")


def iterate(self):
    """The rows, as torch gives them: one unbind (its views share one UnbindBackward0)."""
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(self.unbind(0))


def formatted(self, spec: str) -> str:
    """torch formats the values of a 0-d plain tensor only (not a Parameter's)."""
    from ._tensor import PLAIN_CLASSES, Parameter

    if self._data.ndim == 0 and self.__class__ in PLAIN_CLASSES and \
            self.__class__ is not Parameter:
        return self.item().__format__(spec)
    return object.__format__(self, spec)
