"""Recurrent layers: nn.LSTM and nn.LSTMCell, recorded as torch's CPU build records them:
a float32 LSTM runs on oneDNN, one MkldnnRnnLayerBackward0 node per layer and direction;
other dtypes (and the cell) run torch's ops step by step."""

from __future__ import annotations

import math

import numpy as np

from .. import _factories, _recording, _recurrent
from .._missing import MISSING_HINT
from .._shapes import cat, stack
from .._tensor import Tensor
from ..backends import mkldnn
from . import functional, init
from .modules import Module, Parameter, _empty


def _lstm_layer(input: Tensor, weights: list, h0: Tensor, c0: Tensor, reverse: bool) -> tuple:
    """One layer in one direction: (outputs, last hidden, last cell), one node for all."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    arrays = [None if w is None else w._data for w in (w_ih, w_hh, b_ih, b_hh)]
    out, hy, cy, run = _recurrent.lstm_layer(input._data, *arrays, h0._data, c0._data, reverse)
    results = [Tensor._make(np.ascontiguousarray(value)) for value in (out, hy, cy)]
    inputs = (input, w_ih, w_hh, b_ih, b_hh, h0, c0)
    if any(t is not None and t.requires_grad for t in inputs):
        from .._grad_mode import GradMode

        if GradMode.enabled:
            _recording.attach_node(results[0], _recording.NODE_CLASSES["lstm_layer"], inputs,
                                   (run, []))
            _recording.record_outputs(results[0].grad_fn, results)
    return tuple(results)


def _lstm_steps(input: Tensor, weights: list, h: Tensor, c: Tensor, reverse: bool) -> tuple:
    """One layer in one direction, torch's generic way: the input's part of every step at
    once (one addmm), then each step's ops; the outputs stacked in time order."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    steps = list(functional.linear(input, w_ih, b_ih).unbind(0))
    outputs = []
    for projected in reversed(steps) if reverse else steps:
        h, c = _lstm_step(projected, h, c, w_hh, b_hh)
        outputs.append(h)
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), h, c


def _lstm_step(projected: Tensor, h: Tensor, c: Tensor, w_hh: Tensor, b_hh) -> tuple:
    """One step from the input's part of the gates: torch's LSTMCell ops, in its order."""
    gates = functional.linear(h, w_hh, b_hh) + projected
    ingate, forgetgate, cellgate, outgate = gates.unsafe_chunk(4, 1)
    ingate, forgetgate = ingate.sigmoid(), forgetgate.sigmoid()
    cellgate, outgate = cellgate.tanh(), outgate.sigmoid()
    c = forgetgate * c + ingate * cellgate
    return outgate * c.tanh(), c


class LSTM(Module):
    """A multi-layer LSTM over (L, N, H_in) inputs (batch_first: (N, L, H_in); unbatched:
    (L, H_in)), initialised from torch's stream as torch does."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        if proj_size:
            raise NotImplementedError(f"LSTM(proj_size=...) is not {MISSING_HINT}")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        self._names: list[list[str]] = []
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:2 if bidirectional else 1]:
                width = input_size if layer == 0 else hidden_size * (2 if bidirectional else 1)
                shapes = [(4 * hidden_size, width), (4 * hidden_size, hidden_size)]
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                if bias:
                    shapes += [(4 * hidden_size,)] * 2
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                for name, shape in zip(names, shapes, strict=True):
                    setattr(self, name, Parameter(_empty(shape, dtype)))
                self._names.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def forward(self, input: Tensor, hx=None):
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        h0, c0 = self._initial(input, hx, batched, directions)
        fused = mkldnn.enabled and input._data.dtype == np.float32 and input.numel() > 0
        if fused:
            input = input.contiguous()
        else:  # torch's generic path takes each layer's states by unbind
            h0, c0 = h0.unbind(0), c0.unbind(0)
        finals_h, finals_c = [], []
        layer_input = input
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                weights = [getattr(self, name) for name in self._names[index]]
                run = _lstm_layer if fused else _lstm_steps
                out, hy, cy = run(layer_input, weights, h0[index], c0[index], direction == 1)
                outputs.append(out)
                finals_h.append(hy)
                finals_c.append(cy)
            layer_input = cat(outputs, 2) if directions == 2 else outputs[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = functional.dropout(layer_input, self.dropout, True)
        output, h_n, c_n = layer_input, stack(finals_h, 0), stack(finals_c, 0)
        if not batched:
            return output.squeeze(1), (h_n.squeeze(1), c_n.squeeze(1))
        if self.batch_first:
            output = output.transpose(0, 1)
        return output, (h_n, c_n)

    def _initial(self, input: Tensor, hx, batched: bool, directions: int) -> tuple:
        if hx is None:
            zeros = _factories.zeros(self.num_layers * directions, input.shape[1],
                                     self.hidden_size, dtype=input.dtype)
            return zeros, zeros
        h0, c0 = hx
        if not batched:
            h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
        return h0, c0

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False),
                              ("dropout", 0.0), ("bidirectional", False)):
            value = getattr(self, name)
            if value != default:
                text += f", {name}={value}"
        return text


class LSTMCell(Module):
    """One LSTM step: (h, c) from an input and the last (h, c), as torch's ops record it."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = Parameter(_empty((4 * hidden_size, input_size), dtype))
        self.weight_hh = Parameter(_empty((4 * hidden_size, hidden_size), dtype))
        if bias:
            self.bias_ih = Parameter(_empty((4 * hidden_size,), dtype))
            self.bias_hh = Parameter(_empty((4 * hidden_size,), dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    def forward(self, input: Tensor, hx=None):
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _factories.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        projected = functional.linear(input, self.weight_ih, self.bias_ih)
        hy, cy = _lstm_step(projected, hx[0], hx[1], self.weight_hh, self.bias_hh)
        if not batched:
            return hy.squeeze(0), cy.squeeze(0)
        return hy, cy

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")
