"""torch.autograd.graph's saved-tensor hooks: each tensor an op saves for backward goes through
the innermost pack hook as it is saved, and through its unpack hook whenever backward (or
``grad_fn._saved_self``) reads it. With a hook torch checks no version: the hook holds the
value, whatever happens to the tensor later."""

from __future__ import annotations

from . import _tensor
from ._grad_mode import no_grad

# The (pack, unpack) pairs entered, innermost last: recording reads it at every op that saves.
HOOKS: list[tuple] = []
# disable_saved_tensors_hooks' messages, innermost last: entering hooks then raises the last.
_DISABLED: list[str] = []

_MODIFIED = ("A saved tensor pack hook is modifying its input in place. Tensors provided as "
             "input to pack hook cannot be modified by in-place operations as this can lead to "
             "unexpected side-effects. Please open an issue if you need to perform in-place "
             "operations on the input to a pack hook.")


class Packed:
    """What the pack hook made of one saved tensor, the unpack hook to read it back by, and
    the tensor's place in the graph (``grad_fn._saved_*`` hands the unpacked data back in
    it, as torch's SavedVariable does): whether it required grad, its grad_fn, or whether it
    was the saving node's own output (whose grad_fn is that node)."""

    __slots__ = ("value", "unpack_hook", "requires_grad", "grad_fn", "output")

    def __init__(self, value, unpack_hook, requires_grad: bool = False, grad_fn=None,
                 output: bool = False) -> None:
        self.value = value
        self.unpack_hook = unpack_hook
        self.requires_grad, self.grad_fn, self.output = requires_grad, grad_fn, output


def pack(tensor, output: bool = False) -> Packed:
    pack_hook, unpack_hook = HOOKS[-1]
    before = _tensor.version_of(tensor)
    with no_grad():  # as torch runs it: a hook may change a leaf that requires grad
        value = pack_hook(tensor)
    if _tensor.version_of(tensor) != before:
        raise RuntimeError(_MODIFIED)
    # (an output's grad_fn is the saving node itself: not held here, no cycle)
    return Packed(value, unpack_hook, bool(tensor.requires_grad),
                  None if output else tensor.grad_fn, output)


def unpacked_in_place(packed: Packed, node):
    """The unpacked tensor as ``grad_fn._saved_*`` gives it: its data in a new tensor that
    has the saved tensor's grad_fn (``node`` for the node's own output) or requires_grad."""
    tensor = unpack(packed)
    grad_fn = node if packed.output else packed.grad_fn
    placed = _tensor.Tensor._make(tensor._data, grad_fn, _tensor.shared_counter(tensor))
    placed._rg = packed.requires_grad
    return placed


def unpack(packed: Packed):
    tensor = packed.unpack_hook(packed.value)
    if not isinstance(tensor, _tensor.Tensor):
        raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                        f"result of type {type(tensor).__name__}")
    return tensor


def pack_order(names: tuple[str, ...]) -> list[int]:
    """The order torch packs a node's saved tensors in: its generated code saves the inputs by
    name, alphabetically (``other`` before ``self``), then the outputs (``result``)."""
    return sorted(range(len(names)), key=lambda i: (names[i] == "result", names[i]))


class saved_tensors_hooks:
    """``with saved_tensors_hooks(pack_hook, unpack_hook):`` the ops inside save
    ``pack_hook(tensor)``, and backward reads ``unpack_hook(packed)``."""

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        if _DISABLED:
            raise RuntimeError(_DISABLED[-1])
        HOOKS.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *exception) -> None:
        HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept as copies on the CPU (where this engine's tensors are anyway), put
    back on their device for backward: later in-place changes do not reach them."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            return tensor.device, tensor.detach().clone()

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Inside it, entering saved_tensors_hooks raises RuntimeError(error_message)."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        _DISABLED.append(self.error_message)

    def __exit__(self, *exception) -> None:
        _DISABLED.pop()
