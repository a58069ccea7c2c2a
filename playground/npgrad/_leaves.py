"""What a graph leaf offers beyond its values: post-accumulate-grad hooks, and copy.deepcopy
(of a leaf, so of a whole model), as torch's."""

from __future__ import annotations

from ._hook_lists import LeafHooks, RemovableHandle
from ._tensor import Parameter, Tensor, mark_parameter


def register_post_accumulate_grad_hook(self: Tensor, hook) -> RemovableHandle:
    """``hook(tensor)`` runs after this leaf's ``.grad`` took a backward's gradient."""
    if not self._rg:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                           "tensors")
    if self._hooks is None:
        self._hooks = LeafHooks()
    self._hooks.post_accumulate.append(hook)
    return RemovableHandle(self._hooks.post_accumulate, hook)


def deep_copy(self: Tensor, memo: dict) -> Tensor:
    """A leaf's values copied (copy.deepcopy of a model): requires_grad kept, and .grad
    for a plain tensor (a Parameter's copy has none), as torch's."""
    if id(self) in memo:
        return memo[id(self)]
    if self.grad_fn is not None:
        raise RuntimeError(
            "Only Tensors created explicitly by the user (graph leaves) support the deepcopy"
            " protocol at the moment.  If you were attempting to deepcopy a module, this may"
            " be because of a torch.nn.utils.weight_norm usage, see "
            "https://github.com/pytorch/pytorch/pull/103001")
    copied = Tensor._make(self._data if self.is_meta else self._data.copy())
    copied.requires_grad_(self._rg)
    memo[id(self)] = copied
    if self.__class__ is Parameter:
        mark_parameter(copied)
    elif self._grad is not None:
        copied._grad = deep_copy(self._grad, memo)
    return copied


Tensor.register_post_accumulate_grad_hook = register_post_accumulate_grad_hook
Tensor.__deepcopy__ = deep_copy
