"""repr/str/format of tensors, sizes, dtypes and nodes are character-identical to torch's."""

from __future__ import annotations

import pytest

from tests.oracle import normalize

EXPRESSIONS = [
    "torch.tensor(27.)",
    "torch.tensor(3.14159)",
    "torch.tensor(-0.)",
    "torch.tensor([1., 2., 3.])",
    "torch.tensor([[1., 2.], [3., 4.]])",
    "torch.tensor([1.5, -2.25, 1000.5])",
    "torch.tensor([0.1, 1.0, 0.0001])",
    "torch.tensor([102.4, 1024., 0.1024])",
    "torch.tensor([1e-5, 1.])",
    "torch.tensor([1e8, 1.])",
    "torch.tensor([1e9])",
    "torch.tensor([123456789.])",
    "torch.tensor([1., float('inf'), float('-inf'), float('nan')])",
    "torch.tensor([0.5, float('nan')])",
    "torch.tensor([float('nan')])",
    "torch.tensor([0., 0.])",
    "torch.tensor([], dtype=torch.float32)",
    "torch.zeros(0, 3)",
    "torch.zeros(2, 0, dtype=torch.int64)",
    "torch.tensor([], dtype=torch.float64)",
    "torch.tensor([1, 2, 3])",
    "torch.tensor([-10, 2, 300])",
    "torch.tensor([1, 2], dtype=torch.int32)",
    "torch.tensor([True, False])",
    "torch.tensor(True)",
    "torch.tensor([1., 2.], dtype=torch.float64)",
    "torch.tensor([[1.5, 2.], [3., 4.]], dtype=torch.float64, requires_grad=True)",
    "torch.ones(2, 2, requires_grad=True)",
    "torch.ones(2, 2, requires_grad=True) + 2",
    "(torch.ones(2, 2, requires_grad=True) * 3).mean()",
    "torch.arange(10)",
    "torch.arange(2000)",
    "torch.arange(1500.) / 7",
    "torch.arange(30).reshape(2, 3, 5)",
    "torch.arange(24.).reshape(2, 3, 4) / 3",
    "torch.arange(4000.).reshape(40, 100)",
    "torch.arange(3000.).reshape(10, 10, 30) * 1e-3",
    "torch.linspace(-1, 1, 40)",
    "torch.linspace(0, 1, 5)",
    "torch.tensor([1234.5678, 0.001, 5.])",
    "torch.tensor([[1e-3, 2e-3], [5., 9e5]])",
    "torch.tensor([-1087.2306,  1141.0249,   921.5806])",
    "torch.tensor([ 204.8000, 2048.0000,    0.2048])",
    "torch.tensor([1.0, 2.5]) * 1e10",
    "torch.eye(3)",
    "torch.full((2, 3), 7)",
    "torch.full((2, 2), 0.5)",
    "torch.tensor([[[1.]]])",
    "torch.tensor([1., 2.]).exp().requires_grad_()",
    "torch.arange(30.).requires_grad_() * 1.5",
    "torch.arange(12.).view(3, 4).requires_grad_().t()",
    "torch.tensor(2.).double()",
    "torch.tensor([3, 4]) / 2",
    "torch.tensor([3, 4]) * 1.5",
    "torch.tensor([True, False]) + 1",
    "torch.tensor([1, 2]) > 1",
    "torch.tensor([0.25]).half()",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_repr_matches_torch(expression, torch, engine):
    expected = repr(eval(expression, {"torch": torch}))
    assert repr(eval(expression, {"torch": engine})) == expected


@pytest.mark.parametrize("expression", EXPRESSIONS[:12])
def test_str_and_format_match_torch(expression, torch, engine):
    expected_tensor = eval(expression, {"torch": torch})
    actual_tensor = eval(expression, {"torch": engine})
    assert str(actual_tensor) == str(expected_tensor)
    assert f"{actual_tensor}" == f"{expected_tensor}"


@pytest.mark.parametrize("expression", [
    "torch.ones(2, 3).shape", "torch.ones(2, 3).size()", "torch.tensor(1.).shape",
    "torch.float32", "torch.float64", "torch.int64", "torch.bool", "torch.int32",
    "torch.ones(2).dtype", "torch.ones(2).device", "torch.ones(3).size(0)",
    "torch.tensor([1., 2.]).tolist()", "torch.tensor(2.5).item()",
    "f'{torch.tensor(-36.):.2f}'", "f'{torch.tensor(-36.)}'", "torch.get_default_dtype()",
])
def test_other_printed_values_match_torch(expression, torch, engine):
    expected = repr(eval(expression, {"torch": torch}))
    assert repr(eval(expression, {"torch": engine})) == expected


def test_node_repr_matches_torch(torch, engine):
    def text(module):
        x = module.ones(2, requires_grad=True)
        y = (x + 2) * x
        accumulator = y.grad_fn.next_functions[1][0]
        return normalize(
            f"{y.grad_fn} {y.grad_fn.name()} {accumulator} {accumulator.name()} "
            f"{x.grad_fn} {y.grad_fn.next_functions[0][0]}"
        )

    assert text(engine) == text(torch)


def test_print_options_change_and_restore(torch, engine):
    for module in (torch, engine):
        module.set_printoptions(precision=2)
    try:
        assert repr(engine.tensor([1.23456, 2.5])) == repr(torch.tensor([1.23456, 2.5]))
    finally:
        for module in (torch, engine):
            module.set_printoptions(profile="default")
    assert repr(engine.tensor([1.23456])) == "tensor([1.2346])"
