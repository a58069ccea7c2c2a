"""``torch.distributions.bernoulli``: Bernoulli, defined with the others in this package."""

from . import Bernoulli

__all__ = ["Bernoulli"]
