"""``torch.jit.script`` and ``torch.jit.trace``: what they return is shaped as torch's (a
RecursiveScriptModule or TopLevelTracedModule sharing the model's parameters, a ScriptFunction)
and runs the model's own Python, so the graph shows the model's own nodes. Tracing calls the
model as often as torch's checked trace does (three times), so random draws stay in step."""

from __future__ import annotations

import inspect
import sys

from ._missing import MISSING_HINT
from ._tensor import Tensor
from ._torch_homes import give_torch_homes
from .nn.modules import Module

_SHARED_TABLES = ("_parameters", "_buffers", "_modules")


class ScriptFunction:
    """A scripted or traced function: called as the function it was made from."""

    __module__ = "torch.jit"
    __qualname__ = "torch.jit.ScriptFunction"

    def __init__(self, function) -> None:
        self._function = function
        self.name = getattr(function, "__name__", "forward")
        self.qualified_name = f"__torch__.{self.name}"

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    @property
    def code(self) -> str:
        raise NotImplementedError(f"ScriptFunction.code (TorchScript's source) {MISSING_HINT}")

    graph = code


class ScriptModule(Module):
    """A compiled copy of a model: the same Parameter and buffer objects, its own training flag
    and attributes (torch copies them when it compiles), the model's methods run on it."""

    def __init__(self, original: Module, child_kind: type[ScriptModule]) -> None:
        super().__init__()
        source = original.__dict__
        object.__setattr__(self, "_original_class", source.get("_original_class",
                                                                type(original)))
        for name, value in source.items():
            if name not in _SHARED_TABLES and not name.startswith("_forward") \
                    and not name.startswith("_backward"):
                object.__setattr__(self, name, value)
        self._parameters.update(original._parameters)
        self._buffers.update(original._buffers)
        self._non_persistent.update(source.get("_non_persistent", ()))
        for name, child in original._modules.items():
            self._modules[name] = None if child is None else child_kind(child, child_kind)

    def forward(self, *args, **kwargs):
        return self._original_class.forward(self, *args, **kwargs)

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            if name.startswith("__"):
                raise
            member = inspect.getattr_static(self._original_class, name, None)
            if member is None:
                raise
            return member.__get__(self, type(self)) if hasattr(member, "__get__") else member

    # A container's own protocol (Sequential's forward iterates over itself) from its class.
    def __iter__(self):
        return self._original_class.__iter__(self)

    def __bool__(self) -> bool:  # (a module is true, whatever its length)
        return True

    def __len__(self) -> int:
        return self._original_class.__len__(self)

    def __getitem__(self, index):
        return self._original_class.__getitem__(self, index)

    @property
    def original_name(self) -> str:
        return self._original_class.__name__

    @property
    def code(self) -> str:
        raise NotImplementedError(f"ScriptModule.code (TorchScript's source) {MISSING_HINT}")

    graph = code

    def save(self, f, **kwargs) -> None:
        save(self, f)

    def _shown_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        lines = [f"original_name={self.original_name}"]
        lines += [f"({name}): {_indented(repr(child))}" for name, child in self._modules.items()]
        if len(lines) == 1:
            return f"{self._shown_name()}({lines[0]})"
        return f"{self._shown_name()}(\n  " + "\n  ".join(lines) + "\n)"


def _indented(text: str) -> str:
    return text.replace("\n", "\n  ")


class RecursiveScriptModule(ScriptModule):
    """What ``torch.jit.script(model)`` returns."""

    def __init__(self, original: Module, child_kind: type[ScriptModule] | None = None) -> None:
        super().__init__(original, RecursiveScriptModule)


class TracedModule(ScriptModule):
    """A traced sub-module: printed under its model class's name, as torch prints it."""

    def __init__(self, original: Module, child_kind: type[ScriptModule] | None = None) -> None:
        super().__init__(original, TracedModule)

    def _shown_name(self) -> str:
        return self.original_name


class TopLevelTracedModule(TracedModule):
    """What ``torch.jit.trace(model, inputs)`` returns."""


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    """A model, function or class ready for TorchScript; here it runs as written."""
    if isinstance(obj, (ScriptModule, ScriptFunction, type)):
        return obj
    if isinstance(obj, Module):
        return RecursiveScriptModule(obj)
    if callable(obj):
        return ScriptFunction(obj)
    raise RuntimeError(f"Could not get name of python class object: {obj!r}")


def trace(func, example_inputs=None, optimize=None, check_trace: bool = True,
          check_inputs=None, check_tolerance: float = 1e-5, strict: bool = True,
          _force_outplace: bool = False, _module_class=None, _compilation_unit=None,
          example_kwarg_inputs=None, _store_inputs: bool = True):
    """Runs ``func`` on the example inputs as torch's trace and its check do (once, or three
    times when checked, on clones after the first) and returns its traced stand-in."""
    if isinstance(func, ScriptModule | ScriptFunction):
        return func
    args = _as_arguments(example_inputs)
    kwargs = dict(example_kwarg_inputs or {})
    func(*args, **kwargs)
    if check_trace:
        for _ in range(2):
            func(*_cloned(args), **_cloned(kwargs))
    if isinstance(func, Module):
        return TopLevelTracedModule(func)
    return ScriptFunction(func)


def trace_module(mod: Module, inputs: dict, optimize=None, check_trace: bool = True, **kwargs):
    """``trace`` of the named methods of a model (``{"forward": example_inputs}``)."""
    for method, example in inputs.items():
        call = getattr(mod, method)
        call(*_as_arguments(example))
        if check_trace:
            for _ in range(2):
                call(*_cloned(_as_arguments(example)))
    return TopLevelTracedModule(mod)


def _as_arguments(example) -> tuple:
    if example is None:
        return ()
    return (example,) if isinstance(example, Tensor) else tuple(example)


def _cloned(values):
    """The check's inputs: torch clones them so that an in-place forward cannot change them."""
    def clone(value):
        if not isinstance(value, Tensor):
            return value
        copy = value.detach().clone()
        return copy.requires_grad_() if value.requires_grad else copy

    if isinstance(values, dict):
        return {name: clone(value) for name, value in values.items()}
    return tuple(clone(value) for value in values)


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True):
    """A frozen copy for inference: torch's checks, then the same model."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use torch.jit.script"
                           " or torch.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. "
                           "Please call .eval() on your module before freezing.")
    return RecursiveScriptModule(mod)


def optimize_for_inference(mod, other_methods=None):
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please use "
                           "torch.jit.script or torch.jit.trace to script your 'nn.Module'.")
    return mod if not mod.training else freeze(mod.eval())


def save(m, f, _extra_files=None) -> None:
    """The compiled model, pickled (read back by ``torch.jit.load`` in a program that can
    import its class)."""
    from . import _serialization

    if not isinstance(m, ScriptModule):
        raise AttributeError(f"'{type(m).__name__}' object has no attribute 'save'")
    _serialization.save(RecursiveScriptModule(m), f)


def load(f, map_location=None, _extra_files=None, _restore_shapes: bool = False):
    from . import _serialization

    return _serialization.load(f, map_location=map_location, weights_only=False)


def fork(func, *args, **kwargs):
    """Runs ``func`` now (as eager torch does) and hands back its finished future."""
    from .futures import Future

    future = Future()
    future.set_result(func(*args, **kwargs))
    return future


def wait(future):
    return future.wait()


give_torch_homes(sys.modules[__name__])  # (its classes print as torch's)
