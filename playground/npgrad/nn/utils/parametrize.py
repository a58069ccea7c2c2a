"""``torch.nn.utils.parametrize``: a module's tensor computed from an ``original`` by modules
(``module.weight`` becomes ``parametrizations.weight(original)``), as torch does it: the module
becomes a ``Parametrized<Class>`` whose attribute is a property."""

from __future__ import annotations

import contextlib

from ..._grad_mode import no_grad
from ..._missing import MISSING_HINT
from ..._tensor import Tensor
from ..containers import ModuleDict, ModuleList
from ..modules import Module, Parameter

_cache: dict | None = None  # while ``cached()`` is on: (module id, name) -> value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order to ``original``."""

    def __init__(self, modules: list, original: Tensor) -> None:
        super().__init__(modules)
        with no_grad():
            value = _through_inverses(modules, original)
            if value is not original:  # torch's set_: the original takes the new values
                original._data = value._data.copy()
        self.original = original if isinstance(original, Parameter) else \
            Parameter(original, original.requires_grad)

    def right_inverse(self, value: Tensor) -> None:
        """Make ``original`` the tensor that the parametrizations turn into ``value``."""
        with no_grad():
            self.original.copy_(_through_inverses(list(self), value))

    def forward(self) -> Tensor:
        value = self.original
        for module in self:
            value = module(value)
        return value


def _through_inverses(modules: list, value: Tensor) -> Tensor:
    """``value`` through the parametrizations' right inverses, last first (those without
    one pass it on)."""
    for module in reversed(modules):
        inverse = getattr(module, "right_inverse", None)
        if inverse is not None:
            value = inverse(value)
            if not isinstance(value, Tensor):
                raise NotImplementedError("a right_inverse that returns several tensors is not "
                                          f"{MISSING_HINT}")
    return value


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """From now on ``module.<tensor_name>`` is ``parametrization`` of an ``original`` (the
    tensor as it was, through the parametrization's right_inverse if it has one)."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        current = getattr(module, tensor_name)
        _check_keeps(parametrization(current), current, unsafe)
        module.parametrizations[tensor_name].append(parametrization)
        return module
    original = getattr(module, tensor_name)
    if not unsafe:
        with no_grad():
            _check_keeps(parametrization(original), original, unsafe)
    module._parameters.pop(tensor_name, None)
    module._buffers.pop(tensor_name, None)
    if not is_parametrized(module):
        module.parametrizations = ModuleDict()
        _make_parametrized(module)
    module.parametrizations[tensor_name] = ParametrizationList([parametrization], original)
    setattr(type(module), tensor_name, property(_getter(tensor_name), _setter(tensor_name)))
    return module


def _check_keeps(value, original: Tensor, unsafe: bool) -> None:
    if unsafe:
        return
    if not isinstance(value, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(value).__name__}.")
    if tuple(value.shape) != tuple(original.shape) or value.dtype != original.dtype:
        raise ValueError(
            "Registering a parametrization may not change the shape of the tensor, unless "
            "`unsafe` flag is enabled.\n"
            f"unparametrized dtype: {original.dtype}\nparametrized dtype: {value.dtype}\n"
            f"unparametrized shape: {original.shape}\nparametrized shape: {value.shape}")


def _make_parametrized(module: Module) -> None:
    """Give the module a class of its own (so the properties are its own, as torch's)."""
    base = type(module)
    module.__class__ = type(f"Parametrized{base.__name__}", (base,),
                            {"_before_parametrizations": base})


def _getter(name: str):
    def get(self):
        if _cache is not None:
            key = (id(self), name)
            if key not in _cache:
                _cache[key] = self.parametrizations[name]()
            return _cache[key]
        return self.parametrizations[name]()

    return get


def _setter(name: str):
    def set_(self, value):
        self.parametrizations[name].right_inverse(value)

    return set_


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    parametrizations = module.__dict__.get("_modules", {}).get("parametrizations")
    if not isinstance(parametrizations, ModuleDict):
        return False
    return tensor_name is None or tensor_name in parametrizations._modules


def type_before_parametrizations(module: Module) -> type:
    return getattr(type(module), "_before_parametrizations", type(module))


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Back to a plain tensor: the parametrized value (or the original) as a parameter."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    original = chain.original
    if leave_parametrized:
        with no_grad():
            original._data = getattr(module, tensor_name)._data.copy()
    delattr(type(module), tensor_name)
    del module.parametrizations._modules[tensor_name]
    module.register_parameter(tensor_name, original)
    if not module.parametrizations._modules:
        del module._modules["parametrizations"]
        module.__class__ = type_before_parametrizations(module)
    return module


@contextlib.contextmanager
def cached():
    """Within the block each parametrized tensor is computed once."""
    global _cache
    outer = _cache
    _cache = {} if outer is None else outer
    try:
        yield
    finally:
        _cache = outer


__all__ = ["register_parametrization", "remove_parametrizations", "is_parametrized",
           "type_before_parametrizations", "cached", "ParametrizationList"]
