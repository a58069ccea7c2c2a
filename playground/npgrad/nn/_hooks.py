"""Module hooks: forward pre-hooks, forward hooks, and full backward (pre-)hooks as torch runs them.

A full backward hook sees the gradients of the module's input and output. As in torch, the
input and the output each pass through an identity Function (``BackwardHookFunction``, whose
node torch names ``BackwardHookFunctionBackward``): the output's node keeps grad_output, the
input's node calls the hooks with grad_input once it is computed.
"""

from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict

from .._tensor import Tensor
from .._user_warnings import warn_at_user_code
from ..autograd.function import Function

_handle_numbers = itertools.count()
NO_INPUT_NEEDS_GRAD = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.")


class RemovableHandle:
    """What ``register_*_hook`` returns: ``remove()`` takes the hook out again."""

    __module__ = "torch.utils.hooks"  # printed as torch's handle is

    def __init__(self, hooks: OrderedDict, number: int, *extra: dict) -> None:
        self.hooks_dict_ref, self.id, self.extra_dict_ref = hooks, number, extra

    def remove(self) -> None:
        for table in (self.hooks_dict_ref, *self.extra_dict_ref):
            table.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


def add(hooks: OrderedDict, hook, prepend: bool = False, *marks: dict | None) -> RemovableHandle:
    """``hook`` kept under a new number (first with ``prepend``), and marked in each of
    ``marks`` given (the hooks that take kwargs, or run after a failed forward)."""
    number = next(_handle_numbers)
    hooks[number] = hook
    if prepend:
        hooks.move_to_end(number, last=False)
    for mark in marks:
        if mark is not None:
            mark[number] = True
    return RemovableHandle(hooks, number, *(mark for mark in marks if mark is not None))


# Hooks of every module's forward (torch.nn.modules.module.register_module_forward_*hook),
# run before each module's own; ALWAYS_CALLED holds the numbers of forward hooks that run even
# when forward raised.
GLOBAL_PRE_HOOKS: OrderedDict = OrderedDict()
GLOBAL_HOOKS: OrderedDict = OrderedDict()
ALWAYS_CALLED: set[int] = set()
# and of every module's backward (register_module_full_backward_pre_hook, ..._hook)
GLOBAL_BACKWARD_PRE_HOOKS: OrderedDict = OrderedDict()
GLOBAL_BACKWARD_HOOKS: OrderedDict = OrderedDict()


def any_global() -> bool:
    """Whether some hook of every module is registered (a module call then takes the hooks'
    path)."""
    return bool(GLOBAL_PRE_HOOKS or GLOBAL_HOOKS or GLOBAL_BACKWARD_PRE_HOOKS
                or GLOBAL_BACKWARD_HOOKS)


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """``hook(module, args)`` before every module's forward."""
    return add(GLOBAL_PRE_HOOKS, hook)


def register_module_full_backward_pre_hook(hook) -> RemovableHandle:
    """``hook(module, grad_output)`` in every module's backward, before the module's own."""
    return add(GLOBAL_BACKWARD_PRE_HOOKS, hook)


def register_module_full_backward_hook(hook) -> RemovableHandle:
    """``hook(module, grad_input, grad_output)`` in every module's backward, first."""
    return add(GLOBAL_BACKWARD_HOOKS, hook)


def register_module_forward_hook(hook, *, always_call: bool = False) -> RemovableHandle:
    """``hook(module, args, output)`` after every module's forward (``always_call``: also
    when it raised, with output None)."""
    handle = add(GLOBAL_HOOKS, hook)
    if always_call:
        ALWAYS_CALLED.add(handle.id)
    return handle


class BackwardHookFunction(Function):
    """The identity, whose backward hands the gradient to the module's hooks."""

    @staticmethod
    def forward(ctx, tensor, on_gradient):
        ctx.on_gradient = on_gradient
        return tensor

    @staticmethod
    def backward(ctx, grad):
        return ctx.on_gradient(grad), None


class _BackwardHooks:
    """One call's bookkeeping: grad_output from the output's node, for the input's."""

    def __init__(self, module) -> None:
        self.module = module
        self.grad_output: tuple = (None,)
        self.inputs_need_grad = False

    def wrap_inputs(self, args: tuple) -> tuple:
        self.inputs_need_grad = any(isinstance(a, Tensor) and a.requires_grad for a in args)
        if not self.inputs_need_grad or sum(isinstance(a, Tensor) for a in args) != 1:
            return args
        return tuple(BackwardHookFunction.apply(a, self._input_gradient)
                     if isinstance(a, Tensor) else a for a in args)

    def wrap_output(self, output):
        if not isinstance(output, Tensor) or not output.requires_grad:
            return output
        return BackwardHookFunction.apply(output, self._output_gradient)

    def _output_gradient(self, grad):
        self.grad_output = (grad,)
        for hook in [*GLOBAL_BACKWARD_PRE_HOOKS.values(),
                     *self.module._backward_pre_hooks.values()]:
            result = hook(self.module, self.grad_output)
            if result is None:
                continue
            if len(result) != 1:
                raise RuntimeError("Backward pre hook returned an invalid number of "
                                   f"grad_output, got {len(result)}, but expected 1")
            self.grad_output = result
        flowing = self.grad_output[0]
        if not self.inputs_need_grad:
            warn_at_user_code(NO_INPUT_NEEDS_GRAD)
            self._call_hooks((None,))
        return flowing

    def _input_gradient(self, grad):
        return self._call_hooks((grad,))[0]

    def _call_hooks(self, grad_input: tuple) -> tuple:
        for hook in [*GLOBAL_BACKWARD_HOOKS.values(), *self.module._backward_hooks.values()]:
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                grad_input = tuple(result) if isinstance(result, tuple | list) else (result,)
        return grad_input


def call_with_hooks(module, args: tuple, kwargs: dict):
    """``module(*args)`` with its hooks, in torch's order: the global ones first."""
    args, kwargs = _before_forward(module, args, kwargs)
    backward = _BackwardHooks(module) if (
        module._backward_hooks or module._backward_pre_hooks or GLOBAL_BACKWARD_HOOKS
        or GLOBAL_BACKWARD_PRE_HOOKS) else None
    if backward is not None:
        args = backward.wrap_inputs(args)
    try:
        output = module.forward(*args, **kwargs)
    except Exception:
        _always_called(module, args, kwargs)
        raise
    with_kwargs = module.__dict__.get("_forward_hooks_with_kwargs", {})
    for number, hook in [*GLOBAL_HOOKS.items(), *module._forward_hooks.items()]:
        result = hook(module, args, kwargs, output) if number in with_kwargs else \
            hook(module, args, output)
        if result is not None:
            output = result
    return backward.wrap_output(output) if backward is not None else output


def _before_forward(module, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The forward pre-hooks: each may replace the args (and the kwargs, if it takes them)."""
    with_kwargs = module.__dict__.get("_forward_pre_hooks_with_kwargs", {})
    for number, hook in [*GLOBAL_PRE_HOOKS.items(), *module._forward_pre_hooks.items()]:
        if number in with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError("forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {result}.")
                args, kwargs = result
            continue
        result = hook(module, args)
        if result is not None:
            args = result if isinstance(result, tuple) else (result,)
    return args, kwargs


def _always_called(module, args: tuple, kwargs: dict) -> None:
    """The forward hooks registered with ``always_call`` (global ones, then the module's),
    after a forward that raised (one that raises in turn is silenced with torch's warning:
    the forward's error goes on)."""
    with_kwargs = module.__dict__.get("_forward_hooks_with_kwargs", {})
    for hooks, marked, which in (
            (GLOBAL_HOOKS, ALWAYS_CALLED, "global module"),
            (module._forward_hooks, module.__dict__.get("_forward_hooks_always_called", {}),
             "module")):
        for number, hook in list(hooks.items()):
            if number not in marked:
                continue
            try:
                hook(module, args, kwargs, None) if number in with_kwargs else \
                    hook(module, args, None)
            except Exception as error:  # noqa: BLE001 - torch warns and goes on
                warnings.warn(f"{which} forward hook with ``always_call=True`` raised an "
                              "exception that was silenced as another error was raised in "
                              f"forward: {error}", stacklevel=3)


