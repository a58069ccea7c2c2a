"""The size a factory (zeros, ones, empty, rand, randn, full...) is given, read as torch's
argument parser reads it: ints (or 0-d integer tensors) one by one or in one tuple, with
its errors for floats, a stray argument after the tuple and negative sides."""

from __future__ import annotations

import operator

_SEQUENCES = (list, tuple)  # (torch.Size is a tuple)


def factory_size(size: tuple, op: str) -> tuple[int, ...]:
    """``size`` as ``op``'s ``*size`` received it: (2, 3) or ((2, 3),)."""
    packed = len(size) == 1 and isinstance(size[0], _SEQUENCES)
    if packed:
        size = size[0]
    elif len(size) > 1 and any(isinstance(side, _SEQUENCES) for side in size):
        raise TypeError(f"{op}() takes 1 positional argument but {len(size)} were given")
    shape = tuple(_side(side, position, packed, len(size), op)
                  for position, side in enumerate(size))
    negative = next((side for side in shape if side < 0), None)
    if negative is not None:
        if op == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative}: "
                           f"{list(shape)}")
    return shape


def _side(side, position: int, packed: bool, count: int, op: str) -> int:
    try:
        return operator.index(side)
    except TypeError:
        pass
    kind = type(side).__name__
    if packed:
        raise TypeError(f"{op}(): argument 'size' (position 1) must be tuple of ints, but "
                        f"found element of type {kind} at pos {position}")
    if count == 1:
        raise TypeError(f"{op}(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{kind}")
    raise TypeError(f"{op}(): argument 'size' failed to unpack the object at pos "
                    f"{position + 1} with error \"type must be tuple of ints,but got {kind}\"")
