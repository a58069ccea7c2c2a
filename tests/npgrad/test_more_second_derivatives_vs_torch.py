"""Second derivatives through a spatial transformer's sampling, a bilinear layer, a transposed
convolution, an embedding bag and the norm layers (their third too), against real torch run
here: the Hessian-vector product a gradient penalty takes, through every input, and the nodes
it records (or torch's refusal)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names


def _grid_sample(options):
    def call(m, image, grid):
        return m.nn.functional.grid_sample(image, grid, **options)

    return call


SAMPLERS = {
    "bilinear": dict(align_corners=False),
    "aligned": dict(align_corners=True),
    "border": dict(padding_mode="border", align_corners=False),
    "reflection": dict(padding_mode="reflection", align_corners=True),
    "nearest": dict(mode="nearest", align_corners=False),
}
CALLS = {f"grid_sample {name}": ((1, 2, 4, 5), (1, 3, 2, 2), _grid_sample(options))
         for name, options in SAMPLERS.items()}
CALLS["bilinear layer"] = ((4, 3), (4, 2), lambda m, a, b: m.nn.functional.bilinear(
    a, b, m.ones(2, 3, 2, dtype=a.dtype) + a[:2, :1, None]))
CALLS["conv_transpose1d"] = ((2, 2, 5), (2, 3, 3), lambda m, x, w:
                             m.nn.functional.conv_transpose1d(x, w, None, 2, 1, 1))


def _hessian_vector(module, case, values, dtype):
    """Each input's gradient (create_graph), weighed by a direction of its shape, and the last
    one squared: the gradient of that by every input."""
    inputs = [module.tensor(v, dtype=getattr(module, dtype), requires_grad=True) for v in values]
    first = module.autograd.grad((case[2](module, *inputs) ** 2).sum(), inputs,
                                 create_graph=True)
    rng = np.random.default_rng(5)
    total = (first[-1] ** 2).sum()
    for grad in first:
        total = total + (grad * module.tensor(rng.normal(size=tuple(grad.shape)),
                                              dtype=grad.dtype)).sum()
    total.backward()
    return ([node_names(g) for g in first],
            [g.detach().numpy() for g in first] + [t.grad.numpy() for t in inputs])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CALLS))
def test_a_second_derivative_through_it_is_torchs(name, dtype, torch, engine):
    case = CALLS[name]
    rng = np.random.default_rng(len(name))
    values = [rng.normal(size=shape) * (0.8 if index else 1) for index, shape in
              enumerate(case[:2])]
    expected = _hessian_vector(torch, case, values, dtype)
    actual = _hessian_vector(engine, case, values, dtype)
    assert actual[0] == expected[0]
    tolerance = dict(rtol=2e-4, atol=2e-4) if dtype == "float32" else dict(rtol=1e-9, atol=1e-9)
    for got, want in zip(actual[1], expected[1], strict=True):
        np.testing.assert_allclose(got, want, **tolerance)


def _refusal(module, code: str):
    weights = module.randn(5, 3, dtype=module.float64, requires_grad=True)
    scales = module.rand(4, dtype=module.float64, requires_grad=True)
    image = module.randn(1, 1, 3, 3, dtype=module.float64, requires_grad=True)
    grid = (module.rand(1, 2, 2, 2, dtype=module.float64) - 0.5).requires_grad_()
    names = {"torch": module, "F": module.nn.functional, "w": weights, "p": scales,
             "image": image, "grid": grid}
    try:
        exec(code, names)
    except Exception as error:  # noqa: BLE001 - the refusal is what is compared
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("code", [
    "bag = F.embedding_bag(torch.tensor([0, 2, 1]), w, torch.tensor([0, 1]), mode='mean')\n"
    "g, = torch.autograd.grad((bag ** 2).sum(), w, create_graph=True)\n"
    "torch.autograd.grad(g.sum(), w)",
    "bag = F.embedding_bag(torch.tensor([[0, 2], [1, 1]]), w, mode='sum',"
    " per_sample_weights=p.view(2, 2))\n"
    "g, = torch.autograd.grad((bag ** 2).sum(), p, create_graph=True)\n"
    "torch.autograd.grad(g.sum(), w)",
])
def test_a_second_derivative_torch_refuses_is_refused_alike(code, torch, engine):
    assert _refusal(engine, code) == _refusal(torch, code) is not None


def test_a_third_derivative_through_grid_sample_says_what_to_do(engine):
    code = ("y = F.grid_sample(image, grid, align_corners=False)\n"
            "g = torch.autograd.grad((y ** 2).sum(), (image, grid), create_graph=True)\n"
            "h = torch.autograd.grad((g[1] ** 2).sum(), grid, create_graph=True)\n"
            "torch.autograd.grad(h[0].sum(), grid)")
    kind, message = _refusal(engine, code)
    assert kind == "NotImplementedError" and "switch the engine to torch" in message


NORMS = {
    "layer_norm": lambda m, x, w: m.nn.functional.layer_norm(x, (3,), w),
    "batch_norm": lambda m, x, w: m.nn.functional.batch_norm(x, None, None, w, training=True),
    "batch_norm eval": lambda m, x, w: m.nn.functional.batch_norm(
        x, m.full((3,), 0.2, dtype=x.dtype), m.full((3,), 1.5, dtype=x.dtype), w),
}


def _third_order(module, norm, values):
    """Second and third derivatives through a norm layer's gradient (torch reads the
    forward's mean and 1/std as constants there, so the third does not go through them)."""
    x, w = (module.tensor(v, requires_grad=True) for v in values)
    first = module.autograd.grad((norm(module, x, w) ** 3).sum(), (x, w), create_graph=True)
    second = module.autograd.grad((first[0] ** 2).sum() + (first[1] ** 3).sum(), (x, w),
                                  create_graph=True)
    third = module.autograd.grad((second[0] ** 2).sum() + second[1].sum(), (x, w))
    return ([type(g.grad_fn).__name__ for g in first],
            [t.detach().numpy() for t in (*second, *third)])


@pytest.mark.parametrize("name", list(NORMS))
def test_a_norm_layers_third_derivative_is_torchs(name, torch, engine):
    rng = np.random.default_rng(len(name))
    values = rng.normal(size=(4, 3)), rng.normal(size=3)
    expected = _third_order(torch, NORMS[name], values)
    actual = _third_order(engine, NORMS[name], values)
    assert actual[0] == expected[0]
    for got, want in zip(actual[1], expected[1], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-8 * np.abs(want).max())
