# ruff: noqa: N999 - torch's own module name
"""``torch._C``'s few names that Python code reaches for: switching ``__torch_function__``
off (DisableTorchFunctionSubclass) and the implementation that does so."""

from __future__ import annotations

from ._missing import missing_attribute
from ._tensor import _disabled_torch_function_impl
from ._torch_function import DisableTorchFunction, DisableTorchFunctionSubclass

__all__ = ["DisableTorchFunction", "DisableTorchFunctionSubclass",
           "_disabled_torch_function_impl"]
__getattr__ = missing_attribute("torch._C")
