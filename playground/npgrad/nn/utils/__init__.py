"""``torch.nn.utils``: clipping gradients, parameters as one vector and back, skip_init,
parametrize, and packed sequences (rnn)."""

from ..._missing import missing_attribute
from . import parametrize, rnn  # noqa: E402,I001 - after the helpers it uses
from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .init import skip_init

__all__ = ["clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
           "parameters_to_vector", "vector_to_parameters", "skip_init", "parametrize", "rnn"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.nn.utils")
