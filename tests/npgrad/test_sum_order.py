"""Sums and means add in torch's order (its cascade of vector lanes), so printed losses match."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as npgrad
from playground.npgrad import _compiled
from playground.npgrad._summation_order import SUM_LANES, _row_sum, _row_sum_twin, _scalar_sum
from tests.compiled import PARAMS, compiled_then_twin

torch = pytest.importorskip("torch")

SIZES = [*range(0, 70), 127, 128, 129, 255, 256, 1000, 1023, 1025, 4096, 5000, 16384, 32768]


@pytest.fixture(params=PARAMS)
def row_sums(request, monkeypatch):
    """Whole sums by the C kernel (_row_sum.c) where it was built, and by its NumPy twin."""
    return compiled_then_twin(request, monkeypatch, _compiled, "kernels", "the C kernels")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_sums_and_means_are_torchs_to_the_last_bit(dtype, row_sums):
    rng = np.random.default_rng(7)
    for size in SIZES:
        # magnitudes over six decades: the order of adding shows in the last bits
        data = (rng.normal(size=size) * 10.0 ** rng.integers(-3, 3, size=size)).astype(dtype)
        theirs, ours = torch.from_numpy(data), npgrad.from_numpy(data)
        assert ours.sum().item() == theirs.sum().item(), size
        if size:
            assert ours.mean().item() == theirs.mean().item(), size
        shaped = data.reshape(-1, 1) if size % 2 else data.reshape(1, -1)
        assert npgrad.from_numpy(shaped).sum(dim=(0, 1)).item() == \
            torch.from_numpy(shaped).sum(dim=(0, 1)).item(), size


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_twin_gives_the_kernels_bits(dtype):
    """The C kernel (_row_sum.c) and its twins add in the same order: the same bits for rows
    of every length up to the three levels of blocks, past torch's grain, and for magnitudes
    40 decades apart, signed zeros and infinities (rows shorter than a vector: _scalar_sum's,
    the kernel's own loop for them)."""
    if _compiled.kernels is None:
        pytest.skip("the C kernels were not built here")
    lanes, rng = SUM_LANES[np.dtype(dtype)], np.random.default_rng(5)
    specials = np.array([-0.0, 0.0, 1e30, -1e30, 3.0, np.inf], dtype)
    for size in [*range(0, 200), 511, 512, 513, 2000, 4097, 8192, 32769, 65537, 1 << 20]:
        for data in ((rng.normal(size=size) * 10.0 ** rng.integers(-20, 20, size)).astype(dtype),
                     rng.choice(specials[:5], size), rng.choice(specials, size)):
            compiled = _row_sum(data, lanes)
            assert type(compiled) is np.dtype(dtype).type
            twin = _scalar_sum(data.tolist(), data.dtype.type) if size < lanes else \
                _row_sum_twin(data, lanes)
            assert compiled.tobytes() == twin.tobytes(), (size, data)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_broadcast_scalars_gradient_is_summed_in_torchs_order(dtype):
    rng = np.random.default_rng(3)
    values = (rng.normal(size=300) * 10.0 ** rng.integers(-3, 3, size=300)).astype(dtype)
    grads = []
    for engine in (torch, npgrad):
        scale = engine.tensor(1.5, dtype=getattr(engine, dtype), requires_grad=True)
        (scale * engine.from_numpy(values) ** 2).sum().backward()
        grads.append(scale.grad.item())
    assert grads[0] == grads[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sums_shorter_than_a_vector_are_torchs_for_many_draws_and_signed_zeros(dtype,
                                                                               row_sums):
    """Fewer elements than a vector's lanes are added number by number (the path a loss of
    a few points takes every step): 400 draws of each size, and sums of -0.0 alone, by the
    C kernel and by its twin."""
    rng = np.random.default_rng(11)
    for size in range(1, 9):
        for draw in range(400):
            data = (rng.normal(size=size) * 10.0 ** rng.integers(-4, 4, size=size)).astype(dtype)
            if draw == 0:
                data[:] = -0.0
            theirs = torch.from_numpy(data).sum().numpy()
            ours = npgrad.from_numpy(data).sum().numpy()
            assert ours.tobytes() == theirs.tobytes(), (size, data)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sums_around_kept_dims_are_torchs(dtype):
    """Reduced dims before and after the kept ones (a batch norm from scratch: mean over
    (0, 2, 3)): each inner row summed, then the outer index's rows added one after another,
    for inner rows shorter and longer than a vector and batches large enough for threads."""
    rng = np.random.default_rng(8)
    for shape, dims in [((8, 6, 24, 24), (0, 2, 3)), ((64, 16, 28, 28), (0, 2, 3)),
                        ((7, 3, 2, 2), (0, 2, 3)), ((3, 4, 5, 6), (0, 1, 3)),
                        ((3, 4, 5, 6, 7), (0, 3, 4)), ((10, 2, 50), (0, 2))]:
        data = (rng.normal(size=shape) * 10.0 ** rng.integers(-2, 3, size=shape)).astype(dtype)
        theirs, ours = torch.from_numpy(data), npgrad.from_numpy(data)
        np.testing.assert_array_equal(ours.sum(dim=dims).numpy(), theirs.sum(dim=dims).numpy())
        np.testing.assert_array_equal(ours.mean(dim=dims, keepdim=True).numpy(),
                                      theirs.mean(dim=dims, keepdim=True).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_column_sums_of_a_few_rows_are_torchs(dtype):
    """A small batch's bias gradient: the sum down one to eight rows, of columns fewer and
    more than a vector holds, signed zeros and infinities among them (four rows or fewer take
    a short way of their own)."""
    rng = np.random.default_rng(12)
    for rows in range(1, 9):
        for columns in [*range(1, 20), 31, 32, 33, 64, 65, 100]:
            for draw in range(6):
                data = (rng.normal(size=(rows, columns)) *
                        10.0 ** rng.integers(-4, 4, size=(rows, columns))).astype(dtype)
                if draw == 0:
                    data[:] = -0.0
                if draw == 1:
                    data[rng.random(data.shape) < 0.3] = rng.choice([np.inf, -np.inf, -0.0])
                theirs = torch.from_numpy(data).sum(dim=0).numpy()
                ours = npgrad.from_numpy(data).sum(dim=0).numpy()
                assert ours.tobytes() == theirs.tobytes(), (rows, columns, data)
