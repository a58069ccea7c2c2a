"""What a hook or a custom backward returns is checked as torch checks it: a gradient of
another size or dtype, or something that is not a tensor, is torch's error, never a wrong
``.grad`` or an internal AttributeError."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg

torch = pytest.importorskip("torch")


def _outcome(action):
    try:
        value = action()
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return type(error).__name__, str(error)
    return "ok", repr(value)


def _hooked(t, on_leaf: bool, hook):
    x = t.ones(3, requires_grad=True)
    y = x * 2
    (x if on_leaf else y).register_hook(hook)
    y.sum().backward()
    return x.grad


HOOKS = {
    "bigger": lambda t: lambda grad: t.ones(5),
    "double": lambda t: lambda grad: grad.double(),
    "a number": lambda t: lambda grad: 3,
    "scaled": lambda t: lambda grad: grad * 10,
}


@pytest.mark.parametrize("on_leaf", [False, True], ids=["intermediate", "leaf"])
@pytest.mark.parametrize("name", list(HOOKS))
def test_a_hooks_result_is_checked_as_torch_checks_it(name, on_leaf):
    mine = _outcome(lambda: _hooked(pg, on_leaf, HOOKS[name](pg)))
    theirs = _outcome(lambda: _hooked(torch, on_leaf, HOOKS[name](torch)))
    assert mine == theirs


RETURNS = {"text": lambda t: "text", "an int": lambda t: 3, "an array": lambda t: np.ones(2),
           "a wrong shape": lambda t: t.ones(3), "a tuple": lambda t: (t.ones(2),),
           "None": lambda t: None}


@pytest.mark.parametrize("name", list(RETURNS))
def test_a_custom_backwards_result_is_checked_as_torch_checks_it(name):
    def run(t):
        class Double(t.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, grad):
                return RETURNS[name](t)

        x = t.ones(2, requires_grad=True)
        Double.apply(x).sum().backward()
        return x.grad

    assert _outcome(lambda: run(pg)) == _outcome(lambda: run(torch))
