"""``torch.autograd.graph.allow_mutation_on_saved_tensors``: inside it a tensor saved for
backward may be changed in place; backward reads it as it was when it was saved.

torch copies a saved tensor when it is first changed; the engine copies each saved tensor as
it is saved (the values backward reads are the same: a copy made at the first change holds
what was saved), and hands back the tensor itself while it is unchanged, as torch does."""

from __future__ import annotations

from .. import _saved_hooks
from .._grad_mode import no_grad
from .._tensor import version_of

_CLOSED = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin "
           "which the graph was originally recorded.")  # (sic: torch's words)


class _AllowMutationOnSavedContext:
    """The block's state: open while the block runs; its saved tensors' unpack refuses after."""

    def __init__(self) -> None:
        self.open = True

    def pack(self, tensor) -> tuple:
        with no_grad():
            copy = tensor.detach().clone()
        return tensor, version_of(tensor), copy

    def unpack(self, packed: tuple):
        if not self.open:
            raise AssertionError(_CLOSED)
        tensor, version, copy = packed
        return tensor if version_of(tensor) == version else copy


class allow_mutation_on_saved_tensors:  # noqa: N801 - torch's name
    """``with allow_mutation_on_saved_tensors() as ctx:``; such blocks cannot be nested."""

    _active = False

    def __enter__(self) -> _AllowMutationOnSavedContext:
        if allow_mutation_on_saved_tensors._active:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        allow_mutation_on_saved_tensors._active = True
        self._context = _AllowMutationOnSavedContext()
        self._hooks = _saved_hooks.saved_tensors_hooks(self._context.pack, self._context.unpack)
        self._hooks.__enter__()
        return self._context

    def __exit__(self, *exception) -> None:
        self._hooks.__exit__(*exception)
        self._context.open = False
        allow_mutation_on_saved_tensors._active = False
