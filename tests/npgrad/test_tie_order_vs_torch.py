"""Where equal values land in sort, argsort and topk, against torch run here: torch's
unstable std::sort and its std::nth_element / std::partial_sort put ties in an order of
their own (not the order they came in), and the NumPy engine reproduces it (_tie_order.py);
stable=True keeps the order they came in, as torch's std::stable_sort does."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg

torch = pytest.importorskip("torch")


def _rows_with_ties(seed: int, count: int, longest: int):
    rng = np.random.default_rng(seed)
    for trial in range(count):
        size = int(rng.integers(1, longest))
        values = rng.integers(0, int(rng.integers(1, 6)), size)
        values = values.astype([np.float32, np.float64, np.int64][trial % 3])
        if trial % 5 == 0 and values.dtype.kind == "f":
            values[rng.integers(0, size, 2)] = np.nan  # NaNs tie with each other
        yield trial, rng, values


def _same(mine, theirs) -> None:
    np.testing.assert_array_equal(np.asarray(mine.numpy()), theirs.numpy())


@pytest.mark.parametrize("stable", [False, True])
def test_sort_and_argsort_leave_ties_where_torch_does(stable):
    for trial, _, values in _rows_with_ties(11, 150, 90):
        descending = bool(trial % 2)
        mine, theirs = pg.tensor(values), torch.tensor(values)
        _same(pg.sort(mine, descending=descending, stable=stable).indices,
              torch.sort(theirs, descending=descending, stable=stable).indices)
        _same(pg.argsort(mine, descending=descending, stable=stable),
              torch.argsort(theirs, descending=descending, stable=stable))


def test_topk_leaves_ties_where_torch_does():
    """Every k (nth_element, then a sort of the first k - 1) and a small k in a long row
    (partial_sort), largest and smallest, sorted and not."""
    for trial, rng, values in _rows_with_ties(12, 250, 150):
        k = int(rng.integers(0, values.size + 1))
        largest, ordered = bool(rng.integers(0, 2)), bool(trial % 7)
        _same(pg.topk(pg.tensor(values), k, largest=largest, sorted=ordered).indices,
              torch.topk(torch.tensor(values), k, largest=largest, sorted=ordered).indices)


def test_ties_along_either_dim_of_a_matrix_and_in_long_rows():
    rng = np.random.default_rng(13)
    matrix = rng.integers(0, 3, (5, 40)).astype(np.float32)
    for dim in (0, 1):
        _same(pg.sort(pg.tensor(matrix), dim=dim).indices,
              torch.sort(torch.tensor(matrix), dim=dim).indices)
        _same(pg.topk(pg.tensor(matrix), 3, dim=dim).indices,
              torch.topk(torch.tensor(matrix), 3, dim=dim).indices)
    long_row = rng.integers(0, 7, 3000).astype(np.float32)
    for k in (1, 5, 40):
        _same(pg.topk(pg.tensor(long_row), k, largest=False).indices,
              torch.topk(torch.tensor(long_row), k, largest=False).indices)
    _same(pg.sort(pg.tensor(long_row), descending=True).indices,
          torch.sort(torch.tensor(long_row), descending=True).indices)
