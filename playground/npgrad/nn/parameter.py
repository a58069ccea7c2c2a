"""``torch.nn.parameter``: where torch defines Parameter (scripts import it from here)."""

from .modules import Parameter

__all__ = ["Parameter"]
