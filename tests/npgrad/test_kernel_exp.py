"""torch's float32 sigmoid and silu bit for bit: Sleef's expf on the elements torch's vector
loop covers (in C, and its NumPy twin, equal bit for bit), e^x rounded once on the rest,
each layout visited in torch's loop order. The oracle is torch, run live here."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _compiled, _kernel_exp
from tests.oracle import kernels_reproduced

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -87.3, -103.9, -104.0,
                    -104.01, 100.0, 100.01, 1e-30, -1e-30, 3.4e38, -3.4e38, 0.3465736],
                   np.float32)


def _samples(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.concatenate([(rng.normal(size=count) * 30).astype(np.float32), SPECIAL])


def test_the_c_kernel_and_its_numpy_twin_agree_bit_for_bit():
    if _compiled.kernels is None:
        pytest.skip("the C kernels were not built here (no C compiler at install)")
    for length in (1, 7, 8, 9, 17, 1000):  # the vector loop and its scalar remainder
        values = _samples(length, seed=length)
        twin = _kernel_exp.sleef_expf(values)
        compiled = _kernel_exp.sleef_expf_fast(values)
        assert np.array_equal(twin.view(np.uint32), compiled.view(np.uint32))


def test_the_twin_is_sleefs_expf_within_one_ulp_of_e_to_the_x():
    values = _samples(20000)
    values = values[np.abs(values) < 80]
    got = _kernel_exp.sleef_expf(values).astype(np.float64)
    exact = np.exp(values.astype(np.float64))
    ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - exact) <= ulp)
    assert _kernel_exp.sleef_expf(SPECIAL[:5]).tolist()[:4] == [1.0, 1.0, np.inf, 0.0]


def test_loop_order_merges_the_runs_torch_merges():
    grid = np.zeros((4, 6, 5), np.float32)
    assert _kernel_exp.loop_order(grid) == ([0, 1, 2], 120)
    assert _kernel_exp.loop_order(grid.transpose(2, 0, 1))[1] == 120  # dense: memory order
    assert _kernel_exp.loop_order(grid[:, :3]) == ([0, 1, 2], 15)
    assert _kernel_exp.loop_order(grid[:, :, ::2])[1] == 0  # strided rows: no vector loop
    expanded = np.broadcast_to(np.zeros(30, np.float32), (40, 30))  # stride 0: kept in place
    assert _kernel_exp.loop_order(expanded) == ([0, 1], 30)


LAYOUTS = {
    "contiguous": lambda a: a,
    "transposed": lambda a: a.T,
    "column slice": lambda a: a[:, :20],
    "strided": lambda a: a[:, ::2],
    "merged rows": lambda a: a.reshape(40, 3, 10)[:, :2],
    "expanded": lambda a: a[:1].expand(40, 30),
    "permuted": lambda a: a.reshape(4, 10, 30).permute(2, 0, 1),
}


@pytest.mark.parametrize("length", [1, 15, 16, 17, 31, 32, 33, 47, 100, 4099, 32768])
def test_sigmoid_and_silu_are_torchs_bit_for_bit(length, torch, engine):
    if not kernels_reproduced(torch):
        pytest.skip("torch runs other kernels here than the ones npgrad reproduces")
    values = (np.random.default_rng(length).normal(size=length) * 4).astype(np.float32)
    values[:3] = [0.0, -110.0, 95.0][:length] if length >= 3 else values[:3]
    _assert_same(torch, engine, values, lambda m, t: m.sigmoid(t))
    _assert_same(torch, engine, values, lambda m, t: m.nn.functional.silu(t))


@pytest.mark.parametrize("layout", list(LAYOUTS), ids=list(LAYOUTS))
def test_each_layout_is_visited_in_torchs_order(layout, torch, engine):
    if not kernels_reproduced(torch):
        pytest.skip("torch runs other kernels here than the ones npgrad reproduces")
    values = (np.random.default_rng(3).normal(size=(40, 30)) * 4).astype(np.float32)
    view = LAYOUTS[layout]
    _assert_same(torch, engine, values, lambda m, t: m.sigmoid(view(t)))
    _assert_same(torch, engine, values, lambda m, t: m.nn.functional.silu(view(t)))


def test_the_numpy_twin_alone_gives_torchs_bits(torch, engine, monkeypatch):
    if not kernels_reproduced(torch):
        pytest.skip("torch runs other kernels here than the ones npgrad reproduces")
    monkeypatch.setattr(_compiled, "kernels", None)
    values = (np.random.default_rng(9).normal(size=1000) * 4).astype(np.float32)
    _assert_same(torch, engine, values, lambda m, t: m.sigmoid(t))


def _assert_same(torch, engine, values, call) -> None:
    expected = call(torch, torch.tensor(values)).numpy()
    got = call(engine, engine.tensor(values)).numpy()
    assert np.array_equal(expected.view(np.uint32), got.view(np.uint32))
