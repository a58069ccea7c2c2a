"""Optimizers meeting sparse gradients (nn.Embedding(sparse=True)): SparseAdam, which moves
only the rows a step's gradient names, and SGD's (with momentum) and Adagrad's steps with
one; kernel by kernel
as torch's (the gradient coalesced, the moments read and written at its rows, each row added
as torch's dense += sparse adds it), so the parameters follow torch's bit for bit."""

from __future__ import annotations

import math

import numpy as np

from .. import _sparse, _sparse_ops
from .._sparse_grads import add_rows, sparse_sum_of
from .._tensor import Tensor, bump_version
from . import Optimizer, square_root


def _rows(grad: Tensor, negate: bool) -> tuple[np.ndarray, np.ndarray]:
    """A sparse gradient's rows, coalesced (indices sorted, a repeated one's rows summed in
    the order they came), negated to maximize."""
    coalesced = _sparse.parts(_sparse_ops.coalesce(grad))
    values = coalesced.values
    return coalesced.indices, (-values if negate else values)


def sgd_sparse_step(param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
    """``param.add_(grad, alpha=-lr)`` with a sparse gradient, each of its rows in turn; with
    momentum, a sparse buffer (scaled, the new rows appended, as torch's sparse add_)."""
    if group["weight_decay"]:
        raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                           "instead.")
    coo = _sparse.parts(grad)
    if group["maximize"]:  # (a new tensor: its values contiguous)
        coo = _sparse.COO(coo.indices, -coo.values, coo.coalesced)
    momentum, shape = group["momentum"], param._data.shape
    if momentum:
        buffer = state.get("momentum_buffer")
        if buffer is None:  # torch.clone: contiguous values
            kept = _sparse.COO(coo.indices.copy(), coo.values.copy(), coo.coalesced)
        else:
            held = _sparse.parts(buffer)
            decayed = _sparse.COO(held.indices, held.values * held.values.dtype.type(momentum),
                                  held.coalesced, held.contiguous)
            kept = sparse_sum_of(decayed, coo, 1 - group["dampening"], shape)
        state["momentum_buffer"] = _sparse._sparse(_sparse.dense_of(kept, shape), kept)
        coo = sparse_sum_of(coo, kept, momentum, shape) if group["nesterov"] else kept
    add_rows(param._data, coo.indices, coo.values, -group["lr"])
    bump_version(param)


def adagrad_sparse_step(param: Tensor, grad: Tensor, group: dict, rate: float,
                        total: np.ndarray) -> None:
    """Adagrad's step with a sparse gradient, as torch's: the gradient coalesced, its squares
    added into the sum at its rows, and each row moved by its value over the root there."""
    if group["weight_decay"]:
        raise RuntimeError("weight_decay option is not compatible with sparse gradients")
    indices, values = _rows(grad, group["maximize"])
    _sparse.warn_invariants_off()  # (torch's step makes a sparse tensor here)
    add_rows(total, indices, values * values)
    deviation = square_root(total[indices[0]]) + total.dtype.type(group["eps"])
    add_rows(param._data, indices, values / deviation, -rate)
    bump_version(param)


class SparseAdam(Optimizer):
    """Adam for sparse gradients: the moments and the parameter change only at the rows a
    step's gradient holds (torch's "lazy" Adam)."""

    _SPARSE_REFUSAL = None
    _DENSE_REFUSAL = ("SparseAdam does not support dense gradients, please consider Adam "
                      "instead")

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, maximize: bool = False) -> None:
        if not lr > 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps > 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for index, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        for kind, test in (("Sparse", lambda p: _sparse.parts(p) is not None),
                           ("Complex", lambda p: p._data.dtype.kind == "c")):
            places = [[group_index, index] for group_index, group in enumerate(self.param_groups)
                      for index, param in enumerate(group["params"]) if test(param)]
            if places:
                raise ValueError(f"{kind} params at indices {places}: SparseAdam "
                                 + ("requires dense parameter tensors" if kind == "Sparse"
                                    else "does not support complex parameters"))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        if not state:
            state["step"] = 0
            state["exp_avg"] = Tensor._make(np.zeros_like(param._data))
            state["exp_avg_sq"] = Tensor._make(np.zeros_like(param._data))
        state["step"] += 1
        indices, values = _rows(grad, group["maximize"])
        if values.size == 0:
            return
        where = indices[0]
        kind = values.dtype.type
        beta1, beta2 = group["betas"]
        average, squares = state["exp_avg"]._data, state["exp_avg_sq"]._data
        old_average = average[where]
        average_change = (values - old_average) * kind(1 - beta1)
        average[where] += average_change
        old_squares = squares[where]
        squares_change = (values * values - old_squares) * kind(1 - beta2)
        squares[where] += squares_change
        numerator = average_change + old_average
        denominator = square_root(squares_change + old_squares) + kind(group["eps"])
        step = state["step"]
        step_size = group["lr"] * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        param._data[where] += kind(-step_size) * (numerator / denominator)
        bump_version(param)
