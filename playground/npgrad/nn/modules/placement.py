"""Where a module's parameters live: a layer given ``device='meta'`` builds them as shapes
only (no values, no random draws), and ``Module.to_empty`` gives them memory again."""

from __future__ import annotations

import functools

import numpy as np

from ..._device import device as device_type
from ..._device import is_meta, usable
from ..._meta import NoValues

_ENGINE = "playground.npgrad"


def build_on_given_device(cls: type) -> None:
    """Wrap the constructor of an engine layer that takes ``device=`` so that its factories
    make the parameters there (the meta device: inside ``with torch.device('meta')``)."""
    init = cls.__dict__.get("__init__")
    if init is None or not init.__module__.startswith(_ENGINE):
        return
    code = init.__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    if "device" not in names:
        return
    position = names.index("device") - 1  # (after self)

    @functools.wraps(init)
    def placed_init(self, *args, **kwargs):
        spec = args[position] if position < len(args) else kwargs.get("device")
        if spec is None or not is_meta(spec):
            return init(self, *args, **kwargs)
        with device_type(spec):
            return init(self, *args, **kwargs)

    cls.__init__ = placed_init


def to_empty(module, *, device, recurse: bool = True):
    """``module.to_empty(device=...)``: every parameter and buffer (and gradient) replaced by
    uninitialised memory of its shape and dtype on ``device`` (torch's empty_like), so that a
    model built on the meta device can be filled by reset_parameters or a state dict."""
    meta = usable(device).type == "meta"
    tensors = [*module.parameters(recurse=recurse), *module.buffers(recurse=recurse)]
    tensors += [tensor.grad for tensor in tensors if tensor.grad is not None]
    for tensor in tensors:
        shape, dtype = tensor._data.shape, tensor._data.dtype
        tensor._data = NoValues(shape, dtype) if meta else np.empty(shape, dtype)
    return module
