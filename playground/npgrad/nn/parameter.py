"""``torch.nn.parameter``: where torch defines Parameter (scripts import it from here) and
Buffer, a tensor marked to become a module's buffer when assigned to it."""

from .._tensor import Tensor
from .modules import Parameter


class _BufferMeta(type):
    """``isinstance(t, Buffer)``: a tensor made by ``Buffer(...)``, as torch's metaclass says."""

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, Tensor) and bool(instance.__dict__.get("_is_buffer"))


class Buffer(metaclass=_BufferMeta):
    """``nn.Buffer(data, persistent=True)``: data detached (a plain Tensor), which a Module
    registers as a buffer when it is assigned as an attribute."""

    def __new__(cls, data=None, *, persistent: bool = True):
        from .._factories import empty

        tensor = (data if data is not None else empty(0)).detach()
        tensor.requires_grad_(data.requires_grad if data is not None else False)
        tensor.__dict__["persistent"] = persistent
        tensor.__dict__["_is_buffer"] = True
        return tensor


__all__ = ["Parameter", "Buffer"]
