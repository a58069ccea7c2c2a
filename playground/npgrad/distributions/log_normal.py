"""``torch.distributions.log_normal``: LogNormal, defined in continuous.py."""

from .continuous import LogNormal

__all__ = ["LogNormal"]
