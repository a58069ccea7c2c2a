"""``torch.distributions.categorical``: Categorical, defined with the others in this package."""

from . import Categorical

__all__ = ["Categorical"]
