"""``torch.distributions.kl``: kl_divergence, defined with the others in this package."""

from . import kl_divergence

__all__ = ["kl_divergence"]
