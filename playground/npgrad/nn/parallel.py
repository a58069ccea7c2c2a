"""``torch.nn.parallel``: DataParallel on a machine without GPUs (it holds the module as
``module`` and calls it: torch does the same there) and DistributedDataParallel, which needs
the process group a single process lacks (refused in torch's words)."""

from __future__ import annotations

from .. import distributed
from .._missing import missing_attribute
from .modules.module import Module


class DataParallel(Module):
    """``nn.DataParallel(module, device_ids=None, output_device=None, dim=0)``."""

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0):
        super().__init__()
        self.module = module
        self.device_ids = []  # (no GPU here: torch keeps none and calls the module)
        self.dim = dim
        self.output_device = None

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    """``nn.parallel.DistributedDataParallel(module, ...)``: refused without a process group."""

    def __init__(self, module: Module, *args, **kwargs):
        raise ValueError(distributed.NO_GROUP)


__getattr__ = missing_attribute("torch.nn.parallel")
