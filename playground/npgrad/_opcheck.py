"""``torch.library.opcheck``: a custom operator run on sample inputs, checked as torch checks
one (in torch's order): no undeclared mutation, an autograd kernel, a fake (shape) function
that agrees with the operator, and a forward and backward that run."""

from __future__ import annotations

import numpy as np

from ._grad_mode import no_grad
from ._tensor import Tensor

DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor",
                      "test_aot_dispatch_dynamic")


class OpCheckError(Exception):
    """A check opcheck ran failed."""


OpCheckError.__module__ = "torch.testing._internal.optests.generate_tests"


def opcheck(op, args: tuple, kwargs: dict | None = None, *, test_utils=DEFAULT_TEST_UTILS,
            raise_exception: bool = True, rtol=None, atol=None) -> dict:
    """Each check's "SUCCESS", or (``raise_exception=False``) the error it failed with."""
    op = getattr(op, "_op", op)  # torch.ops.<ns>.<name> (or its .default) as the operator
    kwargs = kwargs or {}
    checks = {"test_schema": _schema, "test_autograd_registration": _autograd_registration,
              "test_faketensor": _fake_tensor, "test_aot_dispatch_dynamic": _forward_backward}
    results: dict = {}
    for name in ([test_utils] if isinstance(test_utils, str) else test_utils):
        try:
            checks[name](op, args, kwargs)
            results[name] = "SUCCESS"
        except Exception as failure:  # noqa: BLE001 - each check's failure is reported
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {name} failed with {failure} (scroll up "
                                   f"for stack trace)") from failure
            results[name] = failure
    return results


def _copies(values):
    """The inputs again, their tensors copied (requires_grad kept): a check's own."""
    def copy(value):
        if isinstance(value, Tensor):
            return value.detach().clone().requires_grad_(value.requires_grad)
        if isinstance(value, list | tuple):
            return type(value)(copy(item) for item in value)
        return value
    return copy(values)


def _schema(op, args: tuple, kwargs: dict) -> None:
    """Run it; an argument not declared in mutates_args must come back unchanged."""
    args, kwargs = _copies(args), _copies(kwargs)
    bound = op._signature.bind(*args, **kwargs)
    before = {name: value._data.copy() for name, value in bound.arguments.items()
              if isinstance(value, Tensor) and name not in op._mutated}
    op(*args, **kwargs)  # (as called: its setup_context runs for inputs that require grad)
    for name, data in before.items():
        if not np.array_equal(data, bound.arguments[name]._data, equal_nan=True):
            raise RuntimeError(f"Argument {name} is not defined as mutable but was mutated")


def _autograd_registration(op, args: tuple, kwargs: dict) -> None:
    """A custom operator always has its autograd kernel: the generated Function, which raises
    at backward time when no formula was registered (the last check finds that)."""
    if not hasattr(op, "_function"):
        raise RuntimeError(f"{op} is not a custom operator")


def _fake_tensor(op, args: tuple, kwargs: dict) -> None:
    """Its fake function exists and gives outputs of the operator's shapes and dtypes."""
    _check_fake_registered(op)
    with no_grad():
        real = op(*_copies(args), **_copies(kwargs))
        fake = op._fake(*_copies(args), **_copies(kwargs))
    reals = real if isinstance(real, tuple | list) else (real,)
    fakes = fake if isinstance(fake, tuple | list) else (fake,)
    for position, (one, other) in enumerate(zip(reals, fakes, strict=False)):
        if isinstance(one, Tensor) and (not isinstance(other, Tensor) or
                                        one.shape != other.shape or one.dtype != other.dtype):
            raise RuntimeError(f"output {position} of the fake impl ({_described(other)}) is "
                               f"not that of the operator ({_described(one)})")
    if len(reals) != len(fakes):
        raise RuntimeError(f"the fake impl returned {len(fakes)} outputs, the operator "
                           f"{len(reals)}")


def _check_fake_registered(op) -> None:
    if op._fake is None:
        raise RuntimeError(f"There was no fake impl registered for {op}. This is necessary for "
                           f"torch.compile/export/fx tracing to work. Please use "
                           f"`{op._name}.register_fake` to add an fake impl.")


def _described(value) -> str:
    return f"{value.dtype} of shape {tuple(value.shape)}" if isinstance(value, Tensor) else \
        type(value).__name__


def _forward_backward(op, args: tuple, kwargs: dict) -> None:
    """As torch.compile would run it: traced through its fake function first, then forward
    and backward from every output that requires grad (a missing formula raises here)."""
    _check_fake_registered(op)
    output = op(*_copies(args), **_copies(kwargs))
    outputs = output if isinstance(output, tuple | list) else (output,)
    graded = [out for out in outputs if isinstance(out, Tensor) and out.requires_grad]
    if graded:
        total = graded[0].sum()
        for out in graded[1:]:
            total = total + out.sum()
        total.backward()
