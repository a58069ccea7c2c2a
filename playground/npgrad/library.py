"""``torch.library.custom_op``: a Python function made an operator ``namespace::name``, its
gradient from ``register_autograd``, its node ``GeneratedBackwardFor_<ns>_<name>_defaultBackward``
as torch names it; ``torch.ops.<ns>.<name>`` finds it (``ops.py``)."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable

import numpy as np

from ._grad_mode import GradMode, no_grad
from ._missing import missing_attribute
from ._opcheck import opcheck  # noqa: F401 - torch.library.opcheck
from ._tensor import Tensor, bump_version
from ._torch_homes import give_torch_homes
from .autograd.function import Function

# Operators made so far, by namespace and name (torch.ops reads them)
OPERATORS: dict[str, dict[str, CustomOpDef]] = {}
# What torch's generated Function gets before the operator's own inputs (its dispatch keys):
# it takes a gradient slot of its own, so a count error says one input more, as torch's does
_KEYS = object()


def custom_op(name: str, fn: Callable | None = None, /, *, mutates_args: str | Iterable[str],
              device_types=None, schema: str | None = None, tags=None):
    """``@custom_op("mylib::op", mutates_args=())`` over a function annotated with its types."""

    def make(function: Callable) -> CustomOpDef:
        signature = inspect.signature(function)
        _check_annotations(signature)
        namespace, _, op_name = name.partition("::")
        if not namespace or not op_name:
            raise ValueError(f"Expected there to be a namespace in {name}, i.e. The operator "
                             f"name should look something like ns::foo")
        mutated = _mutated_names(signature, mutates_args)
        op = CustomOpDef(namespace, op_name, function, signature, mutated)
        OPERATORS.setdefault(namespace, {})[op_name] = op
        return op

    return make if fn is None else make(fn)


def _check_annotations(signature: inspect.Signature) -> None:
    """torch infers the operator's schema from the annotations: each parameter needs one."""
    for parameter in signature.parameters.values():
        if parameter.annotation is inspect.Parameter.empty:
            raise ValueError(f"infer_schema(func): Parameter {parameter.name} must have a type "
                             f"annotation. Got func with signature {signature})")


def _mutated_names(signature: inspect.Signature, mutates_args) -> set[str]:
    parameters = signature.parameters
    if mutates_args == "unknown":
        return set(parameters)
    if isinstance(mutates_args, str):
        raise ValueError("mutates_args must be a sequence of parameter names or 'unknown'")
    return set(mutates_args)


class CustomOpDef:
    """A custom operator: call it as the function; register its autograd formula, fake (shape)
    function and device kernels."""

    def __init__(self, namespace: str, name: str, function: Callable,
                 signature: inspect.Signature, mutated: set[str]) -> None:
        self._namespace, self._name = namespace, name
        self._init_fn = function
        self._signature = signature
        self._mutated = mutated
        self._kernels: dict[str, Callable] = {}
        self._fake: Callable | None = None
        self._backward: Callable | None = None
        self._setup_context: Callable | None = None
        self._function = type(f"GeneratedBackwardFor_{namespace}_{name}_default", (Function,), {
            "forward": staticmethod(self._forward),
            "setup_context": staticmethod(self._set_up),
            "backward": staticmethod(self._backward_of)})

    @property
    def _qualname(self) -> str:
        return f"{self._namespace}::{self._name}"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    def register_fake(self, fn: Callable, /) -> Callable:
        """The function that tells outputs' shapes without values (the engine only keeps it)."""
        self._fake = fn
        return fn

    def register_autograd(self, backward: Callable, /, *,
                          setup_context: Callable | None = None) -> None:
        """``backward(ctx, *grads)`` gives one gradient per input (None for a non-tensor);
        ``setup_context(ctx, inputs, output)`` saves what it needs."""
        self._backward, self._setup_context = backward, setup_context

    def register_kernel(self, device_types, fn: Callable | None = None, /):
        """Another implementation on ``device_types`` (the engine runs the CPU's)."""
        devices = [device_types] if isinstance(device_types, str) or device_types is None \
            else list(device_types)

        def register(kernel: Callable) -> Callable:
            for device in devices:
                self._kernels[str(device)] = kernel
            return kernel

        return register if fn is None else register(fn)

    def __call__(self, *args, **kwargs):
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        inputs = tuple(bound.arguments.values())
        differentiable = GradMode.enabled and any(
            isinstance(value, Tensor) and value.requires_grad for value in inputs)
        if differentiable and not self._mutated:
            return self._function.apply(_KEYS, *inputs)
        with no_grad():
            output = self._forward(_KEYS, *inputs)
        for name in self._mutated:  # torch counts the operator's own write too
            value = bound.arguments.get(name)
            if isinstance(value, Tensor):
                bump_version(value)
        return output

    # ----- as the generated autograd.Function --------------------------------------------------
    def _forward(self, _keys, *inputs):
        kernel = self._kernels.get("cpu", self._kernels.get("None", self._init_fn))
        # the kernel runs below autograd, as torch's: its tensors require no grad (and share
        # their data and version with the inputs, which a mutating operator writes)
        inputs = tuple(value.detach() if isinstance(value, Tensor) else value
                       for value in inputs)
        output = kernel(*inputs)
        self._check_no_alias(inputs, output)
        return output

    def _set_up(self, ctx, inputs: tuple, output) -> None:
        if self._setup_context is not None:
            self._setup_context(ctx, inputs[1:], output)

    def _backward_of(self, ctx, *grads):
        if self._backward is None:
            raise RuntimeError(f"Trying to backward through {self._namespace}.{self._name}."
                               f"default but no autograd formula was registered. Please use "
                               f"register_autograd to add one.")
        returned = self._backward(ctx, *grads)
        return (None, *(returned if isinstance(returned, tuple) else (returned,)))

    def _check_no_alias(self, inputs: tuple, output) -> None:
        outputs = output if isinstance(output, tuple | list) else (output,)
        tensors = [value for value in inputs if isinstance(value, Tensor)]
        for out in outputs:
            if isinstance(out, Tensor) and any(
                    out is value or np.shares_memory(out._data, value._data)
                    for value in tensors):
                raise RuntimeError(
                    f"{self._name} (with implementation in <module "
                    f"'torch._library.custom_ops'>): The output of this custom operator (1) must "
                    f"not also be an input to this custom operator and (2) may not alias any "
                    f"inputs to this custom operator or other returns. The most common way to "
                    f"trigger this error is if we have y = custom_op(x) and y and x are the same "
                    f"Tensor. Please instead return a clone of the offending output tensor(s) "
                    f"(e.g. return x.clone()) or refactor the custom operator to not return y.")


def _operator(op, missing: Callable[[str], Exception]) -> CustomOpDef:
    """The custom operator ``op`` names ("ns::name"), or ``op`` itself."""
    if isinstance(op, CustomOpDef):
        return op
    namespace, _, name = str(op).partition("::")
    found = OPERATORS.get(namespace, {}).get(name.split(".")[0])
    if found is None:
        raise missing(str(op))
    return found


def _no_namespace_member(op: str) -> Exception:
    namespace, _, name = op.partition("::")
    return AttributeError(f"'_OpNamespace' '{namespace}' object has no attribute '{name}'")


def register_autograd(op, backward: Callable, /, *, setup_context: Callable | None = None,
                      lib=None) -> None:
    """``torch.library.register_autograd("ns::name", backward, setup_context=...)``: the
    operator's own ``register_autograd``, by name."""
    _operator(op, _no_namespace_member).register_autograd(backward, setup_context=setup_context)


def register_fake(op, func: Callable | None = None, /, *, lib=None, _stacklevel: int = 1,
                  allow_override: bool = True):
    """``torch.library.register_fake("ns::name")``, as a decorator or with the function."""
    found = _operator(op, lambda name: RuntimeError(f"operator {name} does not exist"))
    return found.register_fake if func is None else found.register_fake(func)


def register_kernel(op, device_types, func: Callable | None = None, /, *, lib=None):
    """``torch.library.register_kernel("ns::name", "cpu")``, as a decorator or with the
    function."""
    found = _operator(op, lambda name: RuntimeError(f"operator {name} does not exist"))
    return found.register_kernel(device_types, func)


give_torch_homes(sys.modules[__name__])  # (however it is imported: CustomOpDef prints as torch's)
__getattr__ = missing_attribute("torch.library")
