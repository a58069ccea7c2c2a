"""A module's state dict as torch makes it and loads it back: parameters and persistent
buffers module by module (a shared module under each of its names), the state-dict hooks
before and after, size checks, strict mode's message and the ``_IncompatibleKeys`` returned."""

from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple

from ..._grad_mode import no_grad
from ..._tensor import Parameter, Tensor
from ..._user_warnings import warn_at_user_code


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_POSITIONAL = ("Positional args are being deprecated, use kwargs instead. Refer to "
               "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
               "#torch.nn.Module.state_dict for details.")


def collect_state(module, args: tuple, destination=None, prefix: str = "",
                  keep_vars: bool = False) -> OrderedDict:
    """torch's Module.state_dict: the pre-hooks, this module's own entries, its children's
    under their prefixes, then the post-hooks (a private hook may replace the dict)."""
    if args:  # (destination, prefix, keep_vars), the old way
        warnings.warn(_POSITIONAL, FutureWarning, stacklevel=3)
        destination = args[0] if destination is None else destination
        prefix = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    local_metadata = {"version": type(module)._version}
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    hooks = module.__dict__
    for hook in hooks.get("_state_dict_pre_hooks", {}).values():
        hook(module, prefix, keep_vars)
    _own_state(module, destination, prefix, keep_vars)
    for name, child in module._modules.items():
        if child is not None:
            child.state_dict(destination=destination, prefix=f"{prefix}{name}.",
                             keep_vars=keep_vars)
    for hook in hooks.get("_state_dict_hooks", {}).values():
        result = hook(module, destination, prefix, local_metadata)
        if getattr(hook, "_from_public_api", False):
            if result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        elif result is not None:
            destination = result
    return destination


def _own_state(module, destination, prefix: str, keep_vars: bool) -> None:
    for name, param in module._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buffer in module._buffers.items():
        if buffer is not None and name not in module._non_persistent:
            destination[prefix + name] = buffer if keep_vars else buffer.detach()
    if _overrides(module, "get_extra_state"):
        destination[prefix + "_extra_state"] = module.get_extra_state()


def _base(module):
    from . import Module

    return Module


def run_load_post_hooks(module, keys: _IncompatibleKeys) -> None:
    """Each module's hooks, children's first (torch runs them as its load returns)."""
    for child in module._modules.values():
        if child is not None:
            run_load_post_hooks(child, keys)
    for hook in module.__dict__.get("_load_state_dict_post_hooks", {}).values():
        if hook(module, keys) is not None:
            raise AssertionError("Hooks registered with ``register_load_state_dict_post_hook`` "
                                 "are not expected to return new values, if incompatible_keys "
                                 "need to be modified, it should be done inplace.")


def _targets(module) -> dict[str, Tensor]:
    """Every parameter and persistent buffer by its state-dict name, torch's order."""
    targets = {}
    for module_name, child in module.named_modules():
        prefix = f"{module_name}." if module_name else ""
        for name, param in child._parameters.items():
            if param is not None:
                targets[prefix + name] = param
        for name, buffer in child._buffers.items():
            if buffer is not None and name not in child._non_persistent:
                targets[prefix + name] = buffer
        if _overrides(child, "set_extra_state"):
            targets[prefix + "_extra_state"] = child
    return targets


def _overrides(module, method: str) -> bool:
    return getattr(type(module), method, None) is not getattr(_base(module), method, None)


def _quoted(names: list[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def load_state(module, state_dict, strict: bool = True,
               assign: bool = False) -> _IncompatibleKeys:
    """Copy the dict's tensors into the module's (under no_grad), or with ``assign`` make them
    the module's own, or raise torch's error. Each module's load-state-dict pre-hooks see
    (and may rename the keys of) a copy first."""
    state_dict = dict(state_dict)
    for module_name, child in module.named_modules():
        for hook in child.__dict__.get("_load_state_dict_pre_hooks", {}).values():
            hook(state_dict, f"{module_name}." if module_name else "", {}, strict, [], [], [])
    targets = _targets(module)
    # (a dict without BatchNorm's counter is an old one: torch keeps the module's own)
    missing = [name for name in targets if name not in state_dict
               and not name.endswith("num_batches_tracked")]
    unexpected = [name for name in state_dict if name not in targets]
    run_load_post_hooks(module, _IncompatibleKeys(missing, unexpected))
    errors = []
    for name, target in targets.items():
        value = state_dict.get(name)
        if value is None or not isinstance(target, Tensor):  # (a module's extra state)
            continue
        if not isinstance(value, Tensor):
            errors.append(f'While copying the parameter named "{name}", expected torch.Tensor '
                          f"or Tensor-like object from checkpoint but received {type(value)}")
        elif value.shape != target.shape:
            errors.append(f"size mismatch for {name}: copying a param with shape {value.shape} "
                          f"from checkpoint, the shape in current model is {target.shape}.")
    if strict:
        if unexpected:
            errors.insert(0, f"Unexpected key(s) in state_dict: {_quoted(unexpected)}. ")
        if missing:
            errors.insert(0, f"Missing key(s) in state_dict: {_quoted(missing)}. ")
    if errors:
        raise RuntimeError(f"Error(s) in loading state_dict for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))
    with no_grad():
        for name, target in targets.items():
            if name in state_dict and isinstance(target, Tensor):
                _load_one(module, name, target, state_dict[name], assign)
            elif name in state_dict:
                target.set_extra_state(state_dict[name])
    return _IncompatibleKeys(missing, unexpected)


def _load_one(module, name: str, target: Tensor, value: Tensor, assign: bool) -> None:
    """One tensor of the dict into the module: copied into its own (a meta one stays as it
    is, as torch leaves it, with its warning), or put in its place with ``assign`` (a
    parameter as a Parameter that needs grad as the one it replaces did)."""
    if assign:
        owner_name, _, attribute = name.rpartition(".")
        owner = module.get_submodule(owner_name) if owner_name else module
        if isinstance(target, Parameter):
            value = value if isinstance(value, Parameter) else Parameter(value)
            value.requires_grad_(target.requires_grad)
        setattr(owner, attribute, value)
    elif target.is_meta and not value.is_meta:
        warn_at_user_code(f"for {name}: copying from a non-meta parameter in the checkpoint "
                          "to a meta parameter in the current model, which is a no-op. (Did "
                          "you mean to pass `assign=True` to assign items in the state "
                          "dictionary to their corresponding key in the module instead of "
                          "copying them in place?)")
    else:
        target.copy_(value)
