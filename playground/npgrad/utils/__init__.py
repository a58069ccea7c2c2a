"""torch.utils for tutorial code: the data loading helpers (``torch.utils.data``)."""

from .._missing import missing_attribute
from . import data

__all__ = ["data"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.utils")
