"""F.embedding_bag and nn.EmbeddingBag: each bag of indices (the rows of a 2-d input, or the
segments of a 1-d one between ``offsets``) becomes one row, the sum, mean or max of its
embeddings (the text classification tutorial's model), with torch's EmbeddingBagBackward0."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._formula_kit import Kit
from .._grad_mode import no_grad
from .._tensor import Tensor
from . import init
from .modules import Module, Parameter, _empty

_MODES = ("sum", "mean", "max")


def _bags(input: Tensor, offsets, include_last_offset: bool) -> tuple[np.ndarray, np.ndarray]:
    """The flat indices and where each bag starts (one start more: the end)."""
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets).__name__}")
        rows, length = input.shape
        return input._data.reshape(-1), np.arange(rows + 1) * length
    if input.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.ndim}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    starts = np.asarray(offsets._data, np.int64)
    if not include_last_offset:
        starts = np.append(starts, input.shape[0])
    return input._data, starts


def embedding_bag(input: Tensor, weight: Tensor, offsets=None, max_norm=None, norm_type=2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights=None, include_last_offset: bool = False,
                  padding_idx=None) -> Tensor:
    """One row per bag: the sum (weighted by ``per_sample_weights``), mean or max of the
    embeddings of its indices; an empty bag's row is zeros, ``padding_idx`` is left out."""
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None or scale_grad_by_freq:
        raise NotImplementedError("embedding_bag with max_norm or scale_grad_by_freq is not in "
                                  "the built-in NumPy engine; switch the engine to torch")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    indices, starts = _bags(input, offsets, include_last_offset)
    table = weight._data
    scales = None if per_sample_weights is None else \
        per_sample_weights._data.reshape(-1).astype(table.dtype)
    padding = None if padding_idx is None else padding_idx % table.shape[0]
    rows, counts, chosen = _reduced(table, indices, starts, mode, scales, padding)
    return _recording.output("embedding_bag", rows, (weight, per_sample_weights),
                             (weight, indices, starts, mode, scales, padding, counts, chosen))


def _reduced(table, indices, starts, mode, scales, padding):
    """Each bag's row, how many embeddings it counted, and (for max) which index won."""
    bags = len(starts) - 1
    rows = np.zeros((bags, table.shape[1]), table.dtype)
    counts = np.zeros(bags, np.int64)
    chosen = np.full((bags, table.shape[1]), -1, np.int64)
    for bag in range(bags):
        positions = np.arange(starts[bag], starts[bag + 1])
        if padding is not None:
            positions = positions[indices[positions] != padding]
        counts[bag] = len(positions)
        if not len(positions):
            continue
        picked = table[indices[positions]]
        if scales is not None:
            picked = picked * scales[positions, None]
        if mode == "max":
            winner = np.argmax(picked, axis=0)
            chosen[bag] = positions[winner]
            rows[bag] = picked[winner, np.arange(table.shape[1])]
        else:
            total = picked.sum(axis=0)  # (row after row, as torch adds them)
            rows[bag] = total / table.dtype.type(len(positions)) if mode == "mean" else total
    return rows, counts, chosen


def embedding_bag_grad(k, grad, weight, indices, starts, mode, scales, padding, counts,
                       chosen, for_weight: bool):
    """The weight's gradient: each bag's gradient added into the rows of its indices
    (divided by the bag's count for a mean, into the winners for max); per_sample_weights':
    each bag's gradient against the embedding it weighed."""
    if not isinstance(grad, np.ndarray):  # create_graph: torch's node, which no one derives
        values = embedding_bag_grad(k, grad._data, weight._data, indices, starts, mode, scales,
                                    padding, counts, chosen, for_weight)
        if for_weight:
            return k._backward_of("embedding_bag_backward", values, (grad, None))
        return k._backward_of("embedding_bag_per_sample_weights_backward", values,
                              (grad, weight))
    bag_of = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
    if not for_weight:
        return np.einsum("pd,pd->p", grad[bag_of], weight[indices]).astype(grad.dtype)
    result = np.zeros(weight.shape, grad.dtype)
    if mode == "max":
        for bag in range(len(counts)):
            won = chosen[bag] >= 0
            np.add.at(result, (indices[chosen[bag][won]], np.arange(weight.shape[1])[won]),
                      grad[bag][won])
        return result
    flowing = grad[bag_of]
    if mode == "mean":
        flowing = flowing / np.maximum(counts[bag_of], 1)[:, None].astype(grad.dtype)
    if scales is not None:
        flowing = flowing * scales[:, None]
    keep = np.ones(len(indices), bool) if padding is None else indices != padding
    np.add.at(result, indices[keep], flowing[keep])
    return result


class EmbeddingBag(Module):
    """A table of ``num_embeddings`` vectors, read a bag at a time (normal(0, 1) values, the
    padding row zero, as torch initialises it)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm=None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                 sparse: bool = False, _weight=None, include_last_offset: bool = False,
                 padding_idx=None, device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.mode, self.sparse = scale_grad_by_freq, mode, sparse
        self.include_last_offset = include_last_offset
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(_empty((num_embeddings, embedding_dim), dtype))
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight)

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor, offsets=None, per_sample_weights=None) -> Tensor:
        return embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type,
                             self.scale_grad_by_freq, self.mode, self.sparse,
                             per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += ", scale_grad_by_freq=True"
        text += f", mode='{self.mode}'"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text


Kit.embedding_bag_grad = embedding_bag_grad

__all__ = ["embedding_bag", "EmbeddingBag"]
