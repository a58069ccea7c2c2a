"""Every row of the derivative table against real torch: values, node names, gradients."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad._rules import TABLE
from tests.npgrad.cases import CASES
from tests.oracle import node_names

DTYPES = ["float32", "float64"]
TOLERANCE = {"float32": dict(rtol=2e-4, atol=1e-5), "float64": dict(rtol=1e-9, atol=1e-12)}


def _values(case, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    values = []
    for shape in case.shapes:
        if case.domain == "positive":
            values.append(rng.uniform(0.5, 2.0, shape))
        elif case.domain == "unit":  # inside asin's and acos's domain
            values.append(rng.uniform(-0.9, 0.9, shape))
        elif case.domain == "distinct":
            values.append(rng.permutation(np.prod(shape, dtype=int)).reshape(shape) * 0.37 - 1)
        else:
            values.append(rng.normal(size=shape))
    return values


def _inputs(module, values, dtype_name):
    dtype = getattr(module, dtype_name)
    return [module.tensor(v, dtype=dtype, requires_grad=True) for v in values]


def _node_name(tensor) -> str | None:
    return None if tensor.grad_fn is None else type(tensor.grad_fn).__name__


def test_every_row_of_the_table_has_a_case():
    covered = {case.op for case in CASES}
    missing = [rule.op for rule in TABLE if rule.op not in covered]
    assert missing == []


def _names_in_graph(tensor) -> set[str]:
    return set(node_names(tensor))


def test_node_names_in_the_table_are_torchs(torch):
    """Every node name the table gives is one that torch's own graphs of the cases hold."""
    seen: set[str] = set()
    for case in CASES:
        inputs = _inputs(torch, _values(case, seed=len(case.id)), "float64")
        seen |= _names_in_graph(case.call(torch, *inputs))
    named = {rule.node_name for rule in TABLE if rule.node_name != "NotImplemented"}
    assert named - seen == set()


@pytest.mark.parametrize("dtype_name", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_op_matches_torch(case, dtype_name, torch, engine):
    if dtype_name not in case.dtypes:
        pytest.skip(f"{case.id} is compared in {', '.join(case.dtypes)}")
    values = _values(case, seed=len(case.id))
    torch_inputs = _inputs(torch, values, dtype_name)
    engine_inputs = _inputs(engine, values, dtype_name)
    expected = case.call(torch, *torch_inputs)
    actual = case.call(engine, *engine_inputs)

    assert _node_name(actual) == _node_name(expected)
    assert str(actual.dtype) == str(expected.dtype)
    assert tuple(actual.shape) == tuple(expected.shape)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(),
                               **TOLERANCE[dtype_name])
    if case.label == "name-only":
        return

    upstream = np.random.default_rng(7).normal(size=tuple(expected.shape))
    expected.backward(torch.tensor(upstream, dtype=expected.dtype))
    actual.backward(engine.tensor(upstream, dtype=actual.dtype))
    for torch_input, engine_input in zip(torch_inputs, engine_inputs, strict=True):
        if torch_input.grad is None:
            assert engine_input.grad is None
            continue
        assert str(engine_input.grad.dtype) == str(torch_input.grad.dtype)
        np.testing.assert_allclose(engine_input.grad.numpy(), torch_input.grad.numpy(),
                                   **TOLERANCE[dtype_name])
