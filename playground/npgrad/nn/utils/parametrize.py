"""``torch.nn.utils.parametrize``: a module's tensor computed from an ``original`` by modules
(``module.weight`` becomes ``parametrizations.weight(original)``), as torch does it: the module
becomes a ``Parametrized<Class>`` whose attribute is a property."""

from __future__ import annotations

import contextlib

from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..containers import ModuleDict, ModuleList
from ..modules import Module, Parameter

_cache: dict | None = None  # while ``cached()`` is on: (module id, name) -> value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order to ``original`` (or, where the
    first's right_inverse returns several tensors, to ``original0``, ``original1``...)."""

    def __init__(self, modules: list, original: Tensor) -> None:
        super().__init__(modules)
        with no_grad():
            value = _through_inverses(modules, original, registering=True)
        self.is_tensor = isinstance(value, Tensor)
        if self.is_tensor:
            if value is not original:  # torch's set_: the original takes the new values
                original._data = value._data.copy()
            _register(self, "original", original, original)
            return
        self.ntensors = len(value)
        for index, tensor in enumerate(value):
            if isinstance(original, Parameter):
                tensor = Parameter(tensor, original.requires_grad)
            tensor.requires_grad_(original.requires_grad)
            _register(self, f"original{index}", tensor, original)

    def right_inverse(self, value: Tensor) -> None:
        """Make the originals the tensors that the parametrizations turn into ``value``."""
        with no_grad():
            value = _through_inverses(list(self), value)
            if self.is_tensor:
                self.original.copy_(value)
                return
            for index, tensor in enumerate(value):
                getattr(self, f"original{index}").copy_(tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            value = self[0](self.original)
        else:
            value = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            value = module(value)
        return value


def _register(module: Module, name: str, tensor: Tensor, like: Tensor) -> None:
    """As a parameter where the tensor parametrized was one, else as a buffer."""
    if isinstance(like, Parameter):
        module.register_parameter(name, tensor if isinstance(tensor, Parameter) else
                                  Parameter(tensor, tensor.requires_grad))
    else:
        module.register_buffer(name, tensor)


def _through_inverses(modules: list, value: Tensor, registering: bool = False):
    """``value`` through the parametrizations' right inverses, last first (those without
    one pass it on, and so do those that raise NotImplementedError while registering): a
    tensor, or a sequence of them from the first."""
    for module in reversed(modules):
        inverse = getattr(module, "right_inverse", None)
        if inverse is None:
            continue
        try:
            value = inverse(value)
        except NotImplementedError:
            if not registering:
                raise
    if not isinstance(value, Tensor | list | tuple):
        raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                         f"(list, tuple...). Got {type(value).__name__}")
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
    if not chain.is_tensor:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                             "that is parametrized in terms of a sequence of tensors.")
        value = getattr(module, tensor_name)
        original = Parameter(value) if value.requires_grad else value
    else:
        original = chain.original
        if leave_parametrized:
            with no_grad():
                original._data = getattr(module, tensor_name)._data.copy()
    delattr(type(module), tensor_name)
    del module.parametrizations._modules[tensor_name]
    _register(module, tensor_name, original, original)
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
