"""F.pad's other modes (reflect, replicate: one node each, torch's Reflection/ReplicationPad
{1,2,3}DBackward0; circular: copies into slices, as torch makes it), the padding modules
(ZeroPad, ConstantPad, ReflectionPad, ReplicationPad, CircularPad in 1d and 2d), and pixel
(un)shuffle, which moves channels into space and back."""

from __future__ import annotations

import numpy as np

from .. import _factories, _recording
from .._tensor import Tensor
from .modules import Module

_NODES = {"reflect": "reflection_pad", "replicate": "replication_pad"}


def pad_by_mode(input: Tensor, pad, mode: str) -> Tensor:
    """Reflect, replicate or circular padding of the last len(pad) // 2 dimensions."""
    pad = tuple(int(width) for width in pad)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    dims = len(pad) // 2
    if dims > 3 or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        return _circular(input, pad)
    sources = []
    for index in range(dims):  # (the last dimension's widths come first)
        dim = input.ndim - 1 - index
        left, right = pad[2 * index], pad[2 * index + 1]
        size = input.shape[dim]
        if mode == "reflect" and (left >= size or right >= size):
            raise RuntimeError(f"Argument #{4 + 2 * index}: Padding size should be less than "
                               "the corresponding input dimension, but got: padding "
                               f"({left}, {right}) at dimension {dim} of input "
                               f"{list(input.shape)}")
        sources.append((dim, _sources(size, left, right, mode)))
    values = _gathered(input._data, sources)
    return _recording.output(f"{_NODES[mode]}{dims}d", values, (input,),
                             (input.shape, tuple(sources)))


def _sources(size: int, left: int, right: int, mode: str) -> np.ndarray:
    """For each padded position along one dimension, the input position it copies."""
    positions = np.arange(-left, size + right)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    positions = np.abs(positions)  # reflect: mirrored at 0 and at size - 1, not repeating them
    return np.where(positions > size - 1, 2 * (size - 1) - positions, positions)


def _gathered(data: np.ndarray, sources) -> np.ndarray:
    for dim, index in sources:
        data = np.take(data, index, axis=dim)
    return np.ascontiguousarray(data)


def unpad_by_mode(k, grad, shape, sources, mode: str, dims: int):
    """Each padded position's gradient added back to the input position it copied; under
    create_graph torch's ...PadNDBackwardBackward0, whose derivative pads again."""
    values = np.asarray(getattr(grad, "_data", grad))
    for dim, index in reversed(sources):
        moved = np.moveaxis(values, dim, 0)
        summed = np.zeros((shape[dim], *moved.shape[1:]), values.dtype)
        np.add.at(summed, index, moved)
        values = np.moveaxis(summed, 0, dim)
    # contiguous, as torch's kernel writes it (a view of it reshapes as a view, not an alias)
    return k._backward_of(f"{_NODES[mode]}{dims}d_backward", np.ascontiguousarray(values),
                          (grad,), (sources,))


def repad(k, grad, sources, mode: str, dims: int):
    """The derivative of an unpad: the incoming gradient padded the same way again."""
    values = _gathered(np.asarray(getattr(grad, "_data", grad)), sources)
    if not isinstance(grad, Tensor):
        return values
    return _recording.output(f"{_NODES[mode]}{dims}d", values, (grad,),
                             (grad.shape, tuple(sources)))


def _circular(input: Tensor, pad: tuple) -> Tensor:
    """torch's composite: the input copied into the middle, then each side from the far end
    of the padded tensor itself (corners written more than once)."""
    dims = len(pad) // 2
    shape = list(input.shape)
    for index in range(dims):
        dim = input.ndim - 1 - index
        left, right = pad[2 * index], pad[2 * index + 1]
        if left > input.shape[dim] or right > input.shape[dim]:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        shape[dim] += left + right
    out = _factories.empty(*shape, dtype=input.dtype)
    middle, source = [slice(None)] * input.ndim, [slice(None)] * input.ndim
    for index in range(dims):
        dim = input.ndim - 1 - index
        left, right = pad[2 * index], pad[2 * index + 1]
        middle[dim] = slice(max(left, 0), shape[dim] - max(right, 0))
        source[dim] = slice(max(-left, 0), input.shape[dim] - max(-right, 0))
    out[tuple(middle)] = input[tuple(source)]
    for index in range(dims):
        dim = input.ndim - 1 - index
        left, right = pad[2 * index], pad[2 * index + 1]
        end = shape[dim] - max(right, 0)
        if left > 0:
            out[_along(dim, slice(0, left))] = out[_along(dim, slice(end - left, end))]
        if right > 0:
            start = max(left, 0)
            out[_along(dim, slice(end, end + right))] = \
                out[_along(dim, slice(start, start + right))]
    return out


def _along(dim: int, part: slice) -> tuple:
    return (slice(None),) * dim + (part,)


def _widths(padding, count: int) -> tuple:
    return (padding,) * (2 * count) if isinstance(padding, int) else tuple(padding)


class _Pad(Module):
    """A padding module: ``MODE`` over the last ``DIMS`` dimensions."""

    MODE, DIMS = "constant", 1

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _widths(padding, self.DIMS)

    def forward(self, input: Tensor) -> Tensor:
        from .resampling import pad

        return pad(input, self.padding, self.MODE)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        from .resampling import pad

        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _Zeros:
    """A ZeroPad module: a constant pad of zeros, printed with its widths alone."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ConstantPad1d(_ConstantPad):
    DIMS = 1


class ConstantPad2d(_ConstantPad):
    DIMS = 2


class ZeroPad1d(_Zeros, ConstantPad1d):
    pass


class ZeroPad2d(_Zeros, ConstantPad2d):
    pass


class ReflectionPad1d(_Pad):
    MODE, DIMS = "reflect", 1


class ReflectionPad2d(_Pad):
    MODE, DIMS = "reflect", 2


class ReplicationPad1d(_Pad):
    MODE, DIMS = "replicate", 1


class ReplicationPad2d(_Pad):
    MODE, DIMS = "replicate", 2


class CircularPad1d(_Pad):
    MODE, DIMS = "circular", 1


class CircularPad2d(_Pad):
    MODE, DIMS = "circular", 2


class ConstantPad3d(_ConstantPad):
    DIMS = 3


class ZeroPad3d(_Zeros, ConstantPad3d):
    pass


class ReflectionPad3d(_Pad):
    MODE, DIMS = "reflect", 3


class ReplicationPad3d(_Pad):
    MODE, DIMS = "replicate", 3


class CircularPad3d(_Pad):
    MODE, DIMS = "circular", 3


MODULES = ("ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d", "ReflectionPad1d",
           "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "CircularPad1d",
           "CircularPad2d", "ConstantPad3d", "ZeroPad3d", "ReflectionPad3d", "ReplicationPad3d",
           "CircularPad3d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle")


# ----- pixel shuffle: channels into space and back ---------------------------------------------
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C·r², H, W) to (*, C, H·r, W·r): each block of r² channels laid out as an r×r tile."""
    if input.ndim < 3:
        raise RuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got "
                           f"input with {input.ndim} dimension(s)")
    r = upscale_factor
    if input.shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{input.shape[-3]} is not divisible by {r * r}")
    return _recording.output("pixel_shuffle", _shuffled(input._data, r), (input,), (r,))


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """The inverse: (*, C, H·r, W·r) to (*, C·r², H, W)."""
    if input.ndim < 3:
        raise RuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but "
                           f"got input with {input.ndim} dimension(s)")
    r = downscale_factor
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={input.shape[dim]} is "
                               f"not divisible by {r}")
    return _recording.output("pixel_unshuffle", _unshuffled(input._data, r), (input,), (r,))


def _shuffled(data: np.ndarray, r: int) -> np.ndarray:
    *batch, channels, height, width = data.shape
    tiles = data.reshape(*batch, channels // (r * r), r, r, height, width)
    count = len(batch)
    order = (*range(count), count, count + 3, count + 1, count + 4, count + 2)
    return np.ascontiguousarray(tiles.transpose(order)).reshape(
        *batch, channels // (r * r), height * r, width * r)


def _unshuffled(data: np.ndarray, r: int) -> np.ndarray:
    *batch, channels, height, width = data.shape
    tiles = data.reshape(*batch, channels, height // r, r, width // r, r)
    count = len(batch)
    order = (*range(count), count, count + 2, count + 4, count + 1, count + 3)
    return np.ascontiguousarray(tiles.transpose(order)).reshape(
        *batch, channels * r * r, height // r, width // r)


def shuffle_grad(k, grad, r: int, unshuffle: bool):
    """Either op's gradient is the other op of the incoming gradient (recorded as that op's
    node under create_graph)."""
    if isinstance(grad, Tensor):
        return pixel_unshuffle(grad, r) if unshuffle else pixel_shuffle(grad, r)
    return _unshuffled(grad, r) if unshuffle else _shuffled(grad, r)


# ----- channel shuffle: ShuffleNet's channels dealt out from their groups -------------------------
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """(N, g·k, *) with the channels of each of the g groups dealt out in turn: channel i of
    group j goes to place i·g + j."""
    if input.ndim <= 2:
        raise RuntimeError("channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if input.shape[1] % groups:
        raise RuntimeError("Number of channels must be divisible by groups. Got "
                           f"{input.shape[1]} channels and {groups} groups.")
    return _recording.output("channel_shuffle", _dealt(input._data, groups), (input,),
                             (groups,))


def _dealt(data: np.ndarray, groups: int) -> np.ndarray:
    batch, channels, *rest = data.shape
    parts = data.reshape(batch, groups, channels // groups, *rest)
    return np.ascontiguousarray(parts.swapaxes(1, 2)).reshape(data.shape)


def channel_shuffle_grad(k, grad, groups: int):
    """Dealt back: the shuffle with the other factor of the channels (torch's formula, its own
    node again under create_graph)."""
    back = grad.shape[1] // groups
    if isinstance(grad, Tensor):
        return channel_shuffle(grad, back)
    return _dealt(grad, back)


class ChannelShuffle(Module):
    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class PixelShuffle(Module):
    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


def _register() -> None:
    from .._formula_kit import Kit

    Kit.unpad_by_mode, Kit.repad, Kit.shuffle_grad = unpad_by_mode, repad, shuffle_grad
    Kit.channel_shuffle_grad = channel_shuffle_grad


_register()
