"""``torch.utils.checkpoint``: run part of a model without keeping what its backward needs,
and run it again when the backward gets there, as torch does (here the memory is not the
point: the graph, the output and the second run of the function are torch's)."""

from __future__ import annotations

from .. import _factories
from .._grad_mode import enable_grad, no_grad
from .._tensor import Tensor
from .._user_warnings import warn_at_user_code
from ..autograd import backward
from ..autograd.function import Function

_EXPLICIT = ("the use_reentrant parameter should be passed explicitly. {when} "
             "use_reentrant=False is recommended, but if you need to preserve the current "
             "default behavior, you can pass use_reentrant=True. Refer to docs for more details "
             "on the differences between the two variants.")


def checkpoint(function, *args, use_reentrant: bool | None = None,
               preserve_rng_state: bool = True, **kwargs):
    """``function(*args)``; its backward runs ``function`` again. Reentrant (torch's default,
    with a warning when not asked for): one CheckpointFunctionBackward node; otherwise the
    function's own graph."""
    if use_reentrant is None:
        warn_at_user_code("torch.utils.checkpoint: " + _EXPLICIT.format(
            when="Starting in PyTorch 2.9, calling checkpoint without use_reentrant will "
                 "raise an exception."))
        use_reentrant = True
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if not any(isinstance(arg, Tensor) and arg.requires_grad for arg in args):
            # (torch's warning names its own checkpoint.py as the place; here the user's line)
            warn_at_user_code("None of the inputs have requires_grad=True. Gradients will be "
                              "None")
        return CheckpointFunction.apply(function, preserve_rng_state, *args)
    stream = _factories.get_rng_state() if preserve_rng_state else None
    output = function(*args, **kwargs)
    _run_again_in_backward(output, function, args, kwargs, stream)
    return output


def _run_again_in_backward(output, function, args, kwargs, stream) -> None:
    """The non-reentrant checkpoint recomputes the function when its backward starts (with
    the random stream as it was, then put back): the graph is the one already made."""
    outputs = output if isinstance(output, tuple | list) else (output,)
    roots = [t for t in outputs if isinstance(t, Tensor) and t.grad_fn is not None]
    if not roots:
        return
    done = []

    def again(grad_outputs):
        if not done:
            done.append(True)
            with enable_grad(), _stream_as(stream):
                function(*[a.detach() if isinstance(a, Tensor) else a for a in args], **kwargs)
        return None

    roots[0].grad_fn.register_prehook(again)


class _stream_as:
    """With the random stream at ``state`` (None: as it is), put back afterwards."""

    def __init__(self, state) -> None:
        self.state = state

    def __enter__(self) -> None:
        if self.state is not None:
            self.kept = _factories.get_rng_state()
            _factories.set_rng_state(self.state)

    def __exit__(self, *exc_info) -> None:
        if self.state is not None:
            _factories.set_rng_state(self.kept)


class CheckpointFunction(Function):
    """torch's reentrant checkpoint: the forward runs without a graph, the backward runs the
    function again with one and backpropagates through it."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        ctx.run_function = run_function
        ctx.stream = _factories.get_rng_state() if preserve_rng_state else None
        ctx.inputs = args
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grad_outputs):
        inputs = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
                  for a in ctx.inputs]
        with enable_grad(), _stream_as(ctx.stream):
            outputs = ctx.run_function(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(out, grad) for out, grad in zip(outputs, grad_outputs, strict=False)
                 if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        backward([out for out, _ in pairs], [grad for _, grad in pairs])
        return (None, None, *(a.grad if isinstance(a, Tensor) else None for a in inputs))


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs):
    """A Sequential (or list of modules) in ``segments`` pieces: all but the last run under
    ``checkpoint``, the last as it is."""
    if use_reentrant is None:
        warn_at_user_code("torch.utils.checkpoint.checkpoint_sequential: " + _EXPLICIT.format(
            when="In version 2.9 we will raise an exception if use_reentrant is not passed."))
        use_reentrant = True
    if not isinstance(functions, list | tuple):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(_pieces(functions[start:end + 1]), input,
                           use_reentrant=use_reentrant, **kwargs)
    return _pieces(functions[end + 1:])(input)


def _pieces(functions):
    def run(value):
        for function in functions:
            value = function(value)
        return value

    return run


__all__ = ["checkpoint", "checkpoint_sequential"]
