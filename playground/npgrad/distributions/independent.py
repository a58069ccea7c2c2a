"""``torch.distributions.independent``: Independent, defined in continuous.py."""

from .continuous import Independent

__all__ = ["Independent"]
