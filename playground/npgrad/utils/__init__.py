"""torch.utils for tutorial code: data loading (``torch.utils.data``) and checkpointing."""

from .._missing import missing_attribute
from . import checkpoint, data

__all__ = ["checkpoint", "data"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.utils")
