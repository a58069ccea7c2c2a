"""``torch.distributions.distribution``: Distribution, defined with the others in this package."""

from . import Distribution

__all__ = ["Distribution"]
