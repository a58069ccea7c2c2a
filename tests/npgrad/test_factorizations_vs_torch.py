"""torch.linalg's factorisations on npgrad against real torch, run here: cholesky, qr, eigh and
svd (and eigvalsh, svdvals, torch.svd), their values and the gradients through every output,
batched, tall and wide. Eigenvectors and singular vectors are compared through what their sign
does not change (any sign is LAPACK's right answer), as users' losses should be written."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names


def _symmetric(rng, size):
    x = rng.normal(size=(size, size))
    return x + x.T


def _positive(rng, size):
    x = rng.normal(size=(size, size))
    return x @ x.T + 3 * np.eye(size)


CASES = {
    "cholesky": (lambda r: _positive(r, 4), lambda m, A: m.linalg.cholesky(A)),
    "cholesky-upper": (lambda r: _positive(r, 3), lambda m, A: m.linalg.cholesky(A, upper=True)),
    "qr-tall": (lambda r: r.normal(size=(5, 3)), lambda m, A: tuple(m.linalg.qr(A))),
    "qr-square": (lambda r: r.normal(size=(3, 3)), lambda m, A: tuple(m.linalg.qr(A))),
    "qr-wide": (lambda r: r.normal(size=(3, 5)), lambda m, A: tuple(m.linalg.qr(A))),
    "qr-batched": (lambda r: r.normal(size=(2, 4, 3)), lambda m, A: tuple(m.linalg.qr(A))),
    "qr-complete-wide": (lambda r: r.normal(size=(2, 4)),
                         lambda m, A: tuple(m.linalg.qr(A, mode="complete"))),
    "eigvalsh": (lambda r: _symmetric(r, 4), lambda m, A: m.linalg.eigvalsh(A)),
    "eigh": (lambda r: _symmetric(r, 4), lambda m, A: (lambda w, V: (w, V * V, (V * w) @ V.mT))(
        *m.linalg.eigh(A))),
    "eigh-batched": (lambda r: np.stack([_symmetric(r, 3), _symmetric(r, 3)]),
                     lambda m, A: (lambda w, V: (w, V * V))(*m.linalg.eigh(A))),
    "svdvals": (lambda r: r.normal(size=(4, 3)), lambda m, A: m.linalg.svdvals(A)),
    "svd-tall": (lambda r: r.normal(size=(5, 3)), lambda m, A: (lambda U, S, Vh: (
        S, U * U, Vh * Vh, U @ Vh))(*m.linalg.svd(A, full_matrices=False))),
    "svd-wide": (lambda r: r.normal(size=(3, 5)), lambda m, A: (lambda U, S, Vh: (
        S, U * U, Vh * Vh, U @ Vh))(*m.linalg.svd(A, full_matrices=False))),
    "svd-full": (lambda r: r.normal(size=(4, 3)), lambda m, A: (lambda U, S, Vh: (
        S, U[:, :3] @ Vh))(*m.linalg.svd(A))),
    "torch.svd": (lambda r: r.normal(size=(4, 3)), lambda m, A: (lambda U, S, V: (
        S, U @ V.mT))(*m.svd(A))),
}
TOLERANCE = {"float32": dict(rtol=2e-4, atol=2e-5), "float64": dict(rtol=1e-8, atol=1e-10)}


def _run(module, values, call, upstream, dtype):
    A = module.tensor(values, dtype=getattr(module, dtype), requires_grad=True)
    outputs = call(module, A)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    loss = sum((out * module.tensor(up, dtype=out.dtype)).sum()
               for out, up in zip(outputs, upstream, strict=True))
    loss.backward()
    return [out.detach().numpy() for out in outputs], A.grad.numpy(), node_names(outputs[0])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_factorisation_and_its_gradient_are_torchs(name, dtype, torch, engine):
    make, call = CASES[name]
    rng = np.random.default_rng(len(name))
    values = make(rng)
    shapes = [tuple(out.shape) for out in (lambda o: o if isinstance(o, tuple) else (o,))(
        call(torch, torch.tensor(values)))]
    upstream = [rng.normal(size=shape) for shape in shapes]
    expected = _run(torch, values, call, upstream, dtype)
    actual = _run(engine, values, call, upstream, dtype)
    assert actual[2] == expected[2]
    for got, want in zip(actual[0], expected[0], strict=True):
        np.testing.assert_allclose(got, want, **TOLERANCE[dtype])
    np.testing.assert_allclose(actual[1], expected[1], **TOLERANCE[dtype])


def _second_order(module, values, call, upstream, second, dtype):
    """A loss through every output, its gradient with create_graph=True, and the gradient of
    that gradient's weighted sum: the Hessian-vector product a user gets."""
    A = module.tensor(values, dtype=getattr(module, dtype), requires_grad=True)
    outputs = call(module, A)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    loss = sum(((out * module.tensor(up, dtype=out.dtype)) ** 2).sum()
               for out, up in zip(outputs, upstream, strict=True))
    grad, = module.autograd.grad(loss, A, create_graph=True)
    (grad * module.tensor(second, dtype=grad.dtype)).sum().backward()
    return grad.detach().numpy(), A.grad.numpy(), node_names(grad)


SECOND_TOLERANCE = {"float32": dict(rtol=2e-3, atol=2e-3), "float64": dict(rtol=1e-7, atol=1e-9)}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("cholesky")])
def test_a_factorisations_second_derivative_is_torchs(name, dtype, torch, engine):
    make, call = CASES[name]
    rng = np.random.default_rng(len(name) + 7)
    values = make(rng)
    outputs = call(torch, torch.tensor(values))
    shapes = [tuple(out.shape) for out in (outputs if isinstance(outputs, tuple) else (outputs,))]
    upstream = [rng.normal(size=shape) for shape in shapes]
    second = rng.normal(size=values.shape)
    expected = _second_order(torch, values, call, upstream, second, dtype)
    actual = _second_order(engine, values, call, upstream, second, dtype)
    for got, want in zip(actual[:2], expected[:2], strict=True):
        np.testing.assert_allclose(got, want, **SECOND_TOLERANCE[dtype])
    assert _reshapes_alike(actual[2]) == _reshapes_alike(expected[2])


def _reshapes_alike(names: list[str]) -> list[str]:
    """Node names with a batched matmul's reshape named one way: torch reshapes an operand
    that an elementwise op left in a factor's column order as a _reshape_alias, where NumPy's
    result is in row order (a view); everything else must match."""
    return ["ViewBackward0" if name == "ReshapeAliasBackward0" else name for name in names]


def test_the_factorisations_print_and_name_as_torchs(torch, engine):
    texts = []
    for module in (torch, engine):
        A = module.tensor([[4.0, 2.0], [2.0, 3.0]], dtype=module.float64, requires_grad=True)
        texts.append((repr(module.linalg.qr(A)), repr(module.linalg.eigh(A).eigenvalues),
                      type(module.linalg.svd(A)).__name__, module.linalg.cholesky(A).grad_fn.name(),
                      type(module.svd(A)).__name__))
    assert texts[0] == texts[1]


@pytest.mark.parametrize("code", [
    "torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))",
    "torch.linalg.cholesky(-torch.eye(2))",
    "torch.linalg.qr(A, mode='r').R.sum().backward()",
    "torch.linalg.qr(A, mode='complete').Q.sum().backward()",
    "torch.linalg.qr(A, mode='full')",
    "torch.linalg.eigh(torch.ones(2, 3))",
    "torch.linalg.svd(torch.ones(2, 2, dtype=torch.long))",
    "torch.linalg.qr(torch.ones(3))",
])
def test_the_factorisations_refuse_what_torch_refuses(code, torch, engine):
    messages = []
    for module in (torch, engine):
        A = module.ones(3, 2, requires_grad=True)
        with pytest.raises(Exception) as error:
            eval(code, {"torch": module, "A": A})
        messages.append((type(error.value).__name__, str(error.value)))
    assert messages[0] == messages[1]
