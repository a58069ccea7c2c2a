"""nn modules and optimizers: the same parameters after the same steps as torch's."""

from __future__ import annotations

import numpy as np
import pytest

OPTIMIZERS = {
    "sgd": lambda m, params: m.optim.SGD(params, lr=0.1),
    "sgd-nesterov-decay": lambda m, params: m.optim.SGD(
        params, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
    "sgd-dampening-maximize": lambda m, params: m.optim.SGD(
        params, lr=0.05, momentum=0.5, dampening=0.1, maximize=True),
    "adam": lambda m, params: m.optim.Adam(params),
    "adam-decay-betas": lambda m, params: m.optim.Adam(
        params, lr=0.02, betas=(0.8, 0.99), weight_decay=0.05),
    "adamw": lambda m, params: m.optim.AdamW(params, lr=0.02),
    "rmsprop": lambda m, params: m.optim.RMSprop(params, lr=0.01),
    "rmsprop-centered-momentum": lambda m, params: m.optim.RMSprop(
        params, lr=0.01, momentum=0.9, centered=True, weight_decay=0.01),
    "adagrad": lambda m, params: m.optim.Adagrad(params, lr=0.1, lr_decay=0.01),
    "adam-foreach": lambda m, params: m.optim.Adam(params, lr=0.02, foreach=False),
    "adadelta": lambda m, params: m.optim.Adadelta(params),
    "adadelta-decay-maximize": lambda m, params: m.optim.Adadelta(
        params, lr=0.5, rho=0.8, weight_decay=0.01, maximize=True),
}


SCHEDULERS = {
    "step": lambda s, o: s.StepLR(o, step_size=3, gamma=0.5),
    "multistep": lambda s, o: s.MultiStepLR(o, milestones=[2, 4, 4], gamma=0.1),
    "exponential": lambda s, o: s.ExponentialLR(o, gamma=0.9),
    "lambda": lambda s, o: s.LambdaLR(o, lr_lambda=lambda epoch: 1 / (epoch + 1)),
    "cosine": lambda s, o: s.CosineAnnealingLR(o, T_max=4, eta_min=0.01),
    "multiplicative": lambda s, o: s.MultiplicativeLR(o, lr_lambda=lambda epoch: 0.9 ** epoch),
}


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_schedulers_set_the_rates_torchs_do(name, torch, engine):
    def rates(module):
        optimizer = module.optim.SGD([module.ones(1, requires_grad=True)], lr=1.0)
        scheduler = SCHEDULERS[name](module.optim.lr_scheduler, optimizer)
        seen = [scheduler.get_last_lr()]
        for _ in range(10):
            optimizer.step()
            scheduler.step()
            seen.append(scheduler.get_last_lr())
        return seen, repr(optimizer)

    assert rates(engine) == rates(torch)


def _trained(module, make_optimizer, dtype_name: str) -> list[np.ndarray]:
    dtype = getattr(module, dtype_name)
    model = module.nn.Sequential(module.nn.Linear(3, 4), module.nn.Sigmoid(),
                                 module.nn.Linear(4, 2))
    with module.no_grad():
        for number, param in enumerate(model.parameters()):
            # NumPy's values: torch's linspace differs from ours in the last float32 bit
            param.copy_(module.tensor(np.linspace(-0.7, 0.6 + number / 7, param.numel())
                                      .reshape(tuple(param.shape)), dtype=param.dtype))
    model.to(dtype)
    inputs = module.tensor([[0.3, -1.2, 0.8], [1.1, 0.4, -0.6], [-0.2, 0.9, 1.5]], dtype=dtype)
    labels = module.tensor([1, 0, 1])
    optimizer = make_optimizer(module, model.parameters())
    for _ in range(6):
        optimizer.zero_grad()
        module.nn.functional.cross_entropy(model(inputs), labels).backward()
        optimizer.step()
    return [param.detach().numpy() for param in model.parameters()]


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_optimizers_step_as_torchs_do(name, dtype_name, torch, engine):
    expected = _trained(torch, OPTIMIZERS[name], dtype_name)
    actual = _trained(engine, OPTIMIZERS[name], dtype_name)
    for mine, theirs in zip(actual, expected, strict=True):
        assert mine.dtype == theirs.dtype
        np.testing.assert_allclose(mine, theirs, rtol=1e-5 if dtype_name == "float32" else 1e-12,
                                   atol=1e-6 if dtype_name == "float32" else 1e-12)


def _message(call) -> tuple[type, str]:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - the type is compared too
        return type(error), str(error)
    return type(None), ""


@pytest.mark.parametrize("action", ["missing attribute", "tensor as parameter", "no forward",
                                    "empty optimizer"])
def test_module_mistakes_fail_as_in_torch(action, torch, engine):
    def attempt(m):
        model = m.nn.Linear(2, 1)
        if action == "missing attribute":
            return model.weights
        if action == "tensor as parameter":
            model.bias = m.ones(1)
        if action == "no forward":
            return m.nn.Module()(m.ones(1))
        if action == "empty optimizer":
            return m.optim.SGD([], lr=0.1)
        return None

    assert _message(lambda: attempt(engine)) == _message(lambda: attempt(torch))


def test_parameters_print_and_register_as_torchs(torch, engine):
    outputs = []
    for m in (torch, engine):
        layer = m.nn.Linear(2, 2, bias=False)
        with m.no_grad():
            layer.weight.copy_(m.tensor([[1.0, -2.0], [0.5, 3.0]]))
        layer.scale = m.nn.Parameter(m.tensor([2.0]))
        outputs.append((repr(layer.weight), repr(layer.scale), layer.bias,
                        [name for name, _ in layer.named_parameters()], repr(layer),
                        repr(m.nn.Sequential(layer, m.nn.ReLU(), m.nn.Softmax(dim=1))),
                        isinstance(layer.scale, m.nn.Parameter), isinstance(m.ones(1),
                                                                            m.nn.Parameter)))
    assert outputs[0] == outputs[1]


def test_module_reprs_match_torchs(torch, engine):
    def reprs(m):
        return [repr(module) for module in (
            m.nn.LeakyReLU(0.2), m.nn.LeakyReLU(), m.nn.Softplus(), m.nn.Softplus(beta=2),
            m.nn.BCELoss(), m.nn.BCEWithLogitsLoss(), m.nn.CrossEntropyLoss(), m.nn.MSELoss(),
            m.nn.Flatten(), m.nn.Identity(), m.nn.LogSoftmax(dim=1), m.nn.ReLU(inplace=True))]

    assert reprs(engine) == reprs(torch)


def test_batch_norm_trains_and_evaluates_as_torchs(torch, engine):
    def run(module):
        norm = module.nn.BatchNorm1d(3)
        x = module.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, -1.0], [2.0, 2.0, 2.0],
                           [0.5, 1.0, 0.0]], requires_grad=True)
        outputs = []
        for step in range(3):
            y = norm(x * (step + 1))
            (y * module.arange(12.0).reshape(4, 3)).sum().backward()
            outputs.append(y.detach().numpy())
        norm.eval()
        outputs += [norm(x).detach().numpy(), x.grad.numpy(), norm.weight.grad.numpy(),
                    norm.bias.grad.numpy(), norm.running_mean.numpy(), norm.running_var.numpy()]
        return outputs, repr(norm), list(norm.state_dict()), int(norm.num_batches_tracked), \
            type(y.grad_fn).__name__

    mine, theirs = run(engine), run(torch)
    assert mine[1:] == theirs[1:]
    for ours, torchs in zip(mine[0], theirs[0], strict=True):
        np.testing.assert_allclose(ours, torchs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(3, 3), (2, 5), (5, 2), (4, 2, 3)])
def test_orthogonal_init_draws_as_torch_and_is_orthogonal(shape, torch, engine):
    """torch's draw and sign rule; the QR itself may differ from torch's in float32's last
    bits (NumPy's LAPACK runs in double), and the stream goes on at the same place."""
    results = []
    for module in (torch, engine):
        module.manual_seed(3)
        weight = module.empty(*shape)
        module.nn.init.orthogonal_(weight, gain=2.0)
        results.append((weight.numpy().copy(), weight._version, module.rand(3).numpy()))
    (expected, version, after), (actual, engine_version, engine_after) = results
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)
    assert engine_version == version and np.array_equal(engine_after, after)
    flat = actual.reshape(shape[0], -1) / 2
    small = min(flat.shape)
    gram = flat @ flat.T if flat.shape[0] == small else flat.T @ flat
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-5)


GROUPED = """
torch.manual_seed(0)
depthwise = torch.nn.Sequential(torch.nn.Conv2d(3, 3, 3, padding=1, groups=3),
                                torch.nn.Conv2d(3, 6, 1), torch.nn.ReLU(),
                                torch.nn.ConvTranspose2d(6, 4, 2, stride=2, groups=2))
print(depthwise)
x = torch.randn(2, 3, 5, 5)
out = depthwise(x)
out.pow(2).mean().backward()
print(out.shape, f"{out.pow(2).mean().item():.5f}")
print([f"{p.grad.norm().item():.5f}" for p in depthwise.parameters()])
for call in ("torch.nn.Conv2d(4, 5, 3, groups=2)", "torch.nn.Conv2d(3, 6, 3, groups=2)",
             "torch.nn.functional.conv2d(torch.ones(1, 5, 5, 5), torch.ones(4, 2, 3, 3), groups=2)",
             "torch.nn.functional.conv2d(torch.ones(1, 4, 5, 5), torch.ones(5, 2, 3, 3),"
             " groups=2)"):
    try:
        eval(call)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_grouped_and_depthwise_convolutions_are_torchs(torch, engine):
    """A MobileNet-style block (depthwise, pointwise, a grouped transposed convolution): the
    printed model, loss and gradient norms after a seed, and torch's refusals."""
    from tests.oracle import run_printing

    assert run_printing(GROUPED, engine) == run_printing(GROUPED, torch)


@pytest.mark.parametrize("dtype_name", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name", [name for name in OPTIMIZERS if name.startswith("sgd")])
def test_sgd_on_arrays_steps_bit_for_bit_as_its_in_place_ops(name, dtype_name, engine,
                                                               monkeypatch):
    """SGD steps float32/float64 parameters on their arrays (for speed); what it writes, and
    the versions it bumps, are what mul_ and add_ write and bump (float16 takes them)."""
    from playground.npgrad import optim

    fast = _trained(engine, OPTIMIZERS[name], dtype_name)
    monkeypatch.setattr(optim, "_ROUNDED_AS_NUMPY", ())
    through_ops = _trained(engine, OPTIMIZERS[name], dtype_name)
    for mine, theirs in zip(fast, through_ops, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    weight = engine.nn.Parameter(engine.ones(3, dtype=getattr(engine, dtype_name)))
    weight.grad = engine.full((3,), 0.5, dtype=weight.dtype)
    optimizer = OPTIMIZERS[name](engine, [weight])
    before = weight._version
    optimizer.step()
    optimizer.step()
    assert weight._version == before + 2
