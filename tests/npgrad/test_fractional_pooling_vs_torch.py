"""F.fractional_max_pool2d/3d and their modules against torch run here: the windows torch's
samples place (given, or drawn from the generator, which leaves it where torch leaves it),
values and indices, NaN, gradients where windows overlap, the double backward, and torch's
errors."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as npgrad

torch = pytest.importorskip("torch")

CASES = [  # (input shape, kernel, output size): 2-D pooling, then 3-D, batched or not
    ((1, 1, 5, 7), 2, (3, 4)),
    ((2, 3, 9, 8), (3, 2), (4, 6)),
    ((3, 10, 10), 2, 5),
    ((2, 2, 6, 7, 8), 2, (3, 4, 5)),
    ((2, 5, 6, 5), (2, 3, 2), (2, 3, 3)),
]


def _both(shape, dtype, seed):
    values = torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(seed))
    return values.requires_grad_(), npgrad.tensor(values.detach().numpy(), requires_grad=True)


def _functions(size):
    dims = 2 if isinstance(size, int) else len(size)
    return dims, getattr(torch.nn.functional, f"fractional_max_pool{dims}d"), \
        getattr(npgrad.nn.functional, f"fractional_max_pool{dims}d")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("shape, kernel, size", CASES)
def test_given_samples_as_torch(shape, kernel, size, dtype) -> None:
    theirs_in, mine_in = _both(shape, dtype, sum(shape))
    dims, theirs_f, mine_f = _functions(size)
    planes = (1 if len(shape) == dims + 1 else shape[0], shape[-dims - 1], dims)
    samples = torch.rand(planes, dtype=dtype, generator=torch.Generator().manual_seed(7))
    theirs, their_indices = theirs_f(theirs_in, kernel, size, return_indices=True,
                                     _random_samples=samples)
    mine, my_indices = mine_f(mine_in, kernel, size, return_indices=True,
                              _random_samples=npgrad.tensor(samples.numpy()))
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(my_indices.numpy(), their_indices.numpy())
    assert mine.grad_fn.name() == theirs.grad_fn.name()
    weights = torch.randn(theirs.shape, dtype=dtype, generator=torch.Generator().manual_seed(3))
    (theirs * weights).sum().backward()
    (mine * npgrad.tensor(weights.numpy())).sum().backward()
    np.testing.assert_array_equal(mine_in.grad.numpy(), theirs_in.grad.numpy())


def test_drawn_samples_and_the_generator_after_them() -> None:
    torch.manual_seed(5)
    npgrad.manual_seed(5)
    theirs_in, mine_in = _both((2, 3, 8, 8), torch.float32, 1)
    theirs = torch.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.7))(theirs_in)
    mine = npgrad.nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.7))(mine_in)
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())
    np.testing.assert_array_equal(npgrad.rand(4).numpy(), torch.rand(4).numpy())
    theirs = torch.nn.functional.fractional_max_pool3d(theirs_in[None], 2, output_ratio=0.5)
    mine = npgrad.nn.functional.fractional_max_pool3d(mine_in[None], 2, output_ratio=0.5)
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())


def test_nan_wins_and_the_last_nan_is_taken() -> None:
    values = torch.tensor([[[[1.0, float("nan"), 3.0], [float("nan"), 2.0, 0.0],
                             [5.0, 5.0, 1.0]]]])
    samples = torch.tensor([[[0.2, 0.6]]])
    theirs = torch.nn.functional.fractional_max_pool2d(values, 2, 2, return_indices=True,
                                                       _random_samples=samples)
    mine = npgrad.nn.functional.fractional_max_pool2d(
        npgrad.tensor(values.numpy()), 2, 2, return_indices=True,
        _random_samples=npgrad.tensor(samples.numpy()))
    np.testing.assert_array_equal(mine[0].numpy(), theirs[0].numpy())
    np.testing.assert_array_equal(mine[1].numpy(), theirs[1].numpy())


@pytest.mark.parametrize("shape", [(1, 2, 5, 7), (1, 1, 4, 5, 6)])
def test_double_backward_as_torch(shape) -> None:
    theirs_in, mine_in = _both(shape, torch.float64, 2)
    size = tuple(side - 2 for side in shape[2:])
    dims, theirs_f, mine_f = _functions(size)
    samples = torch.rand(1, shape[1], dims, dtype=torch.float64,
                         generator=torch.Generator().manual_seed(1))
    results = []
    for function, values, given in ((theirs_f, theirs_in, samples),
                                    (mine_f, mine_in, npgrad.tensor(samples.numpy()))):
        module = torch if function is theirs_f else npgrad
        out = function(values, 2, size, _random_samples=given)
        (grad,) = module.autograd.grad(out.pow(2).sum(), values, create_graph=True)
        (again,) = module.autograd.grad(grad.sin().sum(), values)
        results.append((grad.grad_fn.name(), grad.detach().numpy(), again.numpy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-12)
    np.testing.assert_allclose(results[1][2], results[0][2], rtol=1e-12)


ERRORS = [
    lambda F, x, s: F.fractional_max_pool2d(x, 2),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, output_ratio=0.5),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, (6, 4), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, (3, 7), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool2d(x, (2, 2, 2), (3, 4), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, (3, 4), _random_samples=s.float()),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, (3, 4), _random_samples=s[0, 0]),
    lambda F, x, s: F.fractional_max_pool2d(x, 2, (3, 4), _random_samples=s[:, :1]),
    lambda F, x, s: F.fractional_max_pool2d(x.expand(3, 2, 5, 7), 2, (3, 4), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool2d(x[:, :, :0], 2, (3, 4), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool2d(x[None], 2, (3, 4), _random_samples=s),
    lambda F, x, s: F.fractional_max_pool3d(x, 2, (2, 4, 3)),
    lambda F, x, s: F.fractional_max_pool3d(x, 2, (1, 2, 7)),
    lambda F, x, s: F.fractional_max_pool3d(x[0, 0], 2, (1, 2, 3)),
]


@pytest.mark.parametrize("make", ERRORS)
def test_errors_as_torch(make) -> None:
    x = torch.randn(1, 2, 5, 7, dtype=torch.float64)
    samples = torch.rand(1, 2, 2, dtype=torch.float64)
    with pytest.raises(Exception) as theirs:
        make(torch.nn.functional, x, samples)
    with pytest.raises(Exception) as mine:
        make(npgrad.nn.functional, npgrad.tensor(x.numpy()), npgrad.tensor(samples.numpy()))
    assert (type(mine.value).__name__, str(mine.value)) == \
        (type(theirs.value).__name__, str(theirs.value))


@pytest.mark.parametrize("arguments", [{}, {"output_size": 3, "output_ratio": 0.5},
                                       {"output_ratio": 1.5}, {"output_ratio": (0.5, 0)}])
def test_module_errors_as_torch(arguments) -> None:
    with pytest.raises(ValueError) as theirs:
        torch.nn.FractionalMaxPool2d(2, **arguments)
    with pytest.raises(ValueError) as mine:
        npgrad.nn.FractionalMaxPool2d(2, **arguments)
    assert str(mine.value) == str(theirs.value)
    assert repr(npgrad.nn.FractionalMaxPool3d(2, output_size=2)) == \
        repr(torch.nn.FractionalMaxPool3d(2, output_size=2))
