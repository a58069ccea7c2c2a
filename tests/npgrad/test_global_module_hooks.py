"""Global forward hooks on every module (what the app hears module calls by), as torch's."""

from __future__ import annotations

import warnings

import pytest

import playground.npgrad as npgrad
from playground.npgrad import _nodes
from playground.npgrad.nn import _hooks


def _script(torch, register_before, register_after, mark) -> list:
    """Module calls, with the node numbers around them, as the global hooks report them."""
    nn = torch.nn
    heard = []

    class Fragile(nn.Module):
        def forward(self, x):
            raise ValueError("no")

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 2)
            self.act = nn.Tanh()
            self.fragile = Fragile()

        def forward(self, x):
            try:
                self.fragile(x)
            except ValueError:
                heard.append("caught")
            return self.act(self.fc(x)) * 2

    model = Net()
    model.fc.register_forward_hook(lambda module, args, out: heard.append("own hook"))
    before = register_before(lambda module, args: heard.append(
        ("before", type(module).__name__, len(args))))
    after = register_after(lambda module, args, out: heard.append(
        ("after", type(module).__name__, None if out is None else tuple(out.shape))),
        always_call=True)
    x = torch.ones(3, 2, requires_grad=True)
    start = mark()
    out = model(x)
    end = mark()
    numbers = sorted(fn._sequence_nr() for fn in (out.grad_fn, out.grad_fn.next_functions[0][0]))
    heard.append(start <= numbers[0] and numbers[1] < end)
    before.remove()
    after.remove()
    model(x)  # heard by no global hook now
    return heard


def test_global_forward_hooks_are_called_as_torchs():
    torch = pytest.importorskip("torch")
    module = torch.nn.modules.module
    expected = _script(torch, module.register_module_forward_pre_hook,
                       module.register_module_forward_hook,
                       torch._C._autograd._get_sequence_nr)
    mine = _script(npgrad, _hooks.register_module_forward_pre_hook,
                   _hooks.register_module_forward_hook, _nodes.sequence_mark)
    assert mine == expected
    assert ("after", "Fragile", None) in mine and mine[-3:] == [True, "caught", "own hook"]
    assert not _hooks.GLOBAL_PRE_HOOKS and not _hooks.GLOBAL_HOOKS


def test_an_always_called_hook_that_raises_after_a_failed_forward_is_silenced_with_a_warning():
    class Broken(npgrad.nn.Module):
        def forward(self, x):
            raise KeyError("forward")

    def hook(module, args, out):
        raise RuntimeError("hook")

    handle = _hooks.register_module_forward_hook(hook, always_call=True)
    try:
        with warnings.catch_warnings(record=True) as caught, pytest.raises(KeyError):
            warnings.simplefilter("always")
            Broken()(npgrad.ones(1))
    finally:
        handle.remove()
    assert "silenced as another error was raised in forward: hook" in str(caught[0].message)
