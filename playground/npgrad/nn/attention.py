"""``torch.nn.attention``: which kernels scaled_dot_product_attention may use (``sdpa_kernel``,
``SDPBackend``), and the attention itself as torch computes it on the CPU: its fused kernel's
one node, or its math op by op."""

from __future__ import annotations

import contextlib
import enum
import math

import numpy as np

from .. import _recording, _reductions
from .._arithmetic import mul_scalar
from .._autocast import lower_precision
from .._dtype import bfloat16, float16, float32, values_as
from .._formula_kit import attention_probabilities, heads_for
from .._missing import missing_attribute
from .._tensor import Tensor

NO_BACKEND = ("No viable backend for scaled_dot_product_attention was found. This is likely "
              "due to turning off both the math kernel and the fused kernels.")
# (torch's own message stops there)
GQA_HEADS = "Number of heads in key and value must divide the number of heads in "


class SDPBackend(enum.Enum):
    """The kernels torch's scaled_dot_product_attention chooses among."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4

    def __int__(self) -> int:
        return self.value


_SWITCHED = (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION,
             SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH, SDPBackend.OVERRIDEABLE)
_enabled = set(_SWITCHED)  # (torch's global flags, shared with torch.backends.cuda's)


def enabled(backend: SDPBackend) -> bool:
    return backend in _enabled


def enable(backend: SDPBackend, on: bool) -> None:
    (_enabled.add if on else _enabled.discard)(backend)


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Inside the block scaled_dot_product_attention uses only ``backends`` (one, or a list);
    on the CPU that is the fused (flash) kernel or the math."""
    if not isinstance(backends, list | SDPBackend):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend "
                             f"instances, got {type(backends).__name__}")
    chosen = [backends] if isinstance(backends, SDPBackend) else list(backends)
    previous = set(_enabled)
    _enabled.clear()
    _enabled.update(backend for backend in _SWITCHED if backend in chosen)
    try:
        yield {}
    finally:
        _enabled.clear()
        _enabled.update(previous)


@lower_precision
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(q kᵀ scale + mask) v, with dropout on the softmax. As torch on the CPU: for
    4-d inputs (batch, heads, length, features) with one feature size and no dropout its fused
    kernel's one node, unless sdpa_kernel allows only the math; otherwise its math, op by op
    (dropout as F.dropout draws it). With ``enable_gqa`` a key and value head serves a group
    of query heads."""
    _check_heads(query, key, value, enable_gqa)
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    fused = query.ndim == key.ndim == value.ndim == 4 and query.dtype.is_floating_point and \
        query.shape[-1] == key.shape[-1] == value.shape[-1] and dropout_p == 0 and \
        enabled(SDPBackend.FLASH_ATTENTION)
    if fused:
        mask = _additive_mask(attn_mask, is_causal, query, key)
        values = attention_probabilities(query._data, key._data, mask, scale) @ \
            heads_for(value._data, query.shape[-3])
        laid_out = np.empty_like(query._data)  # torch's kernel lays its output out as the
        laid_out[...] = values                  # query (a later permute may then be a view)
        return _recording.output("attention", laid_out, (query, key, value),
                                 (query, key, value, mask, scale))
    if not enabled(SDPBackend.MATH):
        raise RuntimeError(NO_BACKEND)
    return _math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa) -> Tensor:
    """torch's _scaled_dot_product_attention_math: q and k each scaled by √scale, the mask
    added, a safe softmax, dropout, then the values (half and bfloat16 ones in float32,
    converted back: its ToCopyBackward0 last)."""
    if query.dtype in (bfloat16, float16):
        return _math(*(t.to(float32) for t in (query, key, value)), attn_mask, dropout_p,
                     is_causal, scale, enable_gqa).to(query.dtype)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    if enable_gqa:  # (repeat_interleave over the heads, as torch's math does it)
        key, value = (_repeated_heads(tensor, query.shape[-3]) for tensor in (key, value))
    root = math.sqrt(scale)
    scores = mul_scalar(query, root) @ mul_scalar(key.transpose(-2, -1), root)
    mask = _additive_mask(attn_mask, is_causal, query, key)
    if mask is not None:
        scores = scores + Tensor._make(values_as(mask, scores.dtype, copy=False))
    weights = _reductions.safe_softmax(scores, -1)
    if dropout_p > 0:
        from .functional import dropout

        weights = dropout(weights, dropout_p)
    return weights @ value


def _check_heads(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> None:
    """Query, key and value heads (dim -3) as torch checks them: equal, or with
    ``enable_gqa`` the query's a multiple of the key's and value's."""
    if query.ndim < 3 or key.ndim < 3 or value.ndim < 3:
        return
    heads = query.shape[-3]
    for other in (key, value):
        if other.shape[-3] == heads:
            continue
        if enable_gqa and heads % other.shape[-3] == 0:
            continue
        if enable_gqa:
            raise RuntimeError(GQA_HEADS)
        raise RuntimeError(f"The size of tensor a ({heads}) must match the size of tensor b "
                           f"({other.shape[-3]}) at non-singleton dimension {query.ndim - 3}")


def _repeated_heads(tensor: Tensor, heads: int) -> Tensor:
    """repeat_interleave over dim -3 as torch's composite does it: unsqueeze, expand, clone,
    then a view that merges the two dims."""
    groups = heads // tensor.shape[-3]
    if groups == 1:
        return tensor
    shape = tuple(tensor.shape)
    spread = tensor.unsqueeze(-3).expand(*shape[:-2], groups, *shape[-2:]).clone()
    return spread.view(*shape[:-3], heads, *shape[-2:])


def _additive_mask(attn_mask: Tensor | None, is_causal: bool, query: Tensor,
                   key: Tensor) -> np.ndarray | None:
    """The mask as what is added to the scores: 0 where a key takes part, -inf where it
    does not (a bool mask's False, above the diagonal when causal); a float mask as it is."""
    length, keys = query.shape[-2], key.shape[-2]
    mask = None
    if attn_mask is not None:
        data = attn_mask._data
        mask = np.where(data, 0.0, -np.inf) if data.dtype == np.bool_ else data
    if is_causal:
        causal = np.where(np.tril(np.ones((length, keys), dtype=bool)), 0.0, -np.inf)
        mask = causal if mask is None else mask + causal
    return None if mask is None else mask.astype(query._data.dtype, copy=False)


__all__ = ["SDPBackend", "sdpa_kernel"]

__getattr__ = missing_attribute("torch.nn.attention")
