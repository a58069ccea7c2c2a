"""torch.nn.utils.rnn on npgrad against real torch, run here: packing padded batches (sorted
or not, batch first or not), the recurrent layers over packed input (LSTM, GRU, RNN; layers,
both directions, given states), padding back, pad_sequence, pack_sequence and their inverses,
node names, gradients (second ones through the packing too) and torch's errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
from torch import nn
from torch.nn.utils.rnn import (pack_padded_sequence, pad_packed_sequence, pad_sequence,
                                pack_sequence, unpack_sequence, unpad_sequence, PackedSequence)

def names(node):
    return [n.name() if n is not None else None for n, _ in node.next_functions]

torch.manual_seed(0)
x = torch.randn(4, 3, 2, requires_grad=True)
lengths = torch.tensor([4, 2, 3])
packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
print(packed)
print(packed.data.grad_fn.name(), names(packed.data.grad_fn), isinstance(packed, tuple))
for layer in (nn.LSTM(2, 3), nn.GRU(2, 3, num_layers=2), nn.RNN(2, 3, bidirectional=True),
              nn.LSTM(2, 3, num_layers=2, bidirectional=True, dropout=0.5),
              nn.GRU(2, 3, batch_first=True, bidirectional=True)):
    packed = pack_padded_sequence(x, lengths, enforce_sorted=False)
    out, hidden = layer(packed)
    h = hidden[0] if isinstance(hidden, tuple) else hidden
    print(type(out).__name__, out.data.shape, out.data.grad_fn.name(), names(out.data.grad_fn))
    print(h.shape, h.grad_fn.name(), names(h.grad_fn))
    padded, found = pad_packed_sequence(out, total_length=5)
    print(padded.shape, found, padded.grad_fn.name(), padded[:, 1, 0])
    (padded.pow(2).sum() + h.sum()).backward()
    print(x.grad.sum(0))
    x.grad = None

first = pack_padded_sequence(x.transpose(0, 1), [4, 3, 1], batch_first=True)
print(first.sorted_indices, first.batch_sizes, first.data.grad_fn.name())
h0 = torch.randn(1, 3, 3, requires_grad=True)
c0 = torch.randn(1, 3, 3)
out, (h, c) = nn.LSTM(2, 3)(pack_padded_sequence(x, lengths, enforce_sorted=False), (h0, c0))
print(h, c)
h.sum().backward()
print(h0.grad)
back, found = pad_packed_sequence(first, batch_first=True, padding_value=-1.0)
print(back.grad_fn.name(), back[2], found)

a, b = torch.ones(2, 1, requires_grad=True), torch.full((3, 1), 2.0)
stacked = pad_sequence([a, b])
print(stacked.squeeze(-1), stacked.grad_fn.name(), names(stacked.grad_fn))
print(pad_sequence([a, b], batch_first=True, padding_value=-1).squeeze(-1))
print(pad_sequence([a, b], batch_first=True, padding_side="left").squeeze(-1))
sequences = pack_sequence([b, a])
print(sequences, unpack_sequence(sequences))
print(pack_sequence([a, b], enforce_sorted=False).unsorted_indices)
print(unpad_sequence(stacked, torch.tensor([2, 3])))
print(PackedSequence(torch.arange(3.0), torch.tensor([2, 1])))
print(len(sequences), sequences.float().data.dtype, sequences.is_cuda)

g, = torch.autograd.grad(pack_padded_sequence(x, lengths, enforce_sorted=False).data.pow(3)
                         .sum(), x, create_graph=True)
print(g.grad_fn.name(), g.sum())
g.sum().backward()
print(x.grad[:, 0])

y = torch.zeros(3) * 1
w = torch.tensor([2.0], requires_grad=True)
y[1] = w
y.sum().backward()
print(y.grad_fn.name(), y, w.grad)

for bad in ("pack_padded_sequence(x, [1, 3, 4])", "pack_padded_sequence(x, [4, 3])",
            "pack_padded_sequence(x, [4, 3, 0])", "pad_packed_sequence(first, total_length=2)",
            "pad_sequence([])", "pad_sequence([a], padding_side='middle')"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_packed_sequences_print_what_torch_prints(tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
