"""``torch.nn.utils.skip_init``: a module made without drawing its initial weights."""

from __future__ import annotations

import inspect

from ... import _factories
from ..._grad_mode import no_grad
from ..modules import Module


def skip_init(module_cls, *args, **kwargs):
    """The module with its parameters and buffers left uninitialised. torch builds it on the
    meta device and then allocates empty memory, so its random stream is not drawn from: the
    stream is put back as it was, and the values are zeros (torch's are whatever the memory
    held)."""
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    kwargs.pop("device", None)
    stream = _factories.get_rng_state()
    try:
        module = module_cls(*args, **kwargs)
    finally:
        _factories.set_rng_state(stream)
    with no_grad():
        for tensor in [*module.parameters(), *module.buffers()]:
            tensor._data[...] = 0
    return module
