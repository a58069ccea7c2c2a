"""``torch.distributions.laplace``: Laplace, defined in continuous.py."""

from .continuous import Laplace

__all__ = ["Laplace"]
