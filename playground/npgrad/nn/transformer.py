"""The transformer built on nn.MultiheadAttention (multihead_attention.py): its encoder and
decoder layers and stacks, and nn.Transformer (as torch's in training mode: no fused fast
path; in inference, the encoder's nested-tensor path gives padding back as zeros)."""

from __future__ import annotations

import copy

from .. import _dtype as dtypes
from .. import _factories
from .._deprecations import warn_once
from .._grad_mode import is_grad_enabled
from .._tensor import Tensor
from .._user_warnings import warn_at_user_code
from ..amp import is_autocast_enabled
from . import functional, init
from .containers import ModuleList
from .modules import Dropout, Linear, Module
from .multihead_attention import MultiheadAttention
from .normalization import LayerNorm


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
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warn_at_user_code("enable_nested_tensor is True, but self.use_nested_tensor is "
                              f"False because {why_not}")
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask=None, src_key_padding_mask=None,
                is_causal: bool | None = None) -> Tensor:
        output = src
        causal = _detect_is_causal_mask(mask, is_causal,
                                        _sequence_length(src, self.layers[0].self_attn))
        kept = self._nested_positions(src, mask, src_key_padding_mask)
        for layer in self.layers:
            output = layer(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask,
                           is_causal=causal)
        if kept is not None:  # torch's nested tensor, padded back with zeros
            output = output.masked_fill(kept.logical_not().unsqueeze(-1), 0.0)
        return output if self.norm is None else self.norm(output)

    def _nested_positions(self, src: Tensor, mask, padding_mask):
        """The positions that are not padding, where torch's inference takes its nested-tensor
        path (padding dropped, given back as zeros): in eval mode without grad, with a
        left-aligned padding mask and no attention mask; else None."""
        layer = self.layers[0]
        if not self.use_nested_tensor or layer.training or src.dim() != 3 or \
                padding_mask is None or mask is not None or is_autocast_enabled():
            return None
        kept = padding_mask.logical_not() if padding_mask.dtype is dtypes.bool else \
            padding_mask == 0
        if self.mask_check and not bool((kept.cummin(dim=1).values == kept).all()):
            return None  # (not left-aligned)
        attention = layer.self_attn
        weights = (src, attention.in_proj_weight, attention.in_proj_bias,
                   attention.out_proj.weight, attention.out_proj.bias, layer.norm1.weight,
                   layer.norm1.bias, layer.norm2.weight, layer.norm2.bias,
                   layer.linear1.weight, layer.linear1.bias, layer.linear2.weight,
                   layer.linear2.bias)
        if is_grad_enabled() and any(t is not None and t.requires_grad for t in weights):
            return None
        warn_once("nested tensors prototype")  # (torch makes one there)
        return kept


def _why_no_nested_tensor(layer) -> str:
    """Why torch's encoder cannot take its nested-tensor path with these layers ("" when it
    can), in its words."""
    if not isinstance(layer, TransformerEncoderLayer):
        return "encoder_layer was not TransformerEncoderLayer"
    attention = layer.self_attn
    for failed, why in (
            (layer.norm_first, "norm_first was True"),
            (not attention.batch_first, "self_attn.batch_first was not True(use batch_first "
                                        "for better inference performance)"),
            (not attention._qkv_same_embed_dim, "self_attn._qkv_same_embed_dim was not True"),
            (attention.in_proj_bias is None, "self_attn was passed bias=False"),
            (layer.activation not in (functional.relu, functional.gelu),
             "activation_relu_or_gelu was not True"),
            (layer.norm1.eps != layer.norm2.eps,
             "norm1.eps was not equal to encoder_layer.norm2.eps"),
            (attention.num_heads % 2 == 1, "self_attn.num_heads is odd")):
        if failed:
            return f"encoder_layer.{why}"
    return ""




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
