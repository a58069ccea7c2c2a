"""``torch.distributions.normal``: Normal, defined with the others in this package."""

from . import Normal

__all__ = ["Normal"]
