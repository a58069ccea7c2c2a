"""``torch.nn``'s building blocks of small models: Parameter, Module, Linear, activations
(more activations are in activation.py, losses in loss.py, Sequential in containers.py)."""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Iterator

from ... import _compile, _dtype, _factories
from ..._grad_mode import no_grad
from ..._memory_formats import converted_in_place
from ..._missing import lacking_member
from ..._tensor import Parameter, Tensor
from .. import _hooks, functional, init
from . import lookup, placement


def _indented(text: str, spaces: int) -> str:
    """Indent every line but the first: a child's repr inside its parent's."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


class Module:
    """Base class of models: parameters and sub-modules assigned as attributes are tracked."""

    training: bool
    _version = 1  # the state dict's metadata (torch's format version of the module's entries)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        placement.build_on_given_device(cls)

    to_empty = placement.to_empty
    compile = _compile.compile_module  # noqa: A003 - torch's name

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})  # (plain dicts, as torch 2 keeps them)
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())

    # ----- attributes ----------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        parameters = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if parameters is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.register_parameter(name, value)
        elif isinstance(value, Tensor) and value.__dict__.get("_is_buffer"):  # an nn.Buffer
            if parameters is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self.register_buffer(name, value, value.__dict__.get("persistent", True))
        elif isinstance(value, Module):
            if parameters is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.add_module(name, value)
        elif parameters is not None and name in parameters:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            parameters[name] = None
        elif parameters is not None and name in self._buffers:
            self._buffers[name] = value
        elif parameters is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        for table in ("_parameters", "_buffers", "_modules"):
            members = self.__dict__.get(table)
            if members is not None and name in members:
                return members[name]
        if lookup.torchs_own(name):  # one of torch's methods the engine lacks
            raise lacking_member(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        return lookup.names_of(self)

    def get_submodule(self, target: str) -> Module:
        return lookup.submodule(self, target)

    def get_parameter(self, target: str) -> Parameter:
        return lookup.parameter(self, target)

    def get_buffer(self, target: str) -> Tensor:
        return lookup.buffer(self, target)

    def share_memory(self) -> Module:  # one process here: nothing to share
        return self

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                self._non_persistent.discard(name)
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Tensor | None) -> None:
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self.__dict__.pop(name, None)
        self._modules.pop(name, None)
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        self.__dict__.pop(name, None)
        self._parameters.pop(name, None)
        self._modules[name] = module

    register_module = add_module

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """A tensor the module keeps and saves (running statistics), not a parameter."""
        self.__dict__.pop(name, None)
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent.add(name)

    # ----- running ---------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _hooks.any_global()):
            return self.forward(*args, **kwargs)
        return _hooks.call_with_hooks(self, args, kwargs)

    def register_forward_pre_hook(self, hook, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> _hooks.RemovableHandle:
        """``hook(module, args)`` before forward; what it returns replaces the args (with
        ``with_kwargs``: ``hook(module, args, kwargs)``, returning both)."""
        return _hooks.add(self._forward_pre_hooks, hook, prepend,
                          self._marks("_forward_pre_hooks_with_kwargs", with_kwargs))

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> _hooks.RemovableHandle:
        """``hook(module, args, output)`` after forward; what it returns replaces the output
        (with ``with_kwargs``: ``hook(module, args, kwargs, output)``; with ``always_call``
        it runs after a forward that raised too)."""
        return _hooks.add(self._forward_hooks, hook, prepend,
                          self._marks("_forward_hooks_with_kwargs", with_kwargs),
                          self._marks("_forward_hooks_always_called", always_call))

    def _marks(self, name: str, wanted: bool) -> dict | None:
        """torch's per-module record of the hooks registered with an option."""
        return self.__dict__.setdefault(name, OrderedDict()) if wanted else None

    def register_full_backward_hook(self, hook) -> _hooks.RemovableHandle:
        """``hook(module, grad_input, grad_output)`` once the gradients of the module's inputs
        are computed; what it returns replaces grad_input."""
        return _hooks.add(self._backward_hooks, hook)

    def register_full_backward_pre_hook(self, hook, prepend: bool = False
                                        ) -> _hooks.RemovableHandle:
        """``hook(module, grad_output)`` once the gradient of the module's output is known,
        before it flows into the module; what it returns replaces grad_output."""
        return _hooks.add(self._backward_pre_hooks, hook, prepend)

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False):
        """``hook(state_dict, prefix, local_metadata, strict, missing, unexpected, errors)``
        before load_state_dict reads this module's entries (``module`` first if asked)."""
        if with_module:
            hook = functools.partial(hook, self)
        return _hooks.add(self.__dict__.setdefault("_load_state_dict_pre_hooks", {}), hook)

    def register_load_state_dict_pre_hook(self, hook):
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(module, incompatible_keys)`` after loading; it may edit the keys in place."""
        return _hooks.add(self.__dict__.setdefault("_load_state_dict_post_hooks", {}), hook)

    def register_state_dict_pre_hook(self, hook):
        """``hook(module, prefix, keep_vars)`` before state_dict collects this module."""
        return _hooks.add(self.__dict__.setdefault("_state_dict_pre_hooks", {}), hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(module, state_dict, prefix, local_metadata)`` after; it must return None."""
        hook._from_public_api = True
        return self._register_state_dict_hook(hook)

    def _register_state_dict_hook(self, hook):
        return _hooks.add(self.__dict__.setdefault("_state_dict_hooks", {}), hook)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    # ----- walking -----------------------------------------------------------------------------
    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True
                      ) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        stack = [(prefix, self)]
        while stack:  # depth first, children in order, each module once (unless asked)
            name, module = stack.pop()
            if remove_duplicate and id(module) in seen:
                continue
            seen.add(id(module))
            yield name, module
            children = [(f"{name}.{key}" if name else key, child)
                        for key, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator[Module]:
        return (module for _, module in self.named_modules())

    def named_children(self) -> Iterator[tuple[str, Module]]:
        return ((name, child) for name, child in self._modules.items() if child is not None)

    def children(self) -> Iterator[Module]:
        return (child for _, child in self.named_children())

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else iter([(prefix, self)])
        for module_name, module in modules:
            for name, param in module._parameters.items():
                if param is None or (remove_duplicate and id(param) in seen):
                    continue
                seen.add(id(param))
                yield (f"{module_name}.{name}" if module_name else name), param

    def parameters(self, recurse: bool = True) -> Iterator[Tensor]:
        return (param for _, param in self.named_parameters(recurse=recurse))

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen: set[int] = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else iter([(prefix, self)])
        for module_name, module in modules:
            for name, buffer in module._buffers.items():
                if buffer is None or (remove_duplicate and id(buffer) in seen):
                    continue
                seen.add(id(buffer))
                yield (f"{module_name}.{name}" if module_name else name), buffer

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        return (buffer for _, buffer in self.named_buffers(recurse=recurse))

    def apply(self, function) -> Module:
        for child in self.children():
            child.apply(function)
        function(self)
        return self

    # ----- state -------------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        from ...optim import clear_grads

        clear_grads(self.parameters(), set_to_none)

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """Each module's parameters, then its saved buffers, module by module (torch's order)."""
        from .state import collect_state

        return collect_state(self, args, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict: dict, strict: bool = True, assign: bool = False):
        from .state import load_state

        return load_state(self, state_dict, strict, assign)

    def to(self, *args, **kwargs) -> Module:
        """A dtype converts the parameters and buffers in place; the meta device leaves them
        their shapes only (another device says it needs the torch engine, as a tensor's .to
        does)."""
        from ..._device import device, is_meta
        from ..._meta import NoValues

        specs = [spec for spec in (*args, kwargs.get("device")) if isinstance(spec, str | device)]
        if any(is_meta(spec) for spec in specs):
            for tensor in (*self.parameters(), *self.buffers()):
                tensor._data = NoValues.of(tensor._data)
        dtype = kwargs.get("dtype") or next((a for a in args if hasattr(a, "is_floating_point")),
                                            None)
        if dtype is not None or kwargs.get("memory_format") is not None:
            converted_in_place((*self.parameters(), *self.buffers()), dtype,
                               kwargs.get("memory_format"))
        return self

    def cpu(self) -> Module:
        return self

    def type(self, dst_type) -> Module:
        """Every parameter and buffer converted to ``dst_type`` (a dtype or a legacy type
        such as torch.DoubleTensor), integer counters too, as torch's does."""
        name = dst_type if isinstance(dst_type, str) else getattr(dst_type, "__name__", None)
        if name is not None:
            dst_type = _dtype.by_legacy_name(name.rsplit(".", 1)[-1])
        with no_grad():
            for tensor in (*self.parameters(), *self.buffers()):
                tensor._data = _dtype.values_as(tensor._data, dst_type)
        return self

    def double(self) -> Module:
        return self.to(_dtype.float64)

    def float(self) -> Module:
        return self.to(_dtype.float32)

    def half(self) -> Module:
        return self.to(_dtype.float16)

    def bfloat16(self) -> Module:
        return self.to(_dtype.bfloat16)

    # ----- printing ----------------------------------------------------------------------------
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): {_indented(repr(child), 2)}"
                       for name, child in self._modules.items()]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{type(self).__name__}({body})"


def _type_name(value) -> str:
    """torch.typename: tensors by their legacy type (torch.FloatTensor)."""
    return value.type() if isinstance(value, Tensor) else type(value).__name__


class Linear(Module):
    """``y = x @ weight.T + bias``, initialised as torch does (from its random stream)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        weight_and_bias(self, (out_features, in_features), bias, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.reset_weight_and_bias(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Dropout(Module):
    """Zeroes elements at random while training (``model.train()``); the identity in eval."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:
        return functional.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Embedding(Module):
    """A lookup table: row i of ``weight`` for index i, initialised from N(0, 1) as torch
    does (the padding row zero, and it gets no gradient)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Tensor | None = None, _freeze: bool = False,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        weight = _empty((num_embeddings, embedding_dim), dtype) if _weight is None \
            else _weight.detach()
        self.weight = Parameter(weight, requires_grad=not _freeze)
        if _weight is None:
            self.reset_parameters()

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight._data[self.padding_idx] = 0

    def forward(self, input: Tensor) -> Tensor:
        return functional.embedding(input, self.weight, self.padding_idx, self.max_norm,
                                    self.norm_type, self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        for name, plain in (("padding_idx", None), ("max_norm", None), ("norm_type", 2),
                            ("scale_grad_by_freq", False), ("sparse", False)):
            value = getattr(self, name)
            if value is not plain and value != plain:
                text += f", {name}={value}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, **options) -> Embedding:
        rows, dim = embeddings.shape
        return cls(rows, dim, padding_idx, _weight=embeddings, _freeze=freeze, **options)


def _empty(shape: tuple, dtype) -> Tensor:
    """A parameter's storage before its reset_parameters fills it."""
    return _factories.empty(*shape, dtype=dtype)


def weight_and_bias(module: Module, weight_shape: tuple, bias: bool, dtype,
                    outputs: int | None = None) -> None:
    """A layer's ``weight`` and, if asked, a ``bias`` of one value per output (the weight's
    first dimension unless given; else a None parameter), unfilled until reset_parameters,
    registered in torch's order."""
    module.weight = Parameter(_empty(weight_shape, dtype))
    if bias:
        module.bias = Parameter(_empty((weight_shape[0] if outputs is None else outputs,),
                                       dtype))
    else:
        module.register_parameter("bias", None)


class Identity(Module):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
