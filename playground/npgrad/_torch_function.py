"""``__torch_function__``: tensor subclasses (a logging tensor, a tensor carrying units) and
tensor-like objects that intercept torch's functions and Tensor's methods, as torch dispatches
them. Nothing is intercepted until a script makes such a class: then Tensor's methods,
operators and properties, ``torch.*`` and ``torch.nn.functional.*`` are put behind a check of
their arguments (a fresh kernel process has them plain again: the kernel's fingerprint sees
Tensor's methods change)."""

from __future__ import annotations

import functools

from ._device import mode_active
from ._tensor import PLAIN_CLASSES, Tensor, _disabled_torch_function_impl

# A tensor of these classes dispatches nothing (torch's Parameter disables its own).
_PLAIN = frozenset(PLAIN_CLASSES)
_STATE = {"disabled": 0, "active": False}
# Tensor's operators: the method torch hands to __torch_function__ for each (``t + 1`` is
# Tensor.add), or None where it hands the operator itself (under the name _RENAMED gives)
_RENAMED = {"__rtruediv__": "__rdiv__", "__pow__": "pow"}
_OPERATORS = {
    "__add__": "add", "__radd__": "add", "__sub__": "sub", "__rsub__": None, "__mul__": "mul",
    "__rmul__": "mul", "__truediv__": "div", "__rtruediv__": None, "__floordiv__": None,
    "__rfloordiv__": None, "__mod__": "remainder", "__rmod__": None, "__pow__": None,
    "__rpow__": None, "__matmul__": "matmul", "__rmatmul__": None, "__neg__": "neg",
    "__abs__": "abs", "__pos__": "positive", "__eq__": None, "__ne__": "ne", "__lt__": "lt",
    "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__and__": None, "__rand__": None,
    "__or__": None, "__ror__": None, "__xor__": None, "__rxor__": None, "__invert__": None,
    "__lshift__": None, "__rshift__": None, "__iadd__": "add_", "__isub__": "sub_",
    "__imul__": "mul_", "__itruediv__": "div_", "__getitem__": None, "__setitem__": None,
    "__bool__": None, "__float__": None, "__int__": None, "__index__": None, "__len__": None,
    "__format__": None, "__repr__": None, "__complex__": None, "__deepcopy__": None,
    "__contains__": None,
}
# What torch defines in Python (torch/_tensor.py, torch.nn.functional): it hands their
# __torch_function__ a kwargs dict, where its C++ methods hand None.
_PYTHON_LEVEL = frozenset({
    "backward", "__rsub__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__pow__",
    "__rpow__", "__len__", "__repr__", "__format__", "__deepcopy__", "__contains__",
    "__rmatmul__", "__rmod__", "register_hook", "split", "norm", "unique", "unflatten", "lu",
    "stft", "istft", "share_memory_", "__reversed__", "__array__"})
# torch.nn.functional's that torch binds from C++ (handed None for kwargs, as its methods)
_C_LEVEL_FUNCTIONAL = frozenset({
    "adaptive_avg_pool1d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "bilinear", "celu_",
    "channel_shuffle", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "cosine_similarity", "elu_", "gelu", "hardshrink", "hardtanh_",
    "leaky_relu_", "linear", "logsigmoid", "one_hot", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle",
    "prelu", "relu_", "rrelu_", "scaled_dot_product_attention", "selu_", "softplus", "softshrink",
    "threshold_"})
_NOT_WRAPPED = frozenset({"backward_hooks", "is_meta"})  # (read by the engine on every op)


class DisableTorchFunctionSubclass:
    """Within it, subclasses' ``__torch_function__`` is not called (torch's default
    ``__torch_function__`` runs the function so)."""

    def __enter__(self):
        _STATE["disabled"] += 1
        return self

    def __exit__(self, *exc_info) -> None:
        _STATE["disabled"] -= 1


DisableTorchFunction = DisableTorchFunctionSubclass  # (no torch function modes here)


def default_torch_function(cls, func, types, args=(), kwargs=None):
    """torch.Tensor.__torch_function__: run ``func`` plainly and hand back its tensors as
    ``cls`` (an alias of each, as torch's as_subclass makes)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, kind) for kind in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        result = func(*args, **kwargs)
        if getattr(func, "__name__", "") in ("grad", "_base"):  # (torch's no-wrap getters)
            return result
        return _converted(result, cls)


def _converted(result, cls):
    if cls is Tensor:
        return result
    if isinstance(result, Tensor) and not isinstance(result, cls):
        return as_subclass(result, cls)
    if isinstance(result, tuple | list) and not hasattr(result, "_fields"):
        return type(result)(_converted(item, cls) for item in result)
    return result


def as_subclass(self: Tensor, cls: type) -> Tensor:
    """The same values as an instance of ``cls`` (a Tensor subclass): an alias, on the graph
    (AliasBackward0) where it requires grad."""
    from ._indexing import _alias as alias

    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"as_subclass(): argument 'cls' must be a subclass of Tensor, not "
                        f"{getattr(cls, '__name__', type(cls).__name__)}")
    made = alias(self) if self._rg else Tensor._make(self._data, None, self._vc)
    made.__class__ = cls
    return made


def overrides(kind: type) -> bool:
    """Whether instances of ``kind`` take part in dispatch."""
    if kind in _PLAIN:
        return False
    handler = getattr(kind, "__torch_function__", None)
    return handler is not None and handler is not _disabled_torch_function_impl


def overloaded_arguments(args, kwargs) -> list:
    """The arguments whose ``__torch_function__`` is asked, one per type: subclasses before
    their superclasses, otherwise left to right (sequences of tensors looked into)."""
    found, kinds = [], []
    for value in _flattened(args, kwargs):
        kind = type(value)
        if kind in _PLAIN or kind in kinds or not overrides(kind):
            continue
        kinds.append(kind)
        index = next((i for i, other in enumerate(found) if issubclass(kind, type(other))),
                     len(found))
        found.insert(index, value)
    return found


def _flattened(args, kwargs):
    for value in (*args, *(kwargs.values() if kwargs else ())):
        if isinstance(value, list | tuple):
            yield from value
        else:
            yield value


def handle(func, overloaded: list, args, kwargs):
    """Ask each overloaded argument's ``__torch_function__`` in turn; the first answer that
    is not NotImplemented is the call's."""
    types = tuple(dict.fromkeys(type(value) for value in overloaded))
    for value in overloaded:
        result = value.__torch_function__(func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    listed = "".join(f"  - tensor subclass {kind}\n" for kind in types)
    raise TypeError(f"Multiple dispatch failed for '{_qualified(func)}'; all __torch_function__ "
                    f"handlers returned NotImplemented:\n\n{listed}\nFor more information, try "
                    "re-running with TORCH_LOGS=not_implemented")


def _qualified(func) -> str:
    name = getattr(func, "__name__", str(func))
    return f"torch.Tensor.{name}" if getattr(func, "_is_method", False) else f"torch.{name}"


def has_torch_function(args) -> bool:
    """Whether an argument overrides torch functions, or a torch function mode is on (a
    device's: torch's ``with torch.device(...)`` and set_default_device push one)."""
    try:
        args = tuple(args)
    except TypeError:
        raise TypeError("expected a sequence") from None
    return bool(args) and (mode_active() or bool(overloaded_arguments(args, None)))


def _dispatching(original, name: str, method: bool, public=None, python_level: bool = False):
    """``original`` behind the check: ``public`` (itself, where None) is what
    ``__torch_function__`` is handed."""

    @functools.wraps(original)
    def call(*args, **kwargs):
        if not _STATE["disabled"]:
            overloaded = overloaded_arguments(args, kwargs)
            if overloaded:
                return handle(public or call, overloaded, args,
                              kwargs if python_level else kwargs or None)
        return original(*args, **kwargs)

    call.__name__ = name
    call._is_method = method
    return call


class _Getter:
    """What a property read hands ``__torch_function__`` (torch: the getter's ``__get__``)."""

    __name__ = "__get__"
    _is_method = True

    def __init__(self, prop: property, name: str) -> None:
        self._prop, self._name = prop, name

    def __call__(self, tensor):
        return self._prop.fget(tensor)

    def __repr__(self) -> str:
        return f"<method-wrapper '__get__' of getset_descriptor {self._name!r}>"


def _dispatching_property(prop: property, name: str) -> property:
    getter = _Getter(prop, name)

    def read(tensor):
        if not _STATE["disabled"] and type(tensor) not in _PLAIN and overrides(type(tensor)):
            return handle(getter, [tensor], (tensor,), None)
        return prop.fget(tensor)

    return property(read, prop.fset, prop.fdel, prop.__doc__)


def activate() -> None:
    """Put Tensor's methods, operators and properties, torch's functions and
    torch.nn.functional's behind the dispatch check (once a process)."""
    if _STATE["active"]:
        return
    _STATE["active"] = True
    import sys

    members = dict(vars(Tensor))
    for name, member in members.items():
        if name in _NOT_WRAPPED:
            continue
        if isinstance(member, property) and not name.startswith("_") and member.fget:
            setattr(Tensor, name, _dispatching_property(member, name))
        elif callable(member) and not isinstance(member, type | staticmethod | classmethod) \
                and not name.startswith("_"):
            setattr(Tensor, name, _dispatching(member, name, True,
                                               python_level=name in _PYTHON_LEVEL))
    for name, method_name in _OPERATORS.items():
        member = members.get(name)
        if member is None:
            continue
        public = vars(Tensor).get(method_name) if method_name else None
        setattr(Tensor, name, _dispatching(member, _RENAMED.get(name, name), True, public,
                                           name in _PYTHON_LEVEL))
    Tensor.__rdiv__ = Tensor.__rtruediv__  # (torch's name for it)
    package = sys.modules[__name__.rpartition(".")[0]]
    from . import _bindings
    from .nn import functional

    for name in _bindings.FUNCTIONS:
        value = package.__dict__.get(name)
        if callable(value) and not isinstance(value, type):
            setattr(package, name, _dispatching(value, name, False))
    for table in (functional._LAZY, functional._IN_SIBLINGS):  # (wrapped too: set here)
        for names in table.values():
            for name in names:
                setattr(functional, name, getattr(functional, name))
    for name, value in list(vars(functional).items()):
        if callable(value) and not isinstance(value, type) and not name.startswith("_") and \
                getattr(value, "__module__", "").startswith(package.__name__):
            setattr(functional, name, _dispatching(
                value, name, False, python_level=name not in _C_LEVEL_FUNCTIONAL))
