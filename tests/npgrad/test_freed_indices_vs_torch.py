"""A second backward through a node that saved an index, its positions or a mask raises, as
torch frees those tensors after the first (and a node that saved only shapes or numbers
lets it through, as torch's does). Each case asked of torch, live."""

from __future__ import annotations

import pytest

CASES = {
    "index": lambda T, x: x[T.tensor([0, 2, 2])],
    "boolean index": lambda T, x: x[x > 2],
    "gather": lambda T, x: x.gather(0, T.tensor([1, 0])),
    "max along a dim": lambda T, x: x.max(0)[0],
    "min along a dim": lambda T, x: x.min(0)[0],
    "sort": lambda T, x: x.sort()[0],
    "topk": lambda T, x: x.topk(2)[0],
    "kthvalue": lambda T, x: x.kthvalue(2)[0],
    "median along a dim": lambda T, x: x.median(0)[0],
    "mode": lambda T, x: x.mode(0)[0],
    "index_select": lambda T, x: x.index_select(0, T.tensor([1, 1])),
    "embedding": lambda T, x: T.nn.functional.embedding(T.tensor([1, 0]), x.reshape(2, 2)),
    "masked_select": lambda T, x: x.masked_select(x > 1.5),
    "masked_fill": lambda T, x: x.masked_fill(x > 2.5, 0.0),
    "where": lambda T, x: T.where(x > 2, x, T.zeros(4)),
    "scatter": lambda T, x: T.zeros(4).scatter(0, T.tensor([1, 0]), x[:2]),
    "scatter_add": lambda T, x: T.zeros(4).scatter_add(0, T.tensor([1, 0]), x[:2]),
    "index_add": lambda T, x: T.zeros(4).index_add(0, T.tensor([1, 0]), x[:2]),
    "cummax": lambda T, x: x.cummax(0)[0],
    "nll_loss": lambda T, x: T.nn.functional.nll_loss(x.reshape(2, 2), T.tensor([1, 0])),
    "a tensor-indexed write": lambda T, x: _written(T, x),
    "a slice and a sum (shapes only)": lambda T, x: x[1:3] + 1,
    "cumsum (a dim only)": lambda T, x: x.cumsum(0),
}


def _written(T, x):
    target = T.zeros(4)
    target[T.tensor([1, 0])] = x[:2]
    return target


def _second_backward(T, case) -> str:
    x = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    total = case(T, x).sum()
    total.backward()
    try:
        total.backward()
    except RuntimeError as error:
        return str(error)
    return "allowed"


@pytest.mark.parametrize("name", list(CASES))
def test_a_second_backward_raises_where_torch_freed_what_the_node_saved(name, torch):
    import playground.npgrad as npgrad

    assert _second_backward(npgrad, CASES[name]) == _second_backward(torch, CASES[name])
