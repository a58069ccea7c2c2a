"""What pasted code of today met that the engine lacked, against torch run here: an LSTM with a
projection (its repr, weights, states, oneDNN's warning and torch's checks of given states)
and clamp_'s refusal of a leaf before its bounds."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPTS = {
    "lstm_projection": r'''
import warnings
import torch
from torch.nn.utils.rnn import pack_padded_sequence
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(4, 6, num_layers=2, proj_size=3, batch_first=True, bidirectional=True)
    print(lstm)
    for name, p in lstm.named_parameters():
        print(name, tuple(p.shape))
    x = torch.randn(2, 5, 4)
    out, (h, c) = lstm(x)
    print(out.shape, h.shape, c.shape, out.grad_fn.name(), h.grad_fn.name())
    print(out[0, 0], h[0, 0], c[0, 0])
    out.sum().backward()
    print(lstm.weight_hr_l0.grad)
    lstm(x)
    packed = pack_padded_sequence(torch.randn(3, 4, 4), [4, 2, 1], batch_first=True)
    ends = lstm(packed)[1]
    print([tuple(end.shape) for end in ends])
print([str(w.message)[:46] for w in caught])
print(torch.nn.LSTM(3, 4, proj_size=2, bias=False))
print([name for name, _ in torch.nn.LSTM(3, 4, proj_size=2, bias=False).named_parameters()])
x = torch.randn(5, 2, 3)
for make in [lambda: torch.nn.LSTM(3, 5, proj_size=5), lambda: torch.nn.LSTM(3, 4, proj_size=-1),
             lambda: torch.nn.GRU(3, 4, proj_size=2), lambda: torch.nn.RNN(3, 4, proj_size=2),
             lambda: torch.nn.LSTM(3, 4)(x, (torch.zeros(1, 2, 3), torch.zeros(1, 2, 4))),
             lambda: torch.nn.LSTM(3, 4)(x, (torch.zeros(1, 2, 4), torch.zeros(1, 3, 4))),
             lambda: torch.nn.LSTM(3, 4, proj_size=2, num_layers=2)(
                 x, (torch.zeros(2, 2, 2), torch.zeros(2, 2, 2))),
             lambda: torch.nn.GRU(3, 4)(x, torch.zeros(2, 2, 4)),
             lambda: torch.nn.RNN(3, 4, batch_first=True)(x, torch.zeros(1, 2, 4)),
             lambda: torch.nn.RNN(3, 4)(x, torch.zeros(1, 4)),
             lambda: torch.nn.LSTM(3, 4)(x[0], (torch.zeros(1, 1, 4), torch.zeros(1, 4))),
             lambda: torch.nn.LSTM(3, 4, proj_size=2)(
                 torch.randn(5, 3), (torch.zeros(1, 2), torch.zeros(1, 4)))[0].shape]:
    try:
        print(make())
    except Exception as e:
        print(type(e).__name__, e)
''',
    "clamp_leaf": r'''
import torch
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for f in [lambda: x.clamp(), lambda: torch.clamp(x), lambda: x.clamp_(), lambda: x.clip(),
          lambda: x.clip_(), lambda: x.detach().clamp_()]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_runs_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
