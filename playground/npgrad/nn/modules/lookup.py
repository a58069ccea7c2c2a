"""A module's parts by dotted name (``get_submodule``, ``get_parameter``, ``get_buffer``) with
torch's errors, and the names of torch.nn.Module's own methods, so that one the engine lacks is
said as lacking while a user's own missing attribute reads as torch words it."""

from __future__ import annotations

from ..._tensor import Parameter

# torch.nn.Module's public names (2.13); tests/npgrad holds this equal to torch's own
TORCH_MODULE_NAMES = frozenset((
    "T_destination", "add_module", "apply", "bfloat16", "buffers", "call_super_init",
    "children", "compile", "cpu", "cuda", "double", "dump_patches", "eval", "extra_repr",
    "float", "forward", "get_buffer", "get_extra_state", "get_parameter", "get_submodule",
    "half", "ipu", "load_state_dict", "modules", "mtia", "named_buffers", "named_children",
    "named_modules", "named_parameters", "parameters", "register_backward_hook",
    "register_buffer", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_full_backward_pre_hook",
    "register_load_state_dict_post_hook", "register_load_state_dict_pre_hook",
    "register_module", "register_parameter", "register_state_dict_post_hook",
    "register_state_dict_pre_hook", "requires_grad_", "set_extra_state", "set_submodule",
    "share_memory", "state_dict", "to", "to_empty", "train", "type", "xpu", "zero_grad",
))


# the methods torch.nn's own classes add to Module's (Sequential.insert, LSTM's
# flatten_parameters...); tests/npgrad holds this equal to torch's too
TORCH_LAYER_NAMES = frozenset((
    "all_weights", "append", "check_forward_args", "check_hidden_size", "check_input", "clear",
    "cls_to_become", "convert_sync_batchnorm", "copy", "extend", "flatten_parameters",
    "from_pretrained", "fromkeys", "gather", "generate_square_subsequent_mask", "get",
    "get_expected_cell_size", "get_expected_hidden_size", "has_uninitialized_params",
    "initialize_parameters", "insert", "items", "keys", "log_prob", "merge_masks",
    "parallel_apply", "permute_hidden", "pop", "popitem", "predict", "replicate",
    "reset_parameters", "reset_running_stats", "scatter", "setdefault", "update", "values",
))


def torchs_own(name: str) -> bool:
    """Whether a module's missing ``name`` is a method torch's modules have (``half``,
    ``Sequential.insert``), not an attribute the user's code never set (``self.fc3``)."""
    return name in TORCH_MODULE_NAMES or name in TORCH_LAYER_NAMES


def _lacks(module, name: str) -> AttributeError:
    return AttributeError(f"{type(module).__name__} has no attribute `{name}`")


def submodule(root, target: str):
    """The module at ``target`` ("" is the root), each step an attribute that is a module."""
    from . import Module

    found = root
    for name in target.split(".") if target else ():
        if not hasattr(found, name):
            raise _lacks(found, name)
        found = getattr(found, name)
        if not isinstance(found, Module):
            raise AttributeError(f"`{name}` is not an nn.Module")
    return found


def _owner_of(root, target: str) -> tuple:
    """The module holding ``target``'s last name, and that name (which it has)."""
    path, _, name = target.rpartition(".")
    owner = submodule(root, path)
    if not hasattr(owner, name):
        raise _lacks(owner, name)
    return owner, name


def parameter(root, target: str):
    owner, name = _owner_of(root, target)
    found = getattr(owner, name)
    if not isinstance(found, Parameter):
        raise AttributeError(f"`{name}` is not an nn.Parameter")
    return found


def buffer(root, target: str):
    owner, name = _owner_of(root, target)
    if name not in owner._buffers:
        raise AttributeError(f"`{name}` is not a buffer")
    return getattr(owner, name)


def names_of(module) -> list[str]:
    """dir() of a module as torch's: the class's names, the instance's, then its parameters,
    submodules and buffers (names that start with a digit left out), sorted; so that Python's
    "Did you mean" and the editor's completion find ``model.weight``."""
    names = [*dir(type(module)), *module.__dict__, *module._parameters, *module._modules,
             *module._buffers]
    return sorted(name for name in names if not name[:1].isdigit())
