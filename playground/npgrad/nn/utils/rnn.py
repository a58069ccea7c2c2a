"""``torch.nn.utils.rnn``: variable-length sequences packed for the recurrent layers
(PackedSequence, pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence and
their inverses), made of the ops torch makes them of, so the graph shows torch's nodes
(PackPaddedSequenceBackward0, CopySlices, IndexSelectBackward0)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ... import _dtype, _factories, _recording
from ..._tensor import Tensor

_Fields = namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                         "unsorted_indices"])


class PackedSequence(_Fields):
    """A batch of sequences as one (total steps, *) tensor, step by step: ``batch_sizes[t]``
    sequences still run at step t. Made by pack_padded_sequence, not by hand."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # (data, batch_sizes) as one pair, as torch allows
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes,
                                                          self.sorted_indices,
                                                          self.unsorted_indices)

    def cpu(self, *args, **kwargs) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtype.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtype.float32)

    def long(self) -> PackedSequence:
        return self.to(dtype=_dtype.int64)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The indices that undo ``permutation`` (torch's scatter of an arange)."""
    if permutation is None:
        return None
    inverse = np.empty_like(permutation._data)
    inverse[permutation._data] = np.arange(permutation.numel())
    return Tensor._make(inverse)


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """A padded (T, B, *) batch (batch_first: (B, T, *)) of the given lengths, packed."""
    lengths = lengths.to(dtype=_dtype.int64) if isinstance(lengths, Tensor) else \
        _factories.tensor(list(lengths) if not isinstance(lengths, int) else lengths,
                          dtype=_dtype.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pack(input: Tensor, lengths: Tensor, batch_first: bool) -> tuple[Tensor, Tensor]:
    counts = [int(length) for length in lengths._data.reshape(-1)]
    batch = input.shape[0 if batch_first else 1]
    if len(counts) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(counts)} (batch_size={batch})")
    if any(earlier < later for earlier, later in zip(counts, counts[1:], strict=False)):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if counts and counts[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    steps = np.swapaxes(input._data, 0, 1) if batch_first else input._data
    sizes = [sum(1 for count in counts if count > step) for step in range(counts[0])]
    values = np.concatenate([steps[step, :size] for step, size in enumerate(sizes)], 0)
    data = _recording.output("pack_padded_sequence", values, (input,),
                             (input.shape, tuple(sizes), batch_first))
    return data, _factories.tensor(sizes, dtype=_dtype.int64)


def unpack_padded(k, grad, shape, sizes, batch_first):
    """PackPaddedSequenceBackward0: each step's rows back into zeros of the padded shape."""
    steps = (shape[1], shape[0], *shape[2:]) if batch_first else tuple(shape)
    if isinstance(grad, Tensor):  # create_graph: torch's composite, copies into zeros
        result = _factories.zeros(*steps, dtype=grad.dtype)
        offset = 0
        for step, size in enumerate(sizes):
            result[step, :size] = grad.narrow(0, offset, size)
            offset += size
        return result.transpose(0, 1) if batch_first else result
    result = np.zeros(steps, grad.dtype)
    offset = 0
    for step, size in enumerate(sizes):
        result[step, :size] = grad[offset:offset + size]
        offset += size
    return np.swapaxes(result, 0, 1) if batch_first else result


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: int | None = None) -> tuple:
    """(padded batch, lengths): the inverse of pack_padded_sequence, in the original order."""
    sizes = [int(size) for size in sequence.batch_sizes._data]
    longest = len(sizes)
    if total_length is not None:
        if total_length < longest:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {longest}")
        longest = total_length
    data = sequence.data
    padded = _factories.full((longest, sizes[0], *data.shape[1:]), padding_value,
                             dtype=data.dtype)
    lengths = np.empty(sizes[0], np.int64)
    offset, start = 0, 0
    for step in range(len(sizes) + 1):  # each run of equal batch sizes: one copy
        size = sizes[step] if step < len(sizes) else 0
        previous = sizes[step - 1] if step else sizes[0]
        if size != previous:
            count = previous * (step - start)
            piece = data.narrow(0, offset, count).view(step - start, previous, *data.shape[1:])
            padded[start:step, :previous] = piece  # (torch: a copy_ into that slice)
            offset, start = offset + count, step
        lengths[size:previous] = step
    if batch_first:
        padded = padded.transpose(0, 1)
    lengths = Tensor._make(lengths)
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices
        return padded.index_select(0 if batch_first else 1, order), lengths[order]
    return padded, lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Sequences of lengths L_i stacked into one (max L, B, *) tensor, padded."""
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    longest = max(sequence.shape[0] for sequence in sequences)
    trailing = sequences[0].shape[1:]
    shape = (len(sequences), longest, *trailing) if batch_first else \
        (longest, len(sequences), *trailing)
    padded = _factories.full(shape, padding_value, dtype=sequences[0].dtype)
    for index, sequence in enumerate(sequences):
        length = sequence.shape[0]
        start = longest - length if padding_side == "left" else 0
        steps = slice(start, start + length)
        padded[(index, steps) if batch_first else (steps, index)] = sequence
    return padded


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Sequences of different lengths packed (padded first, as torch does)."""
    lengths = _factories.tensor([sequence.shape[0] for sequence in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False):
    """The padded batch split back into its sequences, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [sequence[_factories.arange(int(length))]
            for sequence, length in zip(padded_sequences, lengths, strict=False)]


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def packed_order(packed: PackedSequence) -> list[int]:
    """Its batch sizes as numbers (what a recurrent layer steps by)."""
    return [int(size) for size in packed.batch_sizes._data]


__all__ = ["PackedSequence", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "pack_sequence", "unpad_sequence", "unpack_sequence", "invert_permutation"]


def _register() -> None:
    from ..._formula_kit import Kit

    Kit.unpack_padded = unpack_padded


_register()
