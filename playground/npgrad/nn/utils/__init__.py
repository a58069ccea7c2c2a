"""``torch.nn.utils``: clipping gradients, parameters as one vector and back, skip_init,
parametrize and its parametrizations (orthogonal, weight_norm, spectral_norm), prune, fusion
(a layer and its BatchNorm as one), the older
hook-based weight_norm and spectral_norm, packed sequences (rnn) and the deprecated stateless."""

from ..._missing import missing_attribute
from . import fusion, parametrizations, parametrize, prune, rnn, stateless  # noqa: E402,I001 - after the helpers it uses
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .hooked_norms import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm
from .init import skip_init

__all__ = [
    "clip_grad_norm", "clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_",
    "get_total_norm", "parameters_to_vector", "vector_to_parameters", "skip_init", "parametrize",
    "parametrizations", "prune", "rnn", "weight_norm", "remove_weight_norm", "spectral_norm",
    "remove_spectral_norm", "stateless", "fusion", "fuse_conv_bn_eval", "fuse_conv_bn_weights",
    "fuse_linear_bn_eval", "fuse_linear_bn_weights",
]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.nn.utils")
