"""nn.MultiheadAttention and torch's multi_head_attention_forward, op by op: the packed or
separate input projections, the masks made additive, the learnt key and value and the zero
attention torch can add, and the heads' attention (transformer.py builds on it)."""

from __future__ import annotations

import math

from .. import _factories
from .._shapes import cat
from .._tensor import Tensor
from . import functional, init
from .modules import Linear, Module, Parameter, _empty


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
                                 is_causal: bool = False, separate_weights=None, bias_kv=None,
                                 add_zero_attn: bool = False) -> tuple:
    """Attention over (L, N, E) inputs ((L, E) unbatched), as torch's functional computes it:
    ``separate_weights`` are the query, key and value projections of keys and values of other
    sizes (kdim, vdim), ``bias_kv`` a learnt key and value added to the sequence, and
    ``add_zero_attn`` one of zeros added after them."""
    batched = query.dim() == 3
    if not batched:  # (each on its own: the projections are then three, as in torch)
        query, key, value = (t.unsqueeze(1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    target, batch, embed = query.shape
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
    if separate_weights is None:
        q, k, v = _projected(query, key, value, in_proj_weight, in_proj_bias)
    else:
        biases = (None,) * 3 if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = (functional.linear(x, w, b) for x, w, b in zip(
            (query, key, value), separate_weights, biases, strict=True))
    if attn_mask is not None and attn_mask.dim() == 2:
        attn_mask = attn_mask.unsqueeze(0)
    if bias_kv is not None:  # one more key and value, each batch's
        k = cat([k, bias_kv[0].repeat(1, batch, 1)])
        v = cat([v, bias_kv[1].repeat(1, batch, 1)])
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    q = q.view(target, batch * num_heads, head).transpose(0, 1)
    k = k.view(k.shape[0], batch * num_heads, head).transpose(0, 1)
    v = v.view(v.shape[0], batch * num_heads, head).transpose(0, 1)
    if add_zero_attn:
        zeros = _factories.zeros((batch * num_heads, 1, head), dtype=k.dtype)
        k, v = cat([k, zeros], dim=1), cat([v, zeros], dim=1)
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    source = k.shape[1]
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


def _one_more_key(attn_mask, key_padding_mask) -> tuple:
    """The masks with a column more, that masks nothing."""
    return tuple(None if mask is None else functional.pad(mask, (0, 1))
                 for mask in (attn_mask, key_padding_mask))


class MultiheadAttention(Module):
    """Attention from ``num_heads`` heads over embed_dim / num_heads features each, with one
    packed input projection (three where keys and values have sizes of their own: kdim,
    vdim), a learnt key and value added to the sequence (``add_bias_kv``) and one of zeros
    (``add_zero_attn``); initialised as torch (xavier-uniform input weights, zero biases,
    xavier-normal bias_k and bias_v)."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim=None, vdim=None,
                 batch_first: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout = num_heads, dropout
        self.batch_first, self.head_dim = batch_first, embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self._make_projections(dtype)
        if bias:
            self.in_proj_bias = Parameter(_empty((3 * embed_dim,), dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        self.bias_k = self.bias_v = None
        if add_bias_kv:
            self.bias_k = Parameter(_empty((1, 1, embed_dim), dtype))
            self.bias_v = Parameter(_empty((1, 1, embed_dim), dtype))
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _make_projections(self, dtype) -> None:
        size = self.embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(_empty((3 * size, size), dtype))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
            return
        self.q_proj_weight = Parameter(_empty((size, size), dtype))
        self.k_proj_weight = Parameter(_empty((size, self.kdim), dtype))
        self.v_proj_weight = Parameter(_empty((size, self.vdim), dtype))
        self.register_parameter("in_proj_weight", None)

    def _reset_parameters(self) -> None:
        """torch's initialisation, in its order (the generator's draws follow it)."""
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for learnt in (self.bias_k, self.bias_v):
            if learnt is not None:
                init.xavier_normal_(learnt)

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
        separate = None if self._qkv_same_embed_dim else (
            self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        output, weights = multi_head_attention_forward(
            query, key, value, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.out_proj.weight, self.out_proj.bias, self.dropout, self.training,
            key_padding_mask, need_weights, attn_mask, average_attn_weights, is_causal,
            separate, None if self.bias_k is None else (self.bias_k, self.bias_v),
            self.add_zero_attn)
        if self.batch_first and batched:
            output = output.transpose(1, 0)
        return output, weights
