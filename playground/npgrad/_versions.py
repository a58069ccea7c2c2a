"""Version counters: how torch tells that a value saved for backward was written since."""

from __future__ import annotations

# Version counters (torch's in-place change detection), made on first need (``_vc`` None:
# version 0, shared with nobody): 8-byte little-endian bytearrays, shareable like a list but
# unseen by the garbage collector; a saved tensor's version is a bytes snapshot (``!=``).
ZERO_VERSION = bytes(8)


def new_counter() -> bytearray:
    return bytearray(8)


class InferenceCounter(bytearray):
    """The counter of an inference tensor (one made under ``inference_mode``): its class is
    the mark, and views and ``detach()`` share it, so they are inference tensors too, as in
    torch. torch keeps no version for them; this one only counts, for the in-place check."""

    __slots__ = ()


INFERENCE_SAVE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


INFERENCE_INPLACE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")
DETACHED_VIEW_MESSAGE = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")


def check_savable(counter) -> None:
    """torch refuses to save an inference tensor for backward (``counter`` is its ``_vc``)."""
    if counter.__class__ is InferenceCounter:
        raise RuntimeError(INFERENCE_SAVE_MESSAGE)


# What the last recorded in-place write made of a counter's tensor: torch's message on a
# saved value written since names that value's grad_fn as it is now, which such a write
# changed. id(counter) -> (counter, the written tensor's grad_fn's name, its shape); only the
# last writes are kept (a counter is unseen by the collector: no weak reference to it).
_WRITERS: dict[int, tuple] = {}
WRITERS_KEPT = 512


def note_writer(counter: bytearray, name: str, shape: tuple) -> None:
    """A recorded in-place write gave the tensor of ``counter`` (of ``shape``) the grad_fn
    ``name`` (through a view: its base, CopySlices)."""
    _WRITERS.pop(id(counter), None)
    _WRITERS[id(counter)] = (counter, name, shape)
    if len(_WRITERS) > WRITERS_KEPT:
        del _WRITERS[next(iter(_WRITERS))]


def grad_fn_after_write(counter: bytearray, shape: tuple) -> str | None:
    """The grad_fn's name a saved value of ``shape`` sharing ``counter`` has after the last
    recorded write, if one is known: the written tensor's, or AsStrided for a view of it (a
    value of another shape), as torch regenerates a view's after a write to its base."""
    kept = _WRITERS.get(id(counter))
    if kept is None or kept[0] is not counter:
        return None
    return kept[1] if kept[2] == shape else "AsStridedBackward0"


def counter_value(counter) -> int:
    return int.from_bytes(counter, "little")


def version_of(tensor) -> int:
    counter = tensor._vc
    return 0 if counter is None else counter_value(counter)


def shared_counter(tensor) -> bytearray:
    """The tensor's counter, created now so a view or a saved output can share it."""
    if tensor._vc is None:
        tensor._vc = new_counter()
    return tensor._vc
