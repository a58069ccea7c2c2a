"""``nn.Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList`` and ``ParameterDict``:
modules and parameters held in order or by key, registered (``layers.0.weight``) and printed
as torch's."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from .._tensor import Tensor
from .modules import Module, Parameter, _indented, _type_name


def _position(index, length: int) -> int:
    """A list index as torch's containers take it: negative from the end, else IndexError."""
    index = int(index)
    if not -length <= index < length:
        raise IndexError(f"index {index} is out of range")
    return index % length


class ModuleList(Module):
    """Modules in a list, each registered under its position ("0", "1", ...)."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index):
        modules = list(self._modules.values())
        if isinstance(index, slice):
            return type(self)(modules[index])
        return modules[_position(index, len(modules))]

    def __setitem__(self, index, module: Module) -> None:
        self.add_module(str(_position(index, len(self))), module)

    def __delitem__(self, index) -> None:
        modules = list(self._modules.values())
        if isinstance(index, slice):
            del modules[index]
        else:
            del modules[_position(index, len(modules))]
        self._renumber(modules)

    def _renumber(self, modules: list[Module]) -> None:
        """Positions as names again, 0 to n - 1 (after a deletion or an insertion)."""
        self._modules.clear()
        for number, module in enumerate(modules):
            self.add_module(str(number), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return type(self)([*self, *other])

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def pop(self, index) -> Module:
        module = self[index]
        del self[index]
        return module

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)

    def __repr__(self) -> str:
        """As torch prints it: runs of identical modules as ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(module) for module in self]
        if not reprs:
            return f"{type(self).__name__}()"
        runs: list[list] = []  # [first, last, repr]
        for number, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = number
            else:
                runs.append([number, number, text])
        lines = [_indented(f"({first}): {text}" if first == last else
                           f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Modules by name, in the order they were added."""

    def __init__(self, modules: Mapping | Iterable | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._modules))

    def __contains__(self, key) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def update(self, modules: Mapping | Iterable) -> None:
        pairs = modules.items() if isinstance(modules, Mapping | ModuleDict) else modules
        for number, pair in enumerate(pairs):
            if not isinstance(pair, Mapping | ModuleDict) and len(pair) != 2:
                raise ValueError(f"ModuleDict update sequence element #{number} has length "
                                 f"{len(pair)}; 2 is required")
            self[pair[0]] = pair[1]


def _as_parameter(value):
    """A tensor put in a ParameterList or ParameterDict becomes a Parameter, as in torch."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _parameter_line(key, value, dtype_name) -> str:
    """``  (0): Parameter containing: [torch.float32 of size 2x3]``."""
    if not isinstance(value, Tensor):
        return f"  ({key}): Object of type: {type(value).__name__}"
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(side) for side in value.shape)
    return f"  ({key}): {kind} containing: [{dtype_name(value)} of size {size}]"


class ParameterList(Module):
    """Parameters in a list, registered under their positions; tensors become Parameters."""

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)([self[number] for number in range(len(self))[index]])
        return getattr(self, str(_position(index, len(self))))

    def __setitem__(self, index, value) -> None:
        setattr(self, str(_position(index, len(self))), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator:
        return iter([self[number] for number in range(len(self))])

    def __iadd__(self, values: Iterable) -> ParameterList:
        return self.extend(values)

    def append(self, value) -> ParameterList:
        object.__setattr__(self, "_size", self._size + 1)
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(number, value, lambda tensor: str(tensor.dtype))
                         for number, value in enumerate(self))


class ParameterDict(Module):
    """Parameters by name; a plain dict given whole is taken in sorted order, as in torch."""

    def __init__(self, parameters: Mapping | Iterable | None = None) -> None:
        super().__init__()
        object.__setattr__(self, "_keys", {})  # (a dict: keys() prints as torch's)
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._keys))

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def values(self):
        return (self[key] for key in self._keys)

    def items(self):
        return ((key, self[key]) for key in self._keys)

    def pop(self, key: str):
        value = self[key]
        del self[key]
        return value

    def update(self, parameters: Mapping | Iterable) -> None:
        if isinstance(parameters, OrderedDict | ParameterDict):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = list(parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(key, value, _type_name) for key, value in self.items())


# (how torch's message names the base class)
_TORCH_MODULE_CLASS = "<class 'torch.nn.modules.module.Module'>"


class Sequential(Module):
    """Modules applied one after another; numbered 0, 1, ... unless given an OrderedDict."""

    def __init__(self, *modules) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, module in modules[0].items():
                self.add_module(name, module)
        else:
            for number, module in enumerate(modules):
                self.add_module(str(number), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, index):
        items = list(self._modules.items())
        if isinstance(index, slice):
            return Sequential(OrderedDict(items[index]))
        if not -len(items) <= index < len(items):
            raise IndexError(f"index {index} is out of range")
        return items[index][1]

    def __setitem__(self, index: int, module: Module) -> None:
        names = list(self._modules)
        if not -len(names) <= index < len(names):
            raise IndexError(f"index {index} is out of range")
        self.add_module(names[index], module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential) -> Sequential:
        for layer in sequential:
            self.append(layer)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """``module`` at ``index``, the ones from there on moved one place up (torch's)."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {_TORCH_MODULE_CLASS}")
        count = len(self._modules)
        if not -count <= index <= count:
            raise IndexError(f"Index out of range: {index}")
        index += count if index < 0 else 0
        for place in range(count, index, -1):
            self._modules[str(place)] = self._modules[str(place - 1)]
        self._modules[str(index)] = module
        return self

    # deleting renumbers the rest 0.. as a ModuleList's (torch's Sequential does the same)
    __delitem__, _renumber, pop = ModuleList.__delitem__, ModuleList._renumber, ModuleList.pop
