"""torch.utils for tutorial code: data loading (``torch.utils.data``), checkpointing and the
hooks' handles."""

from .._missing import missing_attribute
from . import checkpoint, data, hooks

__all__ = ["checkpoint", "data", "hooks"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.utils")
