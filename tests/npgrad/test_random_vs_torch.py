"""torch's random numbers on the NumPy engine: after ``manual_seed(s)`` every random function
draws exactly torch's values (bit for bit where torch runs its AVX2/AVX-512 kernels, see
tests/oracle.py), for 100 seeds, sizes 1-1000, float32 and float64, and the generator's state
round-trips through torch's own bytes."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from tests.oracle import kernels_reproduced

torch = pytest.importorskip("torch")

SEEDS = range(100)
# every size around the switch to the 16-wide algorithm and its tail, then some larger ones
SIZES = (1, 2, 3, 5, 8, 15, 16, 17, 23, 31, 32, 33, 47, 64, 100, 255, 256, 257, 999, 1000)
# (the other functions: 1, a few around their switches, and 1000; every one over all SEEDS)
FLOATS = ("float32", "float64")


def _same(mine: pg.Tensor, theirs) -> bool:
    """The same dtype and bits; under torch's other kernels the same words drawn, turned into
    numbers without fused multiply-adds and with libm's log/sin/cos: the same numbers within
    1e-5 of the largest one (measured there: randn 1.3e-6 absolute at most, scaled by std)."""
    if mine.dtype.__repr__() != repr(theirs.dtype):
        return False
    a, b = mine.numpy(), theirs.numpy()
    if kernels_reproduced(torch) or a.dtype.kind != "f":
        return np.array_equal(a, b)
    scale = max(1.0, float(np.max(np.abs(b), initial=0.0)))
    return a.shape == b.shape and float(np.max(np.abs(a - b), initial=0.0)) <= 1e-5 * scale


def _both(seed: int, draw) -> tuple:
    """``draw(module)`` under each engine, both seeded alike; two calls, so that what one
    draw leaves behind (the cached normal number) shows in the next."""
    torch.manual_seed(seed)
    pg.manual_seed(seed)
    return (draw(pg), draw(pg)), (draw(torch), draw(torch))


def _check(draw, seeds=SEEDS):
    failures = []
    for seed in seeds:
        mine, theirs = _both(seed, draw)
        for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if not _same(a, b):
                failures.append((seed, index))
    assert not failures, f"differs from torch for (seed, call): {failures[:10]}"


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("function", ["rand", "randn"])
def test_rand_and_randn_match_torch_for_every_seed_and_size(function, dtype):
    for size in SIZES:
        _check(lambda t, size=size: getattr(t, function)(size, dtype=getattr(t, dtype)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_shaped_and_strided_draws_match_torch(dtype):
    _check(lambda t: t.randn(4, 5, 3, dtype=getattr(t, dtype)))
    # a strided view draws one by one even past 16 elements
    _check(lambda t: t.zeros(6, 5, dtype=getattr(t, dtype)).t().normal_(1.5, 0.25))


@pytest.mark.parametrize("dtype", FLOATS)
def test_uniform_normal_and_exponential_in_place_match_torch(dtype):
    for size in (1, 7, 16, 40, 1000):
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).uniform_(-0.37, 0.81))
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).normal_(0.3, 2.5))
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).exponential_(1.5))


def test_half_uniforms_are_floats_rounded_as_torchs():
    """torch 2.13 draws a half tensor's uniform numbers as float32's (24 bits, not 11),
    then rounds them to half."""
    for size in (1, 3, 16, 33, 1000):
        _check(lambda t, s=size: t.rand(s, dtype=t.float16), seeds=range(20))
        _check(lambda t, s=size: t.empty(s, dtype=t.float16).uniform_(-2, 0.7), seeds=range(20))
    _check(lambda t: t.empty(3, 4, dtype=t.float16).t().uniform_(), seeds=range(20))


def test_half_normals_draw_whole_blocks_first_then_the_tail_as_torch():
    """A half tensor's normals are float32's rounded, but its first draw is of the whole
    blocks of 16 only (a float tensor's is of every number): the tail's 16 come after."""
    for size in (16, 17, 20, 36, 100):
        _check(lambda t, s=size: t.randn(s, dtype=t.float16), seeds=range(10))
        _check(lambda t, s=size: t.empty(s, dtype=t.float16).normal_(0.5, 2.0), seeds=range(10))


def test_half_tensors_take_float64_draws_through_float_as_torch():
    """Two roundings (double → float → half) differ from one for about 1 draw in 20,000."""
    _check(lambda t: t.empty(1000, dtype=t.float16).exponential_(1.5))


@pytest.mark.parametrize("dtype", (*FLOATS, "float16"))
def test_cauchy_log_normal_and_geometric_in_place_match_torch(dtype):
    """log_normal_ draws its normals pair by pair at every size (not normal_'s blocks of 16),
    and leaves normal_'s spare number behind; geometric_ fills integers as well."""
    for size in (1, 7, 16, 40, 1000):
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).cauchy_(-0.5, 0.75))
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).log_normal_(0.3, 0.6))
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).geometric_(0.2))
    _check(lambda t: (t.empty(3, dtype=getattr(t, dtype)).log_normal_(), t.randn(3))[1])
    _check(lambda t: t.empty(2, 9, dtype=t.int64).geometric_(0.05))
    _check(lambda t: t.empty(9, dtype=t.uint8).geometric_(0.5))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "float32", "float64"])
def test_whole_number_draws_match_torch(dtype):
    for size in (1, 5, 1000):
        _check(lambda t, s=size: t.randint(-3, 10, (s,), dtype=getattr(t, dtype)
                                           if dtype != "uint8" else t.int64))
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).random_())
        _check(lambda t, s=size: t.empty(s, dtype=getattr(t, dtype)).random_(7))
    # a range past 2**32 takes two words per number
    _check(lambda t: t.randint(0, 2**40, (9,)))


def test_randperm_matches_torch():
    for size in (0, 1, 2, 3, 10, 100, 1000):
        _check(lambda t, s=size: t.randperm(s))


def test_bernoulli_matches_torch():
    for size in (1, 17, 1000):
        _check(lambda t, s=size: t.empty(s).bernoulli_(0.3))
        _check(lambda t, s=size: t.bernoulli(t.linspace(0, 1, s)))
        _check(lambda t, s=size: t.bernoulli(t.linspace(0, 1, s, dtype=t.float64)))
    _check(lambda t: t.zeros(3, 4).bernoulli_(t.tensor([0.1, 0.5, 0.9, 1.0])))


def test_multinomial_matches_torch():
    rows = [[0.1, 0.2, 0.3, 0.4, 0.05], [1.0, 0.0, 3.0, 2.0, 0.5]]
    _check(lambda t: t.multinomial(t.tensor(rows[0]), 1))
    _check(lambda t: t.multinomial(t.tensor(rows), 3))
    _check(lambda t: t.multinomial(t.tensor(rows), 20, replacement=True))
    _check(lambda t: t.multinomial(t.tensor(rows[1], dtype=t.float64), 7, replacement=True))
    _check(lambda t: t.multinomial(t.arange(1.0, 1001.0), 1000, replacement=True))
    _check(lambda t: t.multinomial(t.arange(1.0, 1001.0), 1))


def test_normal_functions_match_torch():
    _check(lambda t: t.normal(t.tensor([1.0, 2.0, 3.0]), t.tensor([0.5, 0.5, 2.0])))
    for size in (1, 40, 1000):
        _check(lambda t, s=size: t.normal(2.0, 3.0, size=(s,)))
        _check(lambda t, s=size: t.normal(t.arange(float(s)), 2.0))
        _check(lambda t, s=size: t.normal(1.0, t.arange(1.0, s + 1.0)))


def test_an_unseeded_stream_starts_anew_in_each_process_as_torchs():
    """torch 2.13 seeds its default stream from the system's entropy, one seed per process of
    64 bits; a Generator() it makes starts at its fixed seed. The engine, in fresh processes,
    does the same."""
    import subprocess
    import sys

    script = ("import sys\nimport {0} as torch\n"
              "print(torch.initial_seed(), torch.Generator().initial_seed(), "
              "torch.rand(2).tolist())")
    for module in ("torch", "playground.npgrad"):
        runs = [subprocess.run([sys.executable, "-c", script.format(module)], check=True,
                               capture_output=True, text=True).stdout.split(" ", 2)
                for _ in range(2)]
        assert runs[0][0] != runs[1][0] and runs[0][2] != runs[1][2], module
        assert runs[0][1] == runs[1][1] == str(torch.Generator().initial_seed()), module
        assert all(0 <= int(run[0]) < 2**64 for run in runs)


def test_generator_argument_and_streams_are_separate():
    def draw(t):
        g = t.Generator().manual_seed(2147483647)
        return t.cat([t.randn(5, generator=g), t.rand(3, generator=g),
                      t.randint(0, 27, (4,), generator=g).float(),
                      t.multinomial(t.ones(27) / 27, 3, replacement=True, generator=g).float(),
                      t.randn(2)])
    _check(draw, seeds=range(5))


def test_rng_state_bytes_match_torch_and_restore():
    for seed in (0, 7, 2**40 + 3):
        torch.manual_seed(seed)
        pg.manual_seed(seed)
        assert pg.get_rng_state().numpy().tobytes() == torch.get_rng_state().numpy().tobytes()
        pg.randn(3, dtype=pg.float64)
        torch.randn(3, dtype=torch.float64)  # leaves a cached normal number behind
        state = pg.get_rng_state()
        assert state.numpy().tobytes() == torch.get_rng_state().numpy().tobytes()
        first = pg.randn(5)
        pg.set_rng_state(state)
        assert np.array_equal(first.numpy(), pg.randn(5).numpy())
        pg.set_rng_state(torch.get_rng_state().numpy() if False else state)
        torch_state = torch.get_rng_state()
        pg.set_rng_state(pg.tensor(torch_state.numpy()))
        assert np.array_equal(pg.rand(700).numpy(), torch.rand(700).numpy())


def test_seeds_wrap_as_torch_and_messages_match():
    assert pg.manual_seed(-1).initial_seed() == torch.manual_seed(-1).initial_seed()
    assert pg.initial_seed() == torch.initial_seed()
    torch.manual_seed(0)
    cases = [
        (lambda t: t.manual_seed(2**64), ValueError),
        (lambda t: t.randint(5, 3, (2,)), RuntimeError),
        (lambda t: t.empty(2).uniform_(3, 1), RuntimeError),
        (lambda t: t.empty(2).normal_(0, -1), RuntimeError),
        (lambda t: t.set_rng_state(t.zeros(10, dtype=t.uint8)), RuntimeError),
        (lambda t: t.set_rng_state(t.zeros(5056)), TypeError),
        (lambda t: t.multinomial(t.tensor([0.0, 0.0]), 1), RuntimeError),
        (lambda t: t.multinomial(t.tensor([1.0, 1.0]), 3), RuntimeError),
        (lambda t: t.multinomial(t.tensor([1.0, -1.0]), 1), RuntimeError),
        (lambda t: t.multinomial(t.ones(2, 2, 2), 1), RuntimeError),
        (lambda t: t.empty(2).bernoulli_(1.5), RuntimeError),
        (lambda t: t.bernoulli(t.tensor([1.5])), RuntimeError),
        (lambda t: t.rand(2, dtype=t.int64), NotImplementedError),
        (lambda t: t.empty(3, dtype=t.int64).normal_(), NotImplementedError),
        (lambda t: t.empty(3).exponential_(-1), RuntimeError),
        (lambda t: t.empty(3).cauchy_(0.0, 0.0), RuntimeError),
        (lambda t: t.empty(3, dtype=t.int64).cauchy_(0.0, -1.5), RuntimeError),
        (lambda t: t.empty(3, dtype=t.int16).cauchy_(), RuntimeError),
        (lambda t: t.empty(3, dtype=t.bool).cauchy_(), RuntimeError),
        (lambda t: t.empty(3, dtype=t.complex64).cauchy_(), RuntimeError),
        (lambda t: t.empty(3).log_normal_(1.0, -2), RuntimeError),
        (lambda t: t.empty(3, dtype=t.int32).log_normal_(), NotImplementedError),
        (lambda t: t.empty(3).geometric_(1), RuntimeError),
        (lambda t: t.empty(3).geometric_(0.0), RuntimeError),
        (lambda t: t.empty(3, dtype=t.bool).geometric_(0.5), NotImplementedError),
        (lambda t: t.empty(3, dtype=t.complex128).geometric_(2), RuntimeError),
        (lambda t: t.empty(3, dtype=t.complex128).geometric_(0.5), NotImplementedError),
        (lambda t: t.ones(2, requires_grad=True).cauchy_(), RuntimeError),
        (lambda t: t.normal(0.0, 1.0), TypeError),
        (lambda t: t.ones(2, requires_grad=True).uniform_(), RuntimeError),
    ]
    for action, kind in cases:
        with pytest.raises(kind) as theirs:
            action(torch)
        with pytest.raises(kind) as mine:
            action(pg)
        assert str(mine.value) == str(theirs.value)


def test_printed_seeded_tensors_match_torch():
    torch.manual_seed(0)
    pg.manual_seed(0)
    for shape in ((3,), (2, 3), (20,)):
        assert repr(pg.randn(*shape)) == repr(torch.randn(*shape))
        assert repr(pg.rand(*shape)) == repr(torch.rand(*shape))


def _parameters(module) -> list:
    return [p.detach() for p in module.parameters()]


def test_layers_start_from_torch_weights():
    def layers(t):
        return [t.nn.Linear(5, 3), t.nn.Linear(300, 2, bias=False), t.nn.Conv2d(3, 4, 3),
                t.nn.Conv2d(4, 4, (2, 3), groups=2), t.nn.Embedding(10, 4, padding_idx=2),
                t.nn.Linear(3, 2, dtype=t.float64)]

    for seed in range(20):
        mine, theirs = _both(seed, lambda t: t.cat([p.reshape(-1).double()
                                                     for layer in layers(t)
                                                     for p in _parameters(layer)]))
        assert all(_same(a, b) for a, b in zip(mine, theirs, strict=True)), seed


@pytest.mark.parametrize("name, options", [
    ("uniform_", {"a": -2.0, "b": 0.5}), ("normal_", {"mean": 1.0, "std": 0.1}),
    ("xavier_uniform_", {"gain": 2.0}), ("xavier_normal_", {}),
    ("kaiming_uniform_", {"a": 0.2, "mode": "fan_out", "nonlinearity": "relu"}),
    ("kaiming_normal_", {"nonlinearity": "tanh"}), ("constant_", {"val": 0.25}),
    ("ones_", {}), ("zeros_", {}), ("eye_", {}), ("sparse_", {"sparsity": 0.3, "std": 0.5}),
])
def test_nn_init_matches_torch(name, options):
    def fill(t):
        weight = t.empty(7, 20, requires_grad=True)
        return getattr(t.nn.init, name)(weight, **options).detach()
    _check(fill, seeds=range(10))
    for nonlinearity in ("linear", "sigmoid", "tanh", "relu", "selu"):
        assert pg.nn.init.calculate_gain(nonlinearity) == \
            torch.nn.init.calculate_gain(nonlinearity)
    assert pg.nn.init.calculate_gain("leaky_relu", 0.3) == \
        torch.nn.init.calculate_gain("leaky_relu", 0.3)


def test_nn_inits_old_names_warn_and_fill_as_torchs():
    """``nn.init.xavier_uniform`` (no underscore, old tutorials): torch's FutureWarning, the
    same numbers."""
    for name in ("uniform", "normal", "xavier_uniform", "kaiming_normal", "orthogonal"):
        said = []
        for module in (pg, torch):
            module.manual_seed(7)
            with pytest.warns(FutureWarning) as warned:
                said.append((getattr(module.nn.init, name)(module.empty(3, 4)).numpy(),
                             str(warned[0].message), getattr(module.nn.init, name).__name__))
        # (orthogonal_'s QR runs in float64 here, in float32 in torch: ~1e-7 apart at this size)
        assert np.allclose(said[0][0], said[1][0], atol=1e-5) and said[0][1:] == said[1][1:]
    with pytest.warns(FutureWarning, match="`nn.init.sparse` is now deprecated"):
        pg.nn.init.sparse(pg.empty(4, 2), 0.5)


def test_dropout_masks_match_torch():
    def drop(t):
        x = t.ones(8, 30)
        return t.cat([t.nn.functional.dropout(x, 0.3), t.nn.Dropout(0.5)(x)])
    _check(drop, seeds=range(20))
