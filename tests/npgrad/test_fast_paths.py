"""The fast path of each elementwise op against its general forward: the same values, dtypes,
nodes, saved values and versions, and gradients (playground/npgrad/_recording.py inlines the
recording protocol there, so nothing but this test holds the two together)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import playground.npgrad as npgrad
from playground.npgrad._bindings import FUNCTIONS, METHODS
from playground.npgrad._recording import FAST_PATHS
from playground.npgrad._rules import RULES

DTYPES = [np.float32, np.float64]


def _tensor(values, dtype, requires_grad=True, leaf=True):
    tensor = npgrad.tensor(np.asarray(values, dtype), requires_grad=requires_grad)
    return tensor if leaf else tensor * 1.0


def _operand_pairs(op: str, dtype):
    """(self, other) pairs the fast path takes: tensors of the same dtype, Python numbers."""
    rng = np.random.default_rng(len(op))
    values = rng.uniform(0.5, 1.5, (2, 3))
    if len(RULES[op].inputs) == 1 and op != "rsub":
        yield _tensor(values, dtype), ()
        yield _tensor(values, dtype, leaf=False), ()
        return
    numbers = [(0.75,), (3,)]
    if op == "rsub":  # ``number - x``: only numbers take the fast path
        for number in numbers:
            yield _tensor(values, dtype, leaf=False), number
        return
    others = [_tensor(rng.uniform(0.5, 1.5, (2, 3)), dtype),
              _tensor(rng.uniform(0.5, 1.5, (3,)), dtype, leaf=False),  # broadcast
              _tensor(rng.uniform(0.5, 1.5, (2, 3)), dtype, requires_grad=False)]
    for self in (_tensor(values, dtype), _tensor(values, dtype, leaf=False),
                 _tensor(values, dtype, requires_grad=False)):
        for other in others:
            yield self, (other,)
    for number in numbers:
        yield _tensor(values, dtype, leaf=False), number


def _same_node(actual, expected) -> None:
    """The fast result's node is the general one's (a later one, with the same inputs)."""
    fast, general = actual.grad_fn, expected.grad_fn
    assert type(fast) is type(general)
    assert [n for n, _ in fast.next_functions] == [n for n, _ in general.next_functions]
    assert (fast._seq, fast._shape, fast._np_dtype) == (general._seq + 1, general._shape,
                                                        general._np_dtype)
    assert len(fast._saved) == len(general._saved)
    for name, mine, theirs in zip(general.rule.saves, fast._saved, general._saved, strict=True):
        if isinstance(theirs, np.ndarray):
            assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
        elif name == "alpha" and theirs is None:
            # The general forward drops a number no input's formula needs (the rule's gate);
            # the fast path keeps it, as torch keeps a Scalar.
            assert mine == 1
        else:
            assert mine == theirs
    assert len(fast._versions) == len(general._versions)
    for position in range(0, len(general._versions), 3):
        index, counter, version = general._versions[position:position + 3]
        assert fast._versions[position] == index
        if general.rule.saves[index] == "result":  # each output has its own counter
            assert counter is expected._vc and fast._versions[position + 1] is actual._vc
        else:
            assert fast._versions[position + 1] is counter
        assert fast._versions[position + 2] == version


def _leaf_gradients(output, upstream) -> list:
    """The gradients ``output.backward(upstream)`` leaves in the leaves it reaches."""
    leaves, waiting = [], [output.grad_fn]
    while waiting:
        node = waiting.pop()
        if isinstance(node, npgrad.AccumulateGrad):
            leaves.append(node.variable)
        waiting.extend(n for n, _ in node.next_functions if n is not None)
    for leaf in leaves:
        leaf.grad = None
    output.backward(upstream, retain_graph=True)
    return [leaf.grad for leaf in leaves]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("op", sorted(FAST_PATHS))
def test_fast_path_records_what_the_general_forward_records(op, dtype):
    general, fast = FAST_PATHS[op]
    for self, other in _operand_pairs(op, dtype):
        expected = general(self, *other)
        actual = fast(self, *other)
        assert actual._data.dtype == expected._data.dtype
        np.testing.assert_array_equal(actual._data, expected._data)
        assert actual.requires_grad == expected.requires_grad
        if expected.grad_fn is None:
            assert actual.grad_fn is None
            continue
        _same_node(actual, expected)
        # backward() runs the engine's plain loop, which trusts the fast node's _exact.
        upstream = npgrad.tensor(np.linspace(-1, 1, expected.numel()).reshape(expected.shape),
                                 dtype=expected.dtype)
        wanted = _leaf_gradients(expected, upstream)
        got = _leaf_gradients(actual, upstream)
        for mine, theirs in zip(got, wanted, strict=True):
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@pytest.mark.parametrize("op", sorted(FAST_PATHS))
def test_other_dtypes_take_the_general_forward(op):
    general, fast = FAST_PATHS[op]
    self = npgrad.tensor([[1.0, 2.0]], dtype=npgrad.float16, requires_grad=True)
    other = () if len(RULES[op].inputs) == 1 and op != "rsub" else (2,)
    assert fast(self, *other).grad_fn._exact is False
    assert general(self, *other).grad_fn._exact is False


def test_fast_paths_take_the_general_forwards_arguments():
    x = npgrad.tensor([1.0, 2.0])
    with pytest.raises(TypeError):
        x.exp(2)
    with pytest.raises(TypeError):
        npgrad.mul(x)
    assert npgrad.add(x, x, alpha=2).tolist() == [3.0, 6.0]
    assert x.div(npgrad.tensor([2.0, 3.0]), rounding_mode="floor").tolist() == [0.0, 0.0]


def _bound(offered):
    """The forward itself, or the one a torch-keywords wrapper (or a complex refusal) calls
    (the forward may itself wrap another: a fill that a meta tensor skips)."""
    forwards = {id(forward) for forward in (*METHODS.values(), *FUNCTIONS.values())}
    return inspect.unwrap(offered, stop=lambda function: id(function) in forwards)


def test_the_binding_table_is_what_tensors_and_the_module_offer():
    for name, forward in METHODS.items():
        assert _bound(getattr(npgrad.Tensor, name)) is forward
    for name, forward in FUNCTIONS.items():
        assert _bound(getattr(npgrad, name)) is forward
    # the hot methods and operators are the forwards themselves, no call in between
    for name in ("add", "mul", "exp", "tanh", "mm", "backward", "__mul__", "__add__"):
        if name in METHODS:
            assert getattr(npgrad.Tensor, name) is METHODS[name], name


def test_torchs_keyword_names_are_taken():
    x = npgrad.ones(2, 3)
    assert npgrad.sum(input=x, dim=1, keepdims=True).shape == (2, 1)
    assert x.mean(1, keepdims=True).shape == (2, 1)
    assert npgrad.add(input=x, other=x).sum().item() == 12.0
    assert npgrad.zeros(size=(2, 2)).shape == (2, 2) and npgrad.randn(size=(3,)).shape == (3,)
    assert npgrad.max(x, dim=1, keepdims=True).values.shape == (2, 1)


def test_a_backward_nobody_observes_runs_on_the_plain_loop(monkeypatch):
    """The inlined loop is what makes backward fast: an unobserved call must take it (a
    change to how observers are asked once sent every call down the general path)."""
    from playground import npgrad
    from playground.npgrad import _engine

    calls = []
    plain = _engine._execute_plain
    monkeypatch.setattr(_engine, "_execute_plain",
                        lambda *args: calls.append(args[3]) or plain(*args))
    x = npgrad.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    logged = []
    with npgrad.autograd.observe(lambda step: None, lambda call: logged, None):
        (x * 3).sum().backward()
    assert calls[0] is None and calls[1] is logged  # sum, mul, the leaf: three steps
    assert [type(step[0]).__name__ for step in logged] == ["SumBackward0", "MulBackward0",
                                                           "AccumulateGrad"]
