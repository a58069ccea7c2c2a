"""``torch.finfo`` and ``torch.iinfo`` (a dtype's limits, read from NumPy's) and the
``torch.memory_format`` constants that code passes to clone, contiguous and empty_like."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._dtype import dtype as _dtype
from ._dtype import get_default_dtype


def _short(number) -> str:
    return f"{number:g}"  # (torch prints six significant digits)


class finfo:
    """A floating (or complex) dtype's limits: bits, eps, max, min, tiny (smallest_normal),
    resolution."""
    __module__ = "torch"

    def __init__(self, type: _dtype | None = None) -> None:
        type = get_default_dtype() if type is None else type
        if type.is_complex:  # its parts' limits, as torch gives them
            type = type.to_real()
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        self.dtype = type.name
        if type.name == "bfloat16":  # (float32's exponent, 8 bits of significand)
            self.bits, self.eps, self.resolution = 16, 2.0 ** -7, 0.01
            self.max = float(np.float32(np.uint32(0x7F7F0000).view(np.float32)))
            self.min, self.tiny = -self.max, float(np.finfo(np.float32).smallest_normal)
            self.smallest_normal = self.tiny
            return
        limits = np.finfo(type.numpy)
        self.bits = limits.bits
        self.eps, self.max, self.min = float(limits.eps), float(limits.max), float(limits.min)
        self.tiny = self.smallest_normal = float(limits.smallest_normal)
        self.resolution = 10.0 ** -limits.precision  # (NumPy's is rounded to the dtype)

    def __eq__(self, other) -> bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(self.dtype)

    def __repr__(self) -> str:
        fields = [("resolution", self.resolution), ("min", self.min), ("max", self.max),
                  ("eps", self.eps), ("smallest_normal", self.smallest_normal),
                  ("tiny", self.tiny)]
        shown = ", ".join(f"{name}={_short(value)}" for name, value in fields)
        return f"finfo({shown}, dtype={self.dtype})"


class iinfo:
    """An integer dtype's limits: bits, max, min."""
    __module__ = "torch"

    def __init__(self, type: _dtype) -> None:
        if type.is_floating_point or type.name == "bool":
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        limits = np.iinfo(type.numpy)
        self.bits, self.dtype = limits.bits, type.name
        self.max, self.min = int(limits.max), int(limits.min)

    def __eq__(self, other) -> bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash(self.dtype)

    def __repr__(self) -> str:
        return f"iinfo(min={_short(self.min)}, max={_short(self.max)}, dtype={self.dtype})"


class TorchConstant:
    """A named constant of torch's that code passes along and prints (``torch.strided``,
    ``torch.contiguous_format``): each kind its own class, as torch's types are."""
    __module__ = "torch"

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class memory_format(TorchConstant):
    """How a tensor's elements lie in memory: every tensor here is laid out contiguously,
    so the formats are names that code can pass along."""
    __module__ = "torch"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


@binds("is_complex")
def is_complex(self) -> bool:
    return self._data.dtype.kind == "c"
