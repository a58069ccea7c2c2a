"""One LSTM layer over a sequence, on arrays: the forward torch's CPU build runs as one
``mkldnn_rnn_layer`` call, and its gradients by backpropagation through time."""

from __future__ import annotations

import numpy as np


def _sigmoid(values: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-values))


class LayerRun:
    """What a layer's backward needs: its inputs, weights and each step's gates and cells."""

    def __init__(self, x, w_ih, w_hh, reverse: bool) -> None:
        self.x, self.w_ih, self.w_hh, self.reverse = x, w_ih, w_hh, reverse
        self.gates: list[tuple] = []  # per step, in the order run: (i, f, g, o, c, tanh c)
        self.hidden: list[np.ndarray] = []  # the hidden state each step started from
        self.cells: list[np.ndarray] = []   # the cell state each step started from


def lstm_layer(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse: bool) -> tuple:
    """(outputs (T, B, H), last hidden, last cell, the run kept for the backward); gates in
    torch's order (input, forget, cell, output); ``reverse`` reads the sequence backwards
    and writes each output at its own time."""
    run = LayerRun(x, w_ih, w_hh, reverse)
    size = w_hh.shape[1]
    bias = (0 if b_ih is None else b_ih) + (0 if b_hh is None else b_hh)
    projected = x @ w_ih.T + bias  # (T, B, 4H): every step's input part at once
    h, c = h0, c0
    out = np.empty((x.shape[0], x.shape[1], size), x.dtype)
    for t in _times(x.shape[0], reverse):
        gates = projected[t] + h @ w_hh.T
        i, f = _sigmoid(gates[:, :size]), _sigmoid(gates[:, size:2 * size])
        g, o = np.tanh(gates[:, 2 * size:3 * size]), _sigmoid(gates[:, 3 * size:])
        run.hidden.append(h)
        run.cells.append(c)
        c = f * c + i * g
        squashed = np.tanh(c)
        h = o * squashed
        run.gates.append((i, f, g, o, c, squashed))
        out[t] = h
    return out, h, c, run


def _times(length: int, reverse: bool):
    return range(length - 1, -1, -1) if reverse else range(length)


def lstm_layer_grads(run: LayerRun, d_out, d_hy, d_cy) -> tuple:
    """Gradients for (input, w_ih, w_hh, b_ih, b_hh, h0, c0) given those of the outputs
    (None: zero)."""
    x, w_ih, w_hh = run.x, run.w_ih, run.w_hh
    batch, size = x.shape[1], w_hh.shape[1]
    dh = np.zeros((batch, size), x.dtype) if d_hy is None else d_hy.copy()
    dc = np.zeros((batch, size), x.dtype) if d_cy is None else d_cy.copy()
    dx = np.zeros_like(x)
    dw_ih, dw_hh = np.zeros_like(w_ih), np.zeros_like(w_hh)
    db = np.zeros(4 * size, x.dtype)
    times = list(_times(x.shape[0], run.reverse))
    for step in reversed(range(len(times))):
        t = times[step]
        i, f, g, o, _, squashed = run.gates[step]
        if d_out is not None:
            dh = dh + d_out[t]
        dc = dc + dh * o * (1 - squashed * squashed)
        d_gates = np.concatenate([dc * g * i * (1 - i), dc * run.cells[step] * f * (1 - f),
                                  dc * i * (1 - g * g), dh * squashed * o * (1 - o)], axis=1)
        dw_ih += d_gates.T @ x[t]
        dw_hh += d_gates.T @ run.hidden[step]
        db += d_gates.sum(axis=0)
        dx[t] = d_gates @ w_ih
        dh = d_gates @ w_hh
        dc = dc * f
    return dx, dw_ih, dw_hh, db, db.copy(), dh, dc
