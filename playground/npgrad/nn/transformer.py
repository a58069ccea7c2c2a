"""Attention layers: nn.MultiheadAttention (torch's multi_head_attention_forward, op by op)
and nn.TransformerEncoderLayer/TransformerEncoder built on it."""

from __future__ import annotations

import copy
import math

from .. import _factories
from .._missing import MISSING_HINT
from .._tensor import Tensor
from . import functional, init
from .containers import ModuleList
from .modules import Dropout, Linear, Module, Parameter, _empty
from .normalization import LayerNorm


class NonDynamicallyQuantizableLinear(Linear):
    """The output projection's class in torch (a Linear, named apart)."""


def _canonical_mask(mask: Tensor | None, dtype) -> Tensor | None:
    """A bool mask as an additive one: -inf where True, as torch's _canonical_mask."""
    if mask is None or mask.dtype.is_floating_point:
        return mask
    return _factories.zeros_like(mask, dtype=dtype).masked_fill_(mask, float("-inf"))


def _projected(query: Tensor, key: Tensor, value: Tensor, weight: Tensor, bias) -> tuple:
    """torch's _in_projection_packed: one linear for self-attention (unflattened into three),
    one for the query and one for key and value when those are the same tensor."""
    size = query.shape[-1]
    if key is value and query is key:
        packed = _separated(functional.linear(query, weight, bias), 3, size)
        return packed[0], packed[1], packed[2]
    if key is value:
        w_q, w_kv = weight.split([size, size * 2])
        b_q, b_kv = (None, None) if bias is None else bias.split([size, size * 2])
        pair = _separated(functional.linear(key, w_kv, b_kv), 2, size)
        return functional.linear(query, w_q, b_q), pair[0], pair[1]
    w_q, w_k, w_v = weight.chunk(3)
    b_q, b_k, b_v = (None, None, None) if bias is None else bias.chunk(3)
    return (functional.linear(query, w_q, b_q), functional.linear(key, w_k, b_k),
            functional.linear(value, w_v, b_v))


def _separated(projection: Tensor, parts: int, size: int) -> Tensor:
    """A packed projection's ``parts`` side by side, as torch lays them out: indexed first."""
    return projection.unflatten(-1, (parts, size)).unsqueeze(0).transpose(0, -2).squeeze(-2) \
        .contiguous()


def multi_head_attention_forward(query, key, value, num_heads: int, in_proj_weight, in_proj_bias,
                                 out_proj_weight, out_proj_bias, dropout_p: float, training: bool,
                                 key_padding_mask=None, need_weights: bool = True,
                                 attn_mask=None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple:
    """Attention over (L, N, E) inputs ((L, E) unbatched), as torch's functional computes it."""
    batched = query.dim() == 3
    if not batched:  # (each on its own: the projections are then three, as in torch)
        query, key, value = (t.unsqueeze(1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    target, batch, embed = query.shape
    source = key.shape[0]
    head = embed // num_heads
    if head * num_heads != embed:
        raise AssertionError(f"embed_dim {embed} not divisible by num_heads {num_heads}")
    key_padding_mask = _canonical_mask(key_padding_mask, query.dtype)
    attn_mask = _canonical_mask(attn_mask, query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the fused kernel makes the causal mask itself
    else:
        is_causal = False
    q, k, v = _projected(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None and attn_mask.dim() == 2:
        attn_mask = attn_mask.unsqueeze(0)
    q = q.view(target, batch * num_heads, head).transpose(0, 1)
    k = k.view(source, batch * num_heads, head).transpose(0, 1)
    v = v.view(source, batch * num_heads, head).transpose(0, 1)
    if key_padding_mask is not None:
        padding = key_padding_mask.view(batch, 1, 1, source).expand(-1, num_heads, -1, -1) \
            .reshape(batch * num_heads, 1, source)
        attn_mask = padding if attn_mask is None else attn_mask + padding
    dropout_p = dropout_p if training else 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head))
        weights = q_scaled.bmm(k.transpose(-2, -1)) if attn_mask is None else \
            attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        weights = functional.softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = functional.dropout(weights, p=dropout_p)
        output = weights.bmm(v).transpose(0, 1).reshape(target * batch, embed)
        output = functional.linear(output, out_proj_weight, out_proj_bias)
        output = output.view(target, batch, output.shape[1])
        weights = weights.view(batch, num_heads, target, source)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            output, weights = output.squeeze(1), weights.squeeze(0)
        return output, weights
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(batch, num_heads, -1, source)
    q, k, v = (t.view(batch, num_heads, -1, head) for t in (q, k, v))
    output = functional.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(batch * target, embed)
    output = functional.linear(output, out_proj_weight, out_proj_bias)
    output = output.view(target, batch, output.shape[1])
    return (output if batched else output.squeeze(1)), None


class MultiheadAttention(Module):
    """Attention from ``num_heads`` heads over embed_dim / num_heads features each, with one
    packed input projection; initialised as torch (xavier-uniform input weights, zero biases)."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        if add_bias_kv or add_zero_attn or kdim not in (None, embed_dim) or \
                vdim not in (None, embed_dim):
            raise NotImplementedError("MultiheadAttention with add_bias_kv, add_zero_attn, kdim "
                                      f"or vdim is not {MISSING_HINT}")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.batch_first, self.head_dim = batch_first, embed_dim // num_heads
        self.in_proj_weight = Parameter(_empty((3 * embed_dim, embed_dim), dtype))
        if bias:
            self.in_proj_bias = Parameter(_empty((3 * embed_dim,), dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        init.xavier_uniform_(self.in_proj_weight)
        if bias:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask=None,
                need_weights: bool = True, attn_mask=None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        batched = query.dim() == 3
        if self.batch_first and batched:  # keeping which of them are the same tensor
            if key is value and query is key:
                query = key = value = query.transpose(1, 0)
            elif key is value:
                query, key = query.transpose(1, 0), key.transpose(1, 0)
                value = key
            else:
                query, key, value = (t.transpose(1, 0) for t in (query, key, value))
        output, weights = multi_head_attention_forward(
            query, key, value, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.out_proj.weight, self.out_proj.bias, self.dropout, self.training,
            key_padding_mask, need_weights, attn_mask, average_attn_weights, is_causal)
        if self.batch_first and batched:
            output = output.transpose(1, 0)
        return output, weights


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with a residual connection and layer
    norm (after them, or before with ``norm_first``), as torch's layer in training mode."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            if activation not in ("relu", "gelu"):
                raise RuntimeError(f"activation should be relu/gelu, not {activation}")
            activation = getattr(functional, activation)
        self.activation = activation

    def forward(self, src: Tensor, src_mask=None, src_key_padding_mask=None,
                is_causal: bool = False) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask, key_padding_mask, is_causal: bool) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoder(Module):
    """``num_layers`` copies of an encoder layer (deep copies, as torch makes them), and an
    optional final norm."""

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int, norm=None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm
        if enable_nested_tensor and not encoder_layer.self_attn.batch_first:
            from ._hooks import warn_at_user_code

            warn_at_user_code("enable_nested_tensor is True, but self.use_nested_tensor is "
                              "False because encoder_layer.self_attn.batch_first was not True"
                              "(use batch_first for better inference performance)")

    def forward(self, src: Tensor, mask=None, src_key_padding_mask=None,
                is_causal: bool | None = None) -> Tensor:
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask,
                           is_causal=bool(is_causal))
        return output if self.norm is None else self.norm(output)
