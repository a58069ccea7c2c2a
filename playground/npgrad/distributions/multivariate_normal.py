"""``torch.distributions.multivariate_normal``: MultivariateNormal, defined in continuous.py."""

from .continuous import MultivariateNormal

__all__ = ["MultivariateNormal"]
