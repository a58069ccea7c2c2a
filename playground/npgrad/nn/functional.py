"""``torch.nn.functional``: the activation and loss functions the engine differentiates."""

from __future__ import annotations

import importlib
import math

import numpy as np

from .. import _complex_refusals, _linalg, _operands, _recording, _reductions
from .._autocast import full_precision, lower_precision
from .._dtype_checks import check_normalization
from .._formula_kit import GELU_BETA, GELU_KAPPA, SQRT_HALF
from .._gelu_bits import gelu_float32
from .._kernel_exp import kernel_exp, row_exp, with_sleef_subnormal_log1p
from .._missing import missing_attribute
from .._moments import layer_norm_float32, reproduces
from .._nodes import legacy_type_name
from .._numerics import erf_values
from .._pointwise import UNARY, sigmoid, tanh
from .._pointwise import relu as _relu
from .._summation_order import whole_sum
from .._tensor import Tensor, bump_version
from .._torch_homes import give_torch_homes
from . import _hooks
from .attention import scaled_dot_product_attention


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype=None) -> Tensor:
    return _reductions.softmax(input, _implicit_dim("softmax", input, dim), dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype=None) -> Tensor:
    return _reductions.log_softmax(input, _implicit_dim("log_softmax", input, dim), dtype)


def _implicit_dim(name: str, input: Tensor, dim: int | None) -> int:
    """torch's deprecated choice when no dim is given: 0 for 0-, 1- and 3-d inputs, else 1."""
    if dim is not None:
        return dim
    _hooks.warn_at_user_code(f"Implicit dimension choice for {name} has been deprecated. "
                             "Change the call to include dim=X as an argument.")
    return 0 if input.ndim in (0, 1, 3) else 1


@full_precision
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or sum, or none) of squared differences, as one MseLossBackward0 node."""
    _check_target_size(input, target)
    a, b = _operands.operands(input, target)
    squared = (a - b) ** 2
    return _recording.output("mse_loss", _pointwise_loss(squared, reduction), (input, target),
                             (input, target, reduction))


def _pointwise_loss(values: np.ndarray, reduction: str) -> np.ndarray:
    """A loss's elements reduced as torch's apply_loss_reduction does (its summing order)."""
    if reduction == "none":
        return values
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    total = whole_sum(values)
    if reduction == "mean":
        return np.asarray(values.mean(dtype=values.dtype) if total is None else
                          total / values.dtype.type(max(values.size, 1)))
    return np.asarray(values.sum(dtype=values.dtype) if total is None else total)


def _check_target_size(input: Tensor, target: Tensor) -> None:
    if tuple(input.shape) != tuple(target.shape):
        _hooks.warn_at_user_code(
            f"Using a target size ({target.size()}) that is different to the input size "
            f"({input.size()}). This will likely lead to incorrect results due to "
            "broadcasting. Please ensure they have the same size.")
        try:  # (torch then broadcasts the two, in these words where they cannot be)
            np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
        except ValueError:
            raise _operands.broadcast_error(tuple(input.shape), tuple(target.shape)) from None


@full_precision
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """|input - target| reduced: torch composes it of ops (MeanBackward0 ← AbsBackward0)."""
    _check_target_size(input, target)
    difference = (input - target).abs()
    if reduction == "none":
        return difference
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return difference.mean() if reduction == "mean" else difference.sum()


@full_precision
def smooth_l1_loss(input: Tensor, target: Tensor, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """0.5 z² / beta where z = |input - target| < beta, else z - 0.5 beta (beta 0: l1_loss)."""
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction)
    a, b = _operands.operands(input, target)
    _check_target_size(input, target)
    z = np.abs(a - b)
    half, limit = z.dtype.type(0.5), z.dtype.type(beta)
    values = np.where(z < limit, half * z * z / limit, z - half * limit).astype(z.dtype)
    return _recording.output("smooth_l1_loss", _pointwise_loss(values, reduction), (input, target),
                             (input, target, reduction, beta))


@full_precision
def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0) -> Tensor:
    """0.5 z² where z = |input - target| < delta, else delta (z - 0.5 delta)."""
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    a, b = _operands.operands(input, target)
    _check_target_size(input, target)
    z = np.abs(a - b)
    half, limit = z.dtype.type(0.5), z.dtype.type(delta)
    values = np.where(z < limit, half * z * z, limit * (z - half * limit)).astype(z.dtype)
    return _recording.output("huber_loss", _pointwise_loss(values, reduction), (input, target),
                             (input, target, reduction, delta))


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return input.relu_() if inplace else _relu(input)


def relu_(input: Tensor) -> Tensor:
    return input.relu_()


def _activated(*args) -> Tensor:
    """more_activations' recorder (in place or not), loaded with it on first use."""
    return _sibling("more_activations")._activated(*args)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    data = input._data
    result = np.where(data > 0, data, data * np.asarray(negative_slope, data.dtype))
    if inplace:
        return _activated("leaky_relu", input, result, (negative_slope,), True)
    return _recording.output("leaky_relu", result, (input,), (input, negative_slope))


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + exp(beta x)) / beta, and x itself where beta x is past the threshold."""
    data = input._data
    scaled = data * np.asarray(beta, data.dtype)
    smooth = np.log1p(np.exp(np.minimum(scaled, threshold))) / np.asarray(beta, data.dtype)
    result = np.where(scaled > threshold, data, smooth).astype(data.dtype, copy=False)
    return _recording.output("softplus", result, (input,), (input, beta, threshold))


def logsigmoid(input: Tensor) -> Tensor:
    """log σ(x) = min(x, 0) - log(1 + e^-|x|); torch's node keeps e^-|x| (its ``buffer``)."""
    buffer, result = _log_sigmoid_values(input._data)
    return _recording.output("log_sigmoid", result, (input,), (input, buffer))


def _log_sigmoid_values(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """e^-|x| and log σ(x) as torch's log_sigmoid kernel computes them."""
    if data.dtype == np.float32:  # torch's loop is all vector code (a partial one at the end)
        buffer = row_exp(-np.abs(data))
        logs = with_sleef_subnormal_log1p(buffer, UNARY["log1p"].on_arrays(buffer))
    else:
        buffer = np.exp(-np.abs(data))
        logs = np.log1p(buffer)
    return buffer, (np.minimum(data, 0) - logs).astype(data.dtype, copy=False)


logsigmoid.__name__ = logsigmoid.__qualname__ = "log_sigmoid"  # (torch's builtin's name)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x Φ(x) with Φ the normal distribution's (erf), or torch's tanh approximation; in the
    input's dtype, as torch's kernel computes it."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    x = input._data
    half = x.dtype.type(0.5)
    if approximate == "tanh":
        inner = (x + x * x * x * x.dtype.type(GELU_KAPPA)) * x.dtype.type(GELU_BETA)
        result = half * x * (1 + np.tanh(inner))
    elif x.dtype == np.float32:  # (torch hands a contiguous one to oneDNN)
        result = gelu_float32(x)
    else:
        result = x * half * (1 + erf_values(x * x.dtype.type(SQRT_HALF)))
    return _recording.output("gelu", result.astype(x.dtype, copy=False), (input,),
                             (input, approximate))


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x), torch's x / (1 + exp(-x)) (its float32 e^-x: _kernel_exp's)."""
    data = input._data
    exps = kernel_exp(-data, data) if data.dtype == np.float32 else np.exp(-data)
    result = (data / (1 + exps)).astype(data.dtype, copy=False)
    if inplace:
        return _activated("silu", input, result, (), True)
    return _recording.output("silu", result, (input,), (input,))


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x where positive, alpha expm1(x) elsewhere (in place: torch's EluBackward1)."""
    if inplace:
        return _sibling("more_activations")._elu(input, "scaled_elu", alpha, 1.0, 1.0, True)
    data = input._data
    negative = UNARY["expm1"].on_arrays(data) * np.asarray(alpha, data.dtype)
    result = np.where(data > 0, data, negative).astype(data.dtype, copy=False)
    return _recording.output("elu", result, (input,), (input, alpha))


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Each row over the last ``normalized_shape`` dims to mean 0 and variance 1 (biased),
    then scaled by ``weight`` and shifted by ``bias``: one NativeLayerNormBackward0 node."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
        tuple(normalized_shape)
    data = input._data
    if tuple(data.shape[data.ndim - len(shape):]) != shape or len(shape) > data.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    check_normalization(input, weight, bias)
    dims = tuple(range(data.ndim - len(shape), data.ndim))
    weights, biases = _operands.data_or_none(weight), _operands.data_or_none(bias)
    if reproduces(data, weights, biases):
        result, mean, rstd = layer_norm_float32(data, math.prod(shape), weights, biases, eps)
        kept = data.shape[:data.ndim - len(shape)] + (1,) * len(shape)
        mean, rstd = mean.reshape(kept), rstd.reshape(kept)
    else:  # (torch's own float64 and scalar code: within its rounding, not its bits)
        wide = data.astype(np.float64)
        mean = wide.mean(axis=dims, keepdims=True)
        variance = ((wide - mean) ** 2).mean(axis=dims, keepdims=True)
        mean, rstd = mean.astype(data.dtype), (1 / np.sqrt(variance + eps)).astype(data.dtype)
        result = (data - mean) * rstd
        if weight is not None:
            result = result * weight._data
        if bias is not None:
            result = result + bias._data
    return _recording.output("layer_norm", result.astype(data.dtype, copy=False),
                             (input, weight, bias), (input, mean, rstd, weight, dims, eps))


def _reduced(losses: np.ndarray, reduction: str, dtype, counted: int | None = None,
             in_torch_order: bool = False) -> tuple[np.ndarray, int]:
    """The loss after ``reduction``, and what the gradient is divided by: for a mean, the
    ``counted`` elements (nll_loss leaves out ignored targets), else all of them. With
    ``in_torch_order`` the elements are added as torch's sum kernel adds them (the BCE losses
    reduce with it; nll_loss's own kernel adds row after row, as NumPy's sum of a column does)."""
    if reduction == "none":
        return losses.astype(dtype, copy=False), 1
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    total = whole_sum(losses) if in_torch_order else None
    total = losses.sum() if total is None else total
    if reduction == "sum":
        return np.asarray(total, dtype=dtype), 1
    count = max(losses.size, 1) if counted is None else counted
    return np.asarray(total / count, dtype=dtype), count


@full_precision
def binary_cross_entropy(input: Tensor, target: Tensor, weight=None,
                         reduction: str = "mean") -> Tensor:
    """-(t log p + (1 - t) log(1 - p)), each log clamped at -100 as torch does, times
    ``weight`` (broadcast to the input) where given."""
    p, t = input._data, target._data
    if p.shape != t.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    if np.any((p < 0) | (p > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    losses = -(t * np.maximum(np.log(p), -100) + (1 - t) * np.maximum(np.log1p(-p), -100))
    scale = _weight_values(weight, p)
    if scale is not None:
        losses = losses * scale
    data, count = _reduced(losses, reduction, p.dtype, in_torch_order=True)
    return _recording.output("binary_cross_entropy", data, (input, target),
                             (input, target, count, scale))


@full_precision
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    """The same on logits, computed stably as torch's kernel: (1 - t) x - log σ(x), the log
    σ(x) weighed by 1 + (pw - 1) t with a ``pos_weight``."""
    x, t = input._data, target._data
    if x.shape != t.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    # torch's kernel: (1 - t) x - log σ(x), log σ(x) times (pw - 1) t + 1 with a pos_weight
    log_sigmoid = _log_sigmoid_values(x)[1]
    positive = _weight_values(pos_weight, x)
    if positive is not None:
        log_sigmoid = log_sigmoid * ((positive - 1) * t + 1)
    losses = (1 - t) * x - log_sigmoid
    scale = _weight_values(weight, x)
    if scale is not None:
        losses = losses * scale
    data, count = _reduced(losses, reduction, x.dtype, in_torch_order=True)
    return _recording.output("binary_cross_entropy_with_logits", data, (input, target),
                             (input, target, count, scale, positive))


def _weight_values(weight, like: np.ndarray) -> np.ndarray | None:
    """A loss's ``weight`` or ``pos_weight`` as an array in the input's dtype (torch takes
    no gradient for either)."""
    if weight is None:
        return None
    values = weight._data if isinstance(weight, Tensor) else np.asarray(weight)
    return values.astype(like.dtype, copy=False)


@lower_precision
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias`` recorded as torch records it: one AddmmBackward0 for a
    batch of rows, wrapped in views for other shapes; without a bias torch's matmul
    (MmBackward0 for two matrices, MvBackward0 for a 1-D weight...)."""
    if bias is None:
        both_matrices = input.ndim == 2 and weight.ndim == 2
        return input.mm(weight.t()) if both_matrices else input.matmul(weight.t())
    if input.ndim == 2:
        return _linalg.addmm(bias, input, weight.t())
    if not input.is_contiguous():  # torch: a product, then += bias
        return input.matmul(weight.t()) + bias
    rows = input.view(-1, input.shape[-1])
    return _linalg.addmm(bias, rows, weight.t()).view(*input.shape[:-1], weight.shape[0])


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at the indices in ``input`` (shape input.shape + (dim,))."""
    indices = input._data if isinstance(input, Tensor) else np.asarray(input)
    if indices.dtype.kind not in "iu":
        kind = legacy_type_name(indices).split(" ")[0].lstrip("[")
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {kind} instead "
                           "(while checking arguments for embedding)")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    flat = indices.reshape(-1).astype(np.int64)
    if max_norm is not None:
        _renormed(weight, flat, float(max_norm), float(norm_type))
    if flat.size and (flat.min() < -weight.shape[0] or flat.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return _recording.output("embedding", weight._data[indices], (weight,),
                             (weight.shape, flat, padding_idx, scale_grad_by_freq, sparse))


def _renormed(weight: Tensor, rows: np.ndarray, max_norm: float, norm_type: float) -> None:
    """torch's embedding_renorm_: each row looked up whose norm passes ``max_norm`` scaled
    back to it (by max_norm / (norm + 1e-7)), in place and unrecorded, before the lookup."""
    data = weight._data
    for row in np.unique(rows):
        if not -len(data) <= row < len(data):
            raise IndexError(f"select(): index {row} out of range for tensor of size "
                             f"{list(data.shape)} at dimension 0")
        norm = float(np.sum(np.abs(data[row].astype(np.float64)) ** norm_type) **
                     (1 / norm_type))
        if norm > max_norm:
            data[row] *= data.dtype.type(max_norm / (norm + 1e-7))
    bump_version(weight)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p), as torch's CPU
    dropout does (``input * noise``, a MulBackward0); the input itself when not training."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0 if not inplace else input.zero_()
    noise = Tensor._make(np.empty_like(input._data)).bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 rows with a 1 at each index (no gradient: indices are not differentiable)."""
    indices = tensor._data
    if indices.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if indices.size and indices.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not indices.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(indices.max()) + 1
    elif indices.size and indices.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((indices[..., None] == np.arange(num_classes)).astype(np.int64))


__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "mse_loss", "linear", "gelu",
           "silu", "elu", "layer_norm", "scaled_dot_product_attention",
           "leaky_relu", "softplus", "logsigmoid",
           "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "one_hot", "embedding", "dropout", "l1_loss",
           "smooth_l1_loss", "huber_loss", "relu_", "leaky_relu_", "elu_"]


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return elu(input, alpha, True)

_lacking = missing_attribute("torch.nn.functional")


# functions of modules that import this one (normalization.py...): looked up at each use
_IN_SIBLINGS = {"normalization": ("batch_norm",),
                "convolution": ("conv2d", "conv_transpose2d", "max_pool2d", "conv1d",
                                "max_pool1d", "conv_transpose1d"),
                "resampling": ("interpolate", "pad", "unfold", "fold"),
                "distances": ("normalize", "cosine_similarity", "kl_div"),
                "pooling": ("avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
                            "adaptive_avg_pool2d")}


def __getattr__(name: str):
    """F.batch_norm comes from normalization.py (which imports this module); anything else
    the engine lacks is said with torch's module name and what to do."""
    for sibling, names in _IN_SIBLINGS.items():
        if name in names:
            return getattr(_sibling(sibling), name)
    for sibling, names in _LAZY.items():
        if name in names:
            found = getattr(_sibling(sibling), name)
            globals()[name] = found  # (the next use finds it here, with no call in between)
            return found
    return _lacking(name)


# functions in modules loaded on first use (start-up stays small), by module
_LAZY = {"more_activations": ("hardtanh", "hardtanh_", "relu6", "selu", "celu", "prelu",
                              "mish", "hardswish", "hardsigmoid", "glu", "threshold",
                              "softshrink", "hardshrink", "softsign", "tanhshrink", "softmin",
                              "dropout1d", "dropout2d", "dropout3d"),
         "older_names": ("upsample", "upsample_nearest", "upsample_bilinear", "selu_", "celu_",
                         "threshold_", "max_pool1d_with_indices", "max_pool2d_with_indices",
                         "max_pool3d_with_indices", "adaptive_max_pool1d_with_indices",
                         "adaptive_max_pool2d_with_indices", "has_torch_function",
                         "has_torch_function_unary", "has_torch_function_variadic"),
         "padding": ("pixel_shuffle", "pixel_unshuffle", "channel_shuffle"),
         "more_normalization": ("instance_norm", "group_norm", "rms_norm",
                                "local_response_norm"),
         "class_losses": ("nll_loss", "cross_entropy"),
         "grid_sampling": ("affine_grid", "grid_sample"),
         "bilinear": ("bilinear",), "ctc": ("ctc_loss",),
         "embedding_bag": ("embedding_bag",),
         "more_losses": ("pairwise_distance", "triplet_margin_loss",
                         "triplet_margin_with_distance_loss", "cosine_embedding_loss",
                         "margin_ranking_loss", "hinge_embedding_loss",
                         "multilabel_soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss"),
         "margin_losses": ("soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss"),
         "noisy": ("alpha_dropout", "feature_alpha_dropout", "rrelu", "rrelu_",
                   "gumbel_softmax"),
         "more_pooling": ("adaptive_max_pool1d", "adaptive_max_pool2d", "lp_pool1d", "lp_pool2d",
                          "lp_pool3d", "pdist", "max_unpool1d", "max_unpool2d"),
         "volumes": ("conv3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d"),
         "fractional_pooling": ("fractional_max_pool2d", "fractional_max_pool3d",
                                "fractional_max_pool2d_with_indices",
                                "fractional_max_pool3d_with_indices"),
         "transposed_volumes": ("conv_transpose3d",),
         "volume_pooling": ("adaptive_max_pool3d", "adaptive_max_pool3d_with_indices",
                            "max_unpool3d")}


_PACKAGE = __name__.rpartition(".")[0]  # (read now: the engine's torch alias renames modules)


def _sibling(name: str):
    """A module beside this one, imported by its full name (a relative import here, run
    under the engine's alias, warned "__package__ != __spec__.parent")."""
    module = importlib.import_module(f"{_PACKAGE}.{name}")
    give_torch_homes(module)  # (its classes print as torch's)
    return module
__all__ += [name for names in _LAZY.values() for name in names]  # (import * loads them too)

# what torch refuses for complex tensors, refused in its words
for _name, _refusal in _complex_refusals.FUNCTIONAL_REFUSALS.items():
    if _name in globals():
        globals()[_name] = _complex_refusals.refusing_complex(_name, globals()[_name],
                                                              _complex_refusals.FUNCTIONAL_REFUSALS)
