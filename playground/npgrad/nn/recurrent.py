"""Recurrent layers: nn.RNN, nn.GRU, nn.LSTM and their cells, recorded as torch's CPU build
records them: a float32 LSTM runs on oneDNN, one MkldnnRnnLayerBackward0 node per layer and
direction; the rest run torch's ops step by step."""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _factories, _recording, _recurrent
from .._autocast import lower_precision
from .._deprecations import warn_once
from .._dtype import values_as
from .._dtype_checks import check_rnn
from .._shapes import cat, stack
from .._tensor import Tensor
from ..backends import mkldnn
from . import functional, init
from .modules import Module, Parameter, _empty
from .utils import rnn


@lower_precision  # (torch's mkldnn_rnn_layer: in autocast's dtype)
def _lstm_layer(input: Tensor, weights: list, h0: Tensor, c0: Tensor, reverse: bool) -> tuple:
    """One layer in one direction: (outputs, last hidden, last cell), one node for all (in
    the input's dtype: a bfloat16 one's rounded)."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    arrays = [None if w is None else w._data for w in (w_ih, w_hh, b_ih, b_hh)]
    out, hy, cy, run = _recurrent.lstm_layer(input._data, *arrays, h0._data, c0._data, reverse)
    results = [Tensor._make(values_as(np.ascontiguousarray(value), input.dtype, copy=False))
               for value in (out, hy, cy)]
    _recording.record_several("lstm_layer", results, (input, w_ih, w_hh, b_ih, b_hh, h0, c0),
                              (run, []))
    return tuple(results)


def _layer_steps(step, input: Tensor, weights: list, state: tuple, reverse: bool) -> tuple:
    """One layer in one direction, torch's generic way: the input's part of every step at
    once (one addmm), then ``step``'s ops for each; the outputs stacked in time order."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    steps = list(functional.linear(input, w_ih, b_ih).unbind(0))
    outputs = []
    for projected in reversed(steps) if reverse else steps:
        state = step(projected, state, w_hh, b_hh)
        outputs.append(state[0])
    if reverse:
        outputs.reverse()
    return (stack(outputs, 0), *state)


def _packed_steps(step, data: Tensor, sizes: list, weights: list, state: tuple) -> tuple:
    """One layer forwards over packed data, torch's PackedLayer: each step's rows of the
    input's part, the states of the sequences that ended set aside (narrowed off), then
    joined back in batch order (one cat per state)."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    projected = functional.linear(data, w_ih, b_ih)
    outputs, ended, offset, last = [], [], 0, sizes[0]
    for size in sizes:
        if size < last:
            ended.append(tuple(s.narrow(0, size, last - size) for s in state))
            state = tuple(s.narrow(0, 0, size) for s in state)
        state = step(projected.narrow(0, offset, size), state, w_hh, b_hh)
        outputs.append(state[0])
        offset, last = offset + size, size
    ended = [state, *reversed(ended)]
    return (cat(outputs, 0), *(cat([part[j] for part in ended], 0) for j in range(len(state))))


def _packed_steps_reversed(step, data: Tensor, sizes: list, weights: list, state: tuple):
    """The same backwards in time (ReversedPackedLayer): it starts with the shortest batch
    and takes in each sequence's initial state as the sequence starts."""
    w_ih, w_hh, b_ih, b_hh = (weights + [None, None])[:4]
    projected = functional.linear(data, w_ih, b_ih)
    initial, last, offset = state, sizes[-1], data.shape[0]
    state = tuple(s.narrow(0, 0, last) for s in initial)
    outputs = []
    for size in reversed(sizes):
        if size > last:
            state = tuple(cat([s, first.narrow(0, last, size - last)], 0)
                          for s, first in zip(state, initial, strict=True))
        state = step(projected.narrow(0, offset - size, size), state, w_hh, b_hh)
        outputs.append(state[0])
        offset, last = offset - size, size
    outputs.reverse()
    return (cat(outputs, 0), *state)


def _value(projected):
    """The input's part of a step's gates: given, or made now (a cell makes it after the
    hidden part, in torch's order)."""
    return projected() if callable(projected) else projected


def _lstm_step(projected, state: tuple, w_hh: Tensor, b_hh, w_hr: Tensor | None = None) -> tuple:
    """One step from the input's part of the gates: torch's LSTMCell ops, in its order; with
    a projection (``w_hr``) the hidden state is projected down, as torch's ``matmul_hr``."""
    h, c = state
    hidden = functional.linear(h, w_hh, b_hh)
    gates = hidden + _value(projected)
    ingate, forgetgate, cellgate, outgate = gates.unsafe_chunk(4, 1)
    ingate, forgetgate = ingate.sigmoid(), forgetgate.sigmoid()
    cellgate, outgate = cellgate.tanh(), outgate.sigmoid()
    c = forgetgate * c + ingate * cellgate
    hidden = outgate * c.tanh()
    return (hidden if w_hr is None else hidden.matmul(w_hr.t())), c


def _gru_step(projected, state: tuple, w_hh: Tensor, b_hh) -> tuple:
    """torch's GRUCell ops: reset and update gates, then the new state between."""
    (h,) = state
    input_reset, input_update, input_new = _value(projected).unsafe_chunk(3, 1)
    hidden_reset, hidden_update, hidden_new = functional.linear(h, w_hh, b_hh).unsafe_chunk(3, 1)
    reset = (hidden_reset + input_reset).sigmoid()
    update = (hidden_update + input_update).sigmoid()
    new = (input_new + hidden_new * reset).tanh()
    return ((h - new) * update + new,)


def _rnn_step(nonlinearity: str):
    def step(projected, state: tuple, w_hh: Tensor, b_hh) -> tuple:
        hidden = functional.linear(state[0], w_hh, b_hh)
        total = hidden + _value(projected)
        return (total.tanh() if nonlinearity == "tanh" else total.relu(),)

    return step


def _uniform_within(module: Module) -> None:
    """torch's initialisation of a recurrent layer or cell: every parameter, in order, from
    U(-1/√hidden, 1/√hidden)."""
    bound = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


class RNNBase(Module):
    """A multi-layer recurrent layer over (L, N, H_in) inputs (batch_first: (N, L, H_in);
    unbatched: (L, H_in)), initialised from torch's stream as torch does; ``GATES`` weight
    blocks per layer."""

    GATES = 1

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device=None,
                 dtype=None) -> None:
        super().__init__()
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        self._names: list[list[str]] = []
        rows, out_size = self.GATES * hidden_size, proj_size or hidden_size
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:2 if bidirectional else 1]:
                width = input_size if layer == 0 else out_size * (2 if bidirectional else 1)
                shapes = [(rows, width), (rows, out_size)]
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                if bias:
                    shapes += [(rows,)] * 2
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                if proj_size:  # (torch's weight_hr: the hidden state projected down)
                    shapes.append((proj_size, hidden_size))
                    names.append(f"weight_hr_l{layer}{suffix}")
                for name, shape in zip(names, shapes, strict=True):
                    setattr(self, name, Parameter(_empty(shape, dtype)))
                self._names.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _uniform_within(self)

    @property
    def _flat_weights_names(self) -> list[str]:
        """torch's list of the weights' names, layer by layer and direction by direction."""
        return [name for names in self._names for name in names]

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list]:
        """The weights layer by layer (and direction by direction), as torch lists them."""
        return [[getattr(self, name) for name in names] for names in self._names]

    def _weights(self, index: int) -> list:
        """A layer and direction's input and hidden weights and biases (not a projection)."""
        names = self._names[index][:-1] if self.proj_size else self._names[index]
        return [getattr(self, name) for name in names]

    def _step_of(self, index: int):
        """The step function of a layer and direction."""
        return self._step()

    def _zero_states(self, count: int, batch: int, dtype) -> list:
        """The states a call without ``hx`` starts from: zeros (a projected LSTM's hidden
        state is narrower than its cell)."""
        sizes = [self.proj_size or self.hidden_size, self.hidden_size][:count]
        zeros = {size: _factories.zeros(self.num_layers * (2 if self.bidirectional else 1),
                                        batch, size, dtype=dtype) for size in sizes}
        return [zeros[size] for size in sizes]

    def flatten_parameters(self) -> None:
        """cuDNN's one block of weights: nothing to do on the CPU, as in torch."""

    def forward(self, input: Tensor, hx=None):
        packed = isinstance(input, rnn.PackedSequence)
        check_rnn(input.data if packed else input, getattr(self, self._names[0][0]))
        if packed:
            return self._packed_forward(input, hx)
        batched = input.dim() == 3
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        states = self._initial(input, hx, batched, directions)
        fused = self._fused(input)
        if fused:
            input = input.contiguous()
        else:  # torch's generic path takes each layer's states by unbind
            states = [state.unbind(0) for state in states]
        finals: list[list[Tensor]] = [[] for _ in states]
        layer_input = input
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                weights = self._weights(index)
                start = tuple(state[index] for state in states)
                if fused:
                    out, *ends = _lstm_layer(layer_input, weights, *start, direction == 1)
                else:
                    out, *ends = _layer_steps(self._step_of(index), layer_input, weights,
                                              start, direction == 1)
                outputs.append(out)
                for final, end in zip(finals, ends, strict=True):
                    final.append(end)
            layer_input = cat(outputs, 2) if directions == 2 else outputs[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = functional.dropout(layer_input, self.dropout, True)
        ends = [stack(final, 0) for final in finals]
        return self._returned(layer_input, ends, batched, fused)

    def _packed_forward(self, packed, hx):
        """torch's packed path: every layer step by step on the packed rows (never oneDNN);
        the given states put in the packed order first, the final ones back after."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = rnn.packed_order(packed)
        directions = 2 if self.bidirectional else 1
        if hx is None:
            states = self._zero_states(2 if self.GATES == 4 else 1, sizes[0], data.dtype)
        else:
            states = list(hx) if self.GATES == 4 else [hx]
            if sorted_indices is not None:
                states = [state.index_select(1, sorted_indices) for state in states]
            self._check_sizes(states, sizes[0])
        states = [state.unbind(0) for state in states]
        finals: list[list[Tensor]] = [[] for _ in states]
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                run = _packed_steps_reversed if direction == 1 else _packed_steps
                out, *ends = run(self._step_of(index), data, sizes, self._weights(index),
                                 tuple(state[index] for state in states))
                outputs.append(out)
                for final, end in zip(finals, ends, strict=True):
                    final.append(end)
            data = cat(outputs, -1) if directions == 2 else outputs[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                data = functional.dropout(data, self.dropout, True)
        ends = [stack(final, 0) for final in finals]
        if unsorted_indices is not None:
            ends = [end.index_select(1, unsorted_indices) for end in ends]
        output = rnn.PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)
        return output, (tuple(ends) if self.GATES == 4 else ends[0])

    def _fused(self, input: Tensor) -> bool:
        return False

    def _step(self):
        raise NotImplementedError

    def _returned(self, output: Tensor, ends: list, batched: bool, fused: bool):
        if not batched:
            output, ends = output.squeeze(1), [end.squeeze(1) for end in ends]
        elif self.batch_first:  # torch's transpose_ of its own output
            output = _recording.output("transpose_", np.swapaxes(output._data, 0, 1),
                                       (output,), (0, 1))
        return output, ends[0]

    def _initial(self, input: Tensor, hx, batched: bool, directions: int) -> list:
        count = 2 if self.GATES == 4 else 1
        if hx is None:
            return self._zero_states(count, input.shape[1], input.dtype)
        given = list(hx) if count == 2 else [hx]
        dims = 3 if batched else 2
        if any(state.dim() != dims for state in given):
            kind = "batched 3-D" if batched else "unbatched 2-D"
            got = ", ".join(f"{state.dim()}-D" for state in given)
            raise RuntimeError(f"For {kind} input, hx and cx should also be {dims}-D but got "
                               f"({got}) tensors" if count == 2 else
                               f"For {kind} input, hx should also be {dims}-D but got {got} "
                               "tensor")
        given = given if batched else [state.unsqueeze(1) for state in given]
        self._check_sizes(given, input.shape[1])
        return given

    def _check_sizes(self, states: list, batch: int) -> None:
        """torch's check of given states: (layers × directions, batch, hidden or projection),
        a cell state (hidden[1]) as wide as the hidden layer."""
        layers = self.num_layers * (2 if self.bidirectional else 1)
        widths = [self.proj_size or self.hidden_size, self.hidden_size]
        for index, state in enumerate(states):
            expected = (layers, batch, widths[index])
            if tuple(state.shape) != expected:
                name = f"hidden[{index}]" if len(states) == 2 else "hidden"
                raise RuntimeError(f"Expected {name} size {expected}, got {list(state.shape)}")

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size:
            text += f", proj_size={self.proj_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False),
                              ("dropout", 0.0), ("bidirectional", False)):
            value = getattr(self, name)
            if value != default:
                text += f", {name}={value}"
        return text




def _refuse_projection(options: dict) -> None:
    if "proj_size" in options:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


class LSTM(RNNBase):
    """LSTM layers: (output, (h_n, c_n)); float32 on oneDNN's node, as torch's CPU build."""

    GATES = 4

    def _fused(self, input: Tensor) -> bool:
        if not (mkldnn.enabled and input._data.dtype == np.float32 and input.numel() > 0):
            return False
        if self.proj_size:
            warn_once("LSTM projections on oneDNN")
            return False
        return True

    def _step(self):
        return _lstm_step

    def _step_of(self, index: int):
        if not self.proj_size:
            return _lstm_step
        projection = getattr(self, self._names[index][-1])
        return functools.partial(_lstm_step, w_hr=projection)

    def _returned(self, output: Tensor, ends: list, batched: bool, fused: bool):
        if not batched:
            return output.squeeze(1), tuple(end.squeeze(1) for end in ends)
        if self.batch_first:
            output = output.transpose(0, 1)
        return output, tuple(ends)


class GRU(RNNBase):
    """GRU layers: (output, h_n), torch's ops step by step."""

    GATES = 3

    def __init__(self, *args, **kwargs) -> None:
        _refuse_projection(kwargs)
        super().__init__(*args, **kwargs)

    def _step(self):
        return _gru_step


class RNN(RNNBase):
    """Elman RNN layers (tanh or relu): (output, h_n), torch's ops step by step."""

    def __init__(self, *args, nonlinearity: str = "tanh", **kwargs) -> None:
        _refuse_projection(kwargs)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(*args, **kwargs)

    def _step(self):
        return _rnn_step(self.nonlinearity)


class RNNCellBase(Module):
    """One step of a recurrent layer, as torch's ops record it; ``GATES`` weight blocks."""

    GATES = 1

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = self.GATES * hidden_size
        self.weight_ih = Parameter(_empty((rows, input_size), dtype))
        self.weight_hh = Parameter(_empty((rows, hidden_size), dtype))
        if bias:
            self.bias_ih = Parameter(_empty((rows,), dtype))
            self.bias_hh = Parameter(_empty((rows,), dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _uniform_within(self)

    def forward(self, input: Tensor, hx=None):
        batched = input.dim() == 2
        if input.dim() and input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                               f"expected {self.input_size}")
        if not batched:
            input = input.unsqueeze(0)
        count = 2 if self.GATES == 4 else 1
        if hx is None:
            zeros = _factories.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
            state = (zeros,) * count
        else:
            state = tuple(hx) if count == 2 else (hx,)
            state = state if batched else tuple(part.unsqueeze(0) for part in state)
        ends = self._step()(lambda: functional.linear(input, self.weight_ih, self.bias_ih),
                            state, self.weight_hh, self.bias_hh)
        ends = ends if batched else tuple(end.squeeze(0) for end in ends)
        return ends if count == 2 else ends[0]

    def _step(self):
        raise NotImplementedError

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}" + ("" if self.bias else ", bias=False")


class LSTMCell(RNNCellBase):
    """(h, c) from an input and the last (h, c)."""

    GATES = 4

    def _step(self):
        return _lstm_step


class GRUCell(RNNCellBase):
    GATES = 3

    def _step(self):
        return _gru_step


class RNNCell(RNNCellBase):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device=None, dtype=None) -> None:
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, device, dtype)

    def _step(self):
        return _rnn_step(self.nonlinearity)

    def extra_repr(self) -> str:
        text = super().extra_repr()
        return text if self.nonlinearity == "tanh" else f"{text}, nonlinearity={self.nonlinearity}"
