"""A module's state dict loaded back as torch loads it: parameters and persistent buffers,
size checks, strict mode's message and the ``_IncompatibleKeys`` it returns."""

from __future__ import annotations

from collections import namedtuple

from ..._grad_mode import no_grad
from ..._tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


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
    return targets


def _quoted(names: list[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def load_state(module, state_dict, strict: bool = True) -> _IncompatibleKeys:
    """Copy the dict's tensors into the module's (under no_grad), or raise torch's error.
    Each module's load-state-dict pre-hooks see (and may rename the keys of) a copy first."""
    state_dict = dict(state_dict)
    for module_name, child in module.named_modules():
        for hook in child.__dict__.get("_load_state_dict_pre_hooks", {}).values():
            hook(state_dict, f"{module_name}." if module_name else "", {}, strict, [], [], [])
    targets = _targets(module)
    # (a dict without BatchNorm's counter is an old one: torch keeps the module's own)
    missing = [name for name in targets if name not in state_dict
               and not name.endswith("num_batches_tracked")]
    unexpected = [name for name in state_dict if name not in targets]
    errors = []
    for name, target in targets.items():
        value = state_dict.get(name)
        if value is None:
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
            if name in state_dict:
                target.copy_(state_dict[name])
    return _IncompatibleKeys(missing, unexpected)
