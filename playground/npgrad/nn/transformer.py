"""Attention layers: nn.MultiheadAttention (torch's multi_head_attention_forward, op by op)
and the transformer built on it: its encoder and decoder layers and stacks, and
nn.Transformer (as torch's in training mode: no fused fast path)."""

from __future__ import annotations

import copy
import math

from .. import _factories
from .._missing import MISSING_HINT
from .._tensor import Tensor
from .._user_warnings import warn_at_user_code
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
        self.embed_dim, self.kdim, self.vdim = embed_dim, embed_dim, embed_dim
        self._qkv_same_embed_dim = True  # (torch's own flags and attributes, read by code)
        self.num_heads, self.dropout = num_heads, dropout
        self.batch_first, self.head_dim = batch_first, embed_dim // num_heads
        self.in_proj_weight = Parameter(_empty((3 * embed_dim, embed_dim), dtype))
        for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
            self.register_parameter(name, None)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
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
        self.activation = _activation_of(activation)

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
            warn_at_user_code("enable_nested_tensor is True, but self.use_nested_tensor is "
                              "False because encoder_layer.self_attn.batch_first was not True"
                              "(use batch_first for better inference performance)")

    def forward(self, src: Tensor, mask=None, src_key_padding_mask=None,
                is_causal: bool | None = None) -> Tensor:
        output = src
        causal = _detect_is_causal_mask(mask, is_causal,
                                        _sequence_length(src, self.layers[0].self_attn))
        for layer in self.layers:
            output = layer(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask,
                           is_causal=causal)
        return output if self.norm is None else self.norm(output)


def _sequence_length(x: Tensor, attention: MultiheadAttention) -> int | None:
    """The sequence's length in a (L, N, E) or batch-first (N, L, E) input, or (L, E)."""
    if x.dim() == 2:
        return x.shape[0]
    return x.shape[1] if attention.batch_first else x.shape[0]


def _detect_is_causal_mask(mask, is_causal: bool | None, size: int | None) -> bool:
    """``is_causal`` where it is given; else whether ``mask`` is the causal mask of its size,
    as torch decides (the attention may then skip the mask)."""
    if is_causal is not None or mask is None:
        return bool(is_causal)
    size = mask.shape[-2] if size is None else size
    causal = Transformer.generate_square_subsequent_mask(size, dtype=mask.dtype)
    return mask.shape == causal.shape and bool((mask == causal).all())


def _activation_of(activation):
    if isinstance(activation, str):
        if activation not in ("relu", "gelu"):
            raise RuntimeError(f"activation should be relu/gelu, not {activation}")
        return getattr(functional, activation)
    return activation


class TransformerDecoderLayer(Module):
    """Self-attention over the target, attention from it to the encoder's memory, and a
    feed-forward block, each with a residual connection and layer norm (after, or before
    with ``norm_first``)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation="relu", layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                 batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        for index in (1, 2, 3):
            setattr(self, f"norm{index}",
                    LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype))
        for index in (1, 2, 3):
            setattr(self, f"dropout{index}", Dropout(dropout))
        self.activation = _activation_of(activation)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None,
                tgt_is_causal: bool = False, memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, attn_mask, key_padding_mask, is_causal: bool) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x: Tensor, memory: Tensor, attn_mask, key_padding_mask,
                   is_causal: bool) -> Tensor:
        x = self.multihead_attn(x, memory, memory, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoder(Module):
    """``num_layers`` deep copies of a decoder layer, each attending to the same memory, and
    an optional final norm."""

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm=None) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask=None, memory_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        output = tgt
        causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal,
                                        _sequence_length(tgt, self.layers[0].self_attn))
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder stack and a decoder stack, each ending in a layer norm, their matrices
    initialised xavier-uniform as torch's (after the layers' own initialisation)."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation=functional.relu, custom_encoder=None, custom_decoder=None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        shared = {"dim_feedforward": dim_feedforward, "dropout": dropout,
                  "activation": activation, "layer_norm_eps": layer_norm_eps,
                  "batch_first": batch_first, "norm_first": norm_first, "bias": bias,
                  "dtype": dtype}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, **shared)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, **shared)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        for parameter in self.parameters():
            if parameter.dim() > 1:
                init.xavier_uniform_(parameter)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal: bool | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        batch = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch] != tgt.shape[batch]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """-inf above the diagonal, 0 on and below it: a position sees itself and before."""
        return _factories.full((sz, sz), float("-inf"), dtype=dtype).triu(diagonal=1)
