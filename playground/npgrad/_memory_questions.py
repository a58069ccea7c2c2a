"""What CPU code asks of a tensor's memory (data loaders, multiprocessing recipes): pinned
(never, as on a machine without an accelerator), shared (after share_memory_)."""

from __future__ import annotations

from ._bindings import binds
from ._tensor import Tensor


@binds("is_pinned", function=False)
def is_pinned(self: Tensor, device=None) -> bool:
    return False


@binds("pin_memory", function=False)
def pin_memory(self: Tensor, device=None) -> Tensor:
    raise RuntimeError("Cannot access accelerator device when none is available.")


@binds("share_memory_", function=False)
def share_memory_(self: Tensor) -> Tensor:
    """Marked shared (this engine's tensors live in one process: nothing moves)."""
    self.__dict__["_shared"] = True
    return self


@binds("is_shared", function=False)
def is_shared(self: Tensor) -> bool:
    return bool(self.__dict__.get("_shared", False))
