"""``torch.nn``: only the functional namespace exists in the NumPy engine."""

from . import functional

__all__ = ["functional"]
