"""Matrix products bit for bit as torch's CPU build adds them up (its calls of MKL's gemm,
gemv, dot and batched gemm, taken from torch's own library, and bmm's own loop for small
products: npgrad/_blas.py), against torch run here: mm and addmm of every layout torch tells
apart (row- and column-major, strided, a single row or column), alpha and beta; mv, dot, bmm
and batched matmul (attention's q kᵀ) with their gradients; nn.Linear's forward and gradients;
and a small network trained for 40 steps with Adam (its sqrt is torch's kernel's too) ending
on torch's parameters."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _blas, _compiled, _vml

pytestmark = pytest.mark.skipif(not _vml.available(),
                                reason="torch (with its MKL) is not installed here")


def _compiled_here() -> bool:
    return _compiled.kernels is not None


SIDES = [(1, 7, 5), (6, 1, 4), (5, 9, 1), (1, 1, 1), (17, 33, 9), (64, 100, 50), (3, 300, 2)]


def _layouts(torch, engine, values: np.ndarray):
    """The same matrix made the same way in torch and in the engine: row-major,
    column-major, every other column of a wider one."""
    wide = np.repeat(values, 2, axis=1)
    pairs = [(torch.tensor(values), engine.tensor(values))]
    pairs.append(tuple(m.tensor(values).t().contiguous().t() for m in (torch, engine)))
    pairs.append(tuple(m.tensor(wide)[:, ::2] for m in (torch, engine)))
    for real, ours in pairs:
        assert real.stride() == ours.stride()
        yield real, ours


def _same_bits(given: np.ndarray, expected: np.ndarray) -> None:
    assert given.shape == expected.shape and given.dtype == expected.dtype
    assert np.array_equal(given.reshape(-1).view(np.uint8),
                          np.ascontiguousarray(expected).reshape(-1).view(np.uint8)), \
        int((given != expected).sum())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sides", SIDES)
def test_mm_and_addmm_of_every_layout(sides, dtype, torch, engine):
    rows, inner, columns = sides
    rng = np.random.default_rng(sum(sides))
    left = rng.standard_normal((rows, inner)).astype(dtype)
    right = rng.standard_normal((inner, columns)).astype(dtype)
    bias = rng.standard_normal(columns).astype(dtype)
    for real_left, a in _layouts(torch, engine, left):
        for real_right, b in _layouts(torch, engine, right):
            _same_bits(engine.mm(a, b).numpy(), torch.mm(real_left, real_right).numpy())
            for beta, alpha in ((1, 1), (0.5, -2), (0, 3)):
                expected = torch.addmm(torch.from_numpy(bias), real_left, real_right,
                                       beta=beta, alpha=alpha)
                given = engine.addmm(engine.tensor(bias), a, b, beta=beta, alpha=alpha)
                _same_bits(given.numpy(), expected.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mv_and_dot_of_every_layout(dtype, torch, engine):
    rng = np.random.default_rng(7)
    for rows, columns in ((1, 9), (9, 1), (13, 40), (64, 100)):
        values = rng.standard_normal((rows, columns)).astype(dtype)
        vector = rng.standard_normal(columns).astype(dtype)
        other = rng.standard_normal(columns).astype(dtype)
        for real_matrix, our_matrix in _layouts(torch, engine, values):
            for steps in (1, 3):  # (contiguous, every third of a longer one)
                real_vector, our_vector = (m.tensor(np.repeat(vector, steps))[::steps]
                                           for m in (torch, engine))
                _same_bits(engine.mv(our_matrix, our_vector).numpy(),
                           torch.mv(real_matrix, real_vector).numpy())
                _same_bits((our_vector @ engine.tensor(other)).numpy(),
                           (real_vector @ torch.tensor(other)).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sides", [(3, 4, 5, 6), (2, 17, 33, 9), (1, 20, 30, 10), (5, 8, 64, 8),
                                   (4, 1, 50, 9)])
def test_bmm_small_and_large_with_gradients(sides, dtype, torch, engine):
    """Under 400 multiply-adds a product is bmm's own loop, past it MKL's batched gemm (one
    gemm for a batch of one); an operand transposed as attention's kᵀ is."""
    count, rows, inner, columns = sides
    rng = np.random.default_rng(sum(sides))
    left = rng.standard_normal((count, rows, inner)).astype(dtype)
    right = rng.standard_normal((count, columns, inner)).astype(dtype)
    grad = rng.standard_normal((count, rows, columns)).astype(dtype)
    results = []
    for module in (torch, engine):
        a = module.tensor(left, requires_grad=True)
        b = module.tensor(right, requires_grad=True)
        product = module.bmm(a, b.transpose(1, 2))
        product.backward(module.tensor(grad))
        batched = module.matmul(a.detach().unsqueeze(0).expand(2, *a.shape), b.mT.detach())
        results.append([product.detach().numpy(), a.grad.numpy(), b.grad.numpy(),
                        batched.numpy()])
    for given, expected in zip(results[1], results[0], strict=True):
        _same_bits(given, expected)


def test_numpys_own_product_would_differ(torch):
    """The reason for all this: NumPy's BLAS adds the same float32 products in another order."""
    rng = np.random.default_rng(0)
    left, right = (rng.standard_normal(shape).astype(np.float32) for shape in ((64, 100),
                                                                                (100, 50)))
    expected = (torch.from_numpy(left) @ torch.from_numpy(right)).numpy()
    assert np.array_equal(_blas.matrix_product(left, right), expected)
    assert not np.array_equal(left @ right, expected)


def test_linear_layers_forward_and_gradients(torch, engine):
    rng = np.random.default_rng(1)
    inputs = rng.standard_normal((2, 12, 20)).astype(np.float32)
    for module in (torch, engine):
        module.manual_seed(0)
    real, ours = torch.nn.Linear(20, 30), engine.nn.Linear(20, 30)
    real_x = torch.from_numpy(inputs).requires_grad_()
    our_x = engine.tensor(inputs, requires_grad=True)
    real_y, our_y = real(real_x), ours(our_x)
    _same_bits(our_y.detach().numpy(), real_y.detach().numpy())
    (real_y.tanh() * real_y).sum().backward()
    (our_y.tanh() * our_y).sum().backward()
    for given, expected in ((our_x.grad, real_x.grad), (ours.weight.grad, real.weight.grad),
                            (ours.bias.grad, real.bias.grad)):
        _same_bits(given.numpy(), expected.numpy())


TRAINING = """
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 16), nn.ReLU(),
                      nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(64, 10)
y = (x[:, :1] * 2).sin()
for step in range(40):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item(), model[0].weight[0].tolist(), model[4].bias.tolist())
"""


def test_a_trained_network_ends_on_torchs_parameters(tmp_path):
    from tests.oracle import assert_playground_prints_as_torch

    assert_playground_prints_as_torch(TRAINING, tmp_path)


def _twin_layouts(values: np.ndarray):
    """Row- and column-major, every other column, reversed rows (strides gemm cannot read:
    copied) and a row broadcast down (stride 0: copied too)."""
    yield values
    yield np.asfortranarray(values)
    yield np.repeat(values, 2, axis=1)[:, ::2]
    yield values[::-1]
    yield np.broadcast_to(values[:1], values.shape)


@pytest.mark.skipif(not _compiled_here(), reason="the C module is not built here")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("sides", [(1, 7, 5), (6, 1, 4), (5, 9, 1), (1, 1, 1), (17, 33, 9)])
def test_the_c_modules_gemm_call_is_the_ctypes_one(sides, dtype, monkeypatch):
    """The C module's gemm_product and the ctypes call it stands in for give the same bits
    for every layout, the ones it leaves to the ctypes call (a copy) too."""
    rows, inner, columns = sides
    rng = np.random.default_rng(sum(sides) + 1)
    left = rng.standard_normal((rows, inner)).astype(dtype)
    right = rng.standard_normal((inner, columns)).astype(dtype)
    bias = rng.standard_normal(columns).astype(dtype)
    cases = [(a, b, beta, alpha) for a in _twin_layouts(left) for b in _twin_layouts(right)
             for beta, alpha in ((1, 1), (0.5, -2), (0, 3))]
    compiled = [_blas.matrix_product(a, b, np.broadcast_to(bias, (rows, columns)), beta, alpha)
                for a, b, beta, alpha in cases]
    monkeypatch.setattr(_compiled, "kernels", None)
    for (a, b, beta, alpha), given in zip(cases, compiled, strict=True):
        _same_bits(given, _blas.matrix_product(a, b, np.broadcast_to(bias, (rows, columns)),
                                               beta, alpha))


@pytest.mark.skipif(not _compiled_here(), reason="the C module is not built here")
def test_the_c_modules_gemm_call_refuses_what_it_cannot_take():
    gemm = _blas._address(np.dtype(np.float32), _blas._GEMM)
    left, right = np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)
    assert _compiled.kernels.gemm_product(gemm, left, right, np.zeros((2, 4), np.float32), 1, 0)
    assert not _compiled.kernels.gemm_product(gemm, left[::-1], right,
                                              np.zeros((2, 4), np.float32), 1, 0)
    for result in (np.zeros((2, 4)), np.zeros((4, 2), np.float32),
                   np.zeros((2, 8), np.float32)[:, ::2], np.zeros((2, 4), np.int32)):
        with pytest.raises(ValueError, match="row-major result"):
            _compiled.kernels.gemm_product(gemm, left, right, result, 1, 0)
    with pytest.raises(ValueError, match="row-major result"):
        _compiled.kernels.gemm_product(gemm, left.astype(np.int32), right.astype(np.int32),
                                       np.zeros((2, 4), np.int32), 1, 0)
