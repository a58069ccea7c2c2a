"""torch.einsum on npgrad against real torch, run here: the whole graph's node names in torch's
walk order, the shape, the values and the gradients, for equations of every kind (matrix and
batched products, attention scores, traces and diagonals, ellipses, implicit outputs, three
operands, broadcasting, sums before products); and torch's error for each malformed call."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names

EQUATIONS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]), ("ij,jk->ki", [(2, 3), (3, 4)]),
    ("ij,ij->i", [(2, 3), (2, 3)]), ("ij,ij->ij", [(2, 1), (2, 3)]),
    ("bij,bkj->bik", [(5, 2, 3), (5, 4, 3)]), ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    ("i,j->ij", [(3,), (4,)]), ("i,i->", [(3,), (3,)]), ("n,n->n", [(1,), (4,)]),
    ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("iij->j", [(2, 2, 3)]), ("iji->j", [(2, 3, 2)]),
    ("ij->j", [(2, 3)]), ("ij->", [(2, 3)]), ("ijk->kji", [(2, 3, 4)]),
    ("ijk,jl->ilk", [(2, 3, 4), (3, 5)]), ("ij,jk->k", [(2, 3), (3, 4)]),
    ("ij,jk->i", [(2, 3), (3, 4)]), ("ab,ba->", [(2, 3), (3, 2)]), ("zA,Az->", [(2, 3), (3, 2)]),
    ("ba,ac", [(2, 3), (3, 4)]), ("ij,j->i", [(2, 3), (3,)]), ("ij,kl->", [(2, 3), (4, 5)]),
    ("...d,de->...e", [(2, 3, 4), (4, 5)]), ("...ij,...jk", [(2, 3), (6, 3, 4)]),
    ("b...,b->...", [(2, 3, 4), (2,)]), ("i...->i", [(2, 3, 4)]), ("...i,...i->", [(2, 3), (3,)]),
    ("b...j,bj->b", [(2, 3, 4), (2, 4)]), ("...ii->...i", [(2, 3, 3)]),
    ("i j, j k -> i k", [(2, 3), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,jk,kl->li", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,klm->l", [(2, 3), (3, 4), (4, 5, 2)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("i,i,i->i", [(3,), (3,), (3,)]),
]
TOLERANCE = {"float32": dict(rtol=1e-5, atol=1e-6), "float64": dict(rtol=1e-12, atol=1e-12)}


def _both(torch, engine, shapes, dtype, seed=0):
    rng = np.random.default_rng(seed)
    values = [rng.normal(size=shape) for shape in shapes]
    return ([torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=True) for v in values],
            [engine.tensor(v, dtype=getattr(engine, dtype), requires_grad=True) for v in values])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("equation", "shapes"), EQUATIONS, ids=[e for e, _ in EQUATIONS])
def test_einsum_builds_torchs_graph_and_gradients(equation, shapes, dtype, torch, engine):
    torch_inputs, engine_inputs = _both(torch, engine, shapes, dtype)
    expected = torch.einsum(equation, *torch_inputs)
    actual = engine.einsum(equation, *engine_inputs)
    assert node_names(actual) == node_names(expected)
    assert tuple(actual.shape) == tuple(expected.shape)
    assert str(actual.dtype) == str(expected.dtype)
    np.testing.assert_allclose(actual.detach().numpy(), expected.detach().numpy(),
                               **TOLERANCE[dtype])
    upstream = np.random.default_rng(1).normal(size=tuple(expected.shape))
    expected.backward(torch.tensor(upstream, dtype=expected.dtype))
    actual.backward(engine.tensor(upstream, dtype=actual.dtype))
    for torch_input, engine_input in zip(torch_inputs, engine_inputs, strict=True):
        np.testing.assert_allclose(engine_input.grad.numpy(), torch_input.grad.numpy(),
                                   **TOLERANCE[dtype])


def test_einsums_other_ways_of_calling_give_the_same(torch, engine):
    for module in (torch, engine):
        a = module.arange(6.0).reshape(2, 3)
        b = module.arange(12.0).reshape(3, 4)
        expected = (a @ b).tolist()
        assert module.einsum("ij,jk", [a, b]).tolist() == expected  # the operands as one list
        assert module.einsum(a, [0, 1], b, [1, 2], [0, 2]).tolist() == expected
        assert module.einsum(a, [0, 1], b, [1, 2]).tolist() == expected
        assert module.einsum(a, [..., 1], b, [1, 2], [..., 2]).tolist() == expected
        assert module.einsum("ij", a.long()).dtype == module.int64


def test_an_einsum_trace_has_a_second_derivative_as_torchs(torch, engine):
    results = []
    for module in (torch, engine):
        a = module.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=module.float64, requires_grad=True)
        (grad,) = module.autograd.grad(module.einsum("ii->", a * a) ** 2, a, create_graph=True)
        grad.sum().backward()
        results.append((grad.tolist(), a.grad.tolist(), node_names(grad)))
    assert results[0] == results[1]


def test_a_diagonal_is_a_view_that_writes_through_as_torchs(torch, engine):
    results = []
    for module in (torch, engine):
        a = module.zeros(3, 4)
        a.diagonal().add_(1)
        a.diagonal(1).fill_(2)
        a.diagonal(-1, 0, 1)[0] = 5
        results.append((a.tolist(), module.diagonal(a, 0, 1, 0).tolist(),
                        a.movedim(0, 1).shape, module.moveaxis(a, (0, 1), (1, 0)).tolist()))
    assert results[0] == results[1]


BAD = [
    ("ij,jk->ik", [(2, 3)]), ("ij->ik", [(2, 3), (3, 4)]), ("ijk,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk->iz", [(2, 3), (3, 4)]), ("i1,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk->ii", [(2, 3), (3, 4)]), ("ij,ik->ik", [(2, 3), (3, 4)]),
    ("ij,jk->..ik", [(2, 3), (3, 4)]), ("i.j,jk->ik", [(2, 3), (3, 4)]),
    ("...ij...,jk", [(2, 3), (3, 4)]), ("ij,jk->i->k", [(2, 3), (3, 4)]), ("ii", [(3, 2)]),
    ("...ijk", [(2, 3)]), ("ij,jk->...ik...", [(2, 3), (3, 4)]),
    ("i,j->ij,", [(2, 2), (2, 2)]), ("i,j->ij,", [(2,), (2,)]), ("i.j->ij", [(2, 2)]),
    ("...i,...i->......", [(2, 2), (2, 2)]),
]


@pytest.mark.parametrize(("equation", "shapes"), BAD, ids=[e for e, _ in BAD])
def test_a_malformed_einsum_raises_torchs_error(equation, shapes, torch, engine):
    torch_inputs, engine_inputs = _both(torch, engine, shapes, "float32")
    with pytest.raises(Exception) as expected:
        torch.einsum(equation, *torch_inputs)
    with pytest.raises(type(expected.value), match=None) as actual:
        engine.einsum(equation, *engine_inputs)
    assert str(actual.value) == str(expected.value)


def test_einsum_of_two_dtypes_and_without_operands_raise_torchs_errors(torch, engine):
    for arguments in [("ij,jk", "f32", "f64"), ("ij",)]:
        messages = []
        for module in (torch, engine):
            operands = [module.ones(2, 2, dtype=module.float32 if name == "f32" else
                                    module.float64) for name in arguments[1:]]
            with pytest.raises(Exception) as error:
                module.einsum(arguments[0], *operands)
            messages.append((type(error.value).__name__, str(error.value)))
        assert messages[0] == messages[1]
