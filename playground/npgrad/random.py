"""``torch.random``: the default generator's seed and state, and ``fork_rng``, which puts the
state back after a block (what a script reaches for to draw numbers without moving the
stream its later draws come from)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ._factories import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from ._missing import missing_attribute

__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed",
           "manual_seed", "seed", "set_rng_state", "thread_safe_generator"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller: str = "fork_rng",
             _devices_kw: str = "devices", device_type=None) -> Iterator[None]:
    """The CPU generator's state saved, and set back however the block ends. There is no
    GPU here: with no ``devices`` named none are forked, as torch's CPU build does; a device
    named fails as torch's does when it asks CUDA for its state."""
    if device_type == "meta" or not enabled:
        yield
        return
    from . import cuda

    if devices is not None and list(devices):
        cuda.synchronize()  # torch.cuda.get_rng_state's lazy init: not compiled with CUDA
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


def thread_safe_generator() -> Generator | None:
    """A DataLoader thread worker's own generator; None elsewhere (the default one is used),
    and the NumPy engine's loaders have no thread workers."""
    return None


__getattr__ = missing_attribute("torch.random")
