"""``torch.histogram`` and ``torch.histogramdd`` on the NumPy engine against torch run here:
counts, weights, density, edges given or spread over a range, values on edges, torch's
NotImplemented nodes and its errors in its order."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_histograms_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch

y = torch.tensor([1., 2, 1, 4, 2.5])
print(torch.histogram(y, bins=4))
print(y.histogram(3, range=(0., 3.), density=True))
print(torch.histogram(y, bins=torch.tensor([0., 1.5, 2, 5]),
                      weight=torch.tensor([1., 2, 3, 4, 5])))
print(torch.histogram(torch.ones(3), bins=2), torch.histogram(torch.tensor([]), bins=2))
r = torch.histogram(y, 2)
print(type(r), r.hist, r[1], len(r))
print(torch.histogram(y.view(5, 1), 2, weight=torch.ones(1, 5)))
print(torch.histogram(y, 3, weight=torch.tensor([1., 2, 3, 4, 5]), density=True))
print(torch.histogram(y.double(), torch.tensor([0., 1.5, 2, 5], dtype=torch.float64),
                      density=True))
print(torch.histogram(y, 2, range=[0, 3]), torch.histogram(torch.tensor(3.), 2))
print(torch.histogram(y, 4, range=(1., 1.)))
print(torch.histogram(torch.tensor([]), torch.tensor([0., 1.]), density=True))
print(torch.histogram(torch.tensor([2., 1.5]), torch.tensor([2., 1.])))
print(torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3]))
print(torch.histogramdd(torch.arange(8.).view(4, 2), [2, 3], range=[0., 1., 0, 6],
                        density=True))
edges = [torch.tensor([0., 3, 7]), torch.tensor([0., 2, 8])]
r = torch.histogramdd(torch.arange(8.).view(2, 2, 2), edges,
                      weight=torch.tensor([[1., 2], [3, 4]]))
print(r, r.bin_edges[0] is edges[0])
x = torch.tensor([[1., 2], [1, 4], [2.5, 0]], requires_grad=True)
for r in (torch.histogram(x, 3), torch.histogramdd(x, 2),
          torch.histogramdd(x, [torch.tensor([0., 1, 5])] * 2)):
    edges = r.bin_edges if isinstance(r.bin_edges, tuple) else [r.bin_edges]
    print(r.hist.grad_fn.name(), [e.grad_fn.name() if e.grad_fn else None for e in edges])
    try:
        r.hist.sum().backward()
    except RuntimeError as e:
        print(e)
L = y.long()
wide = torch.ones(2, dtype=torch.float64)
for call in [
    lambda: torch.histogram(L, 0),
    lambda: torch.histogram(L, 2, range=(3., 1.)),
    lambda: torch.histogram(L, torch.tensor([1, 2])),
    lambda: torch.histogram(y, 0, range=(3., 1.)),
    lambda: torch.histogram(y, 2, range=(3., 1.), weight=torch.ones(2)),
    lambda: torch.histogram(y, torch.tensor([]),),
    lambda: torch.histogram(y, 2, range=(float('nan'), 1.)),
    lambda: torch.histogram(y, 2, range=(float('-inf'), 1.)),
    lambda: torch.histogramdd(y, 2),
    lambda: torch.histogramdd(y.view(5, 1), [2, 3]),
    lambda: torch.histogramdd(y.view(5, 1), [torch.tensor([1., 2]), torch.tensor([1., 2])]),
    lambda: torch.histogramdd(torch.rand(4, 2), [2, 3], range=[0., 1.]),
    lambda: torch.histogramdd(torch.rand(4, 2), 2, weight=torch.ones(4, 1)),
    lambda: torch.histogramdd(L.view(5, 1), [2]),
    lambda: torch.histogramdd(y.view(5, 1), 0),
    lambda: torch.histogram(y, 2, weight=wide),
    lambda: torch.histogram(L, 2, weight=wide),
    lambda: torch.histogram(y, torch.tensor([1, 2])),
    lambda: torch.histogram(y, torch.tensor([[1., 2]])),
    lambda: torch.histogram(y, 2, weight=torch.ones(2)),
    lambda: torch.histogram(torch.tensor([1., float('nan')]), 2),
    lambda: torch.histogram(y.half(), 2),
    lambda: torch.histogram(y, 2, range=(1.,)),
    lambda: torch.histogram(torch.tensor([5.]), 2, range=(0., 1.), density=True),
]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
''', tmp_path)


def test_values_on_and_near_the_edges_fall_in_torchs_bins(tmp_path):
    """Evenly spaced edges are found from the value's distance to the first edge, then
    corrected by the neighbouring edges: values a rounding away from an edge are where torch
    counts them, in float32 and float64, ranges given and taken from the data."""
    assert_playground_prints_as_torch('''
import numpy as np
import torch

rng = np.random.default_rng(0)
for trial in range(300):
    scale = [1, 1e-3, 1e3, 0.1][trial % 4]
    dtype = [torch.float32, torch.float64][trial % 2]
    v = torch.tensor(rng.uniform(-3, 3, 40) * scale, dtype=dtype)
    v[::7] = torch.round(v[::7] * 4) / 4
    v[1::9] = v[::9] * 0.1
    bins = int(rng.integers(1, 30))
    if trial % 3 == 0:
        r = torch.histogram(v, bins, range=(-2 * scale, 2 * scale))
    else:
        r = torch.histogram(v, bins)
    print(r.hist.tolist(), r.bin_edges.tolist())
''', tmp_path)
