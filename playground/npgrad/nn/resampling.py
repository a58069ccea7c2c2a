"""Resizing, padding and patches of images: F.interpolate (nearest, nearest-exact, bilinear,
bicubic, area of an image, antialiased in antialiasing.py; nearest, nearest-exact, linear,
area of a sequence; volumes in resampling_3d.py) and
nn.Upsample, F.pad (constant), F.unfold and F.fold; each one node with torch's name
(UpsampleNearest2DBackward0, UpsampleLinear1DBackward0, ConstantPadNdBackward0,
Im2ColBackward0, Col2ImBackward0) and torch's index arithmetic. A sequence's resampling has no
rows (``rows`` None), only columns."""

from __future__ import annotations

import math

import numpy as np

from .. import _convolution, _recording
from .._missing import MISSING_HINT
from .._numerics import fused_values
from .._strides import following
from .._tensor import Tensor
from . import functional
from .modules import Module

_pair = _convolution._pair


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners=None, recompute_scale_factor=None, antialias: bool = False):
    """An (N, C, H, W) batch or an (N, C, L) one resized to ``size`` or by ``scale_factor``."""
    _check_mode(input.ndim, mode, antialias)
    if mode in ("nearest", "nearest-exact", "area") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    sizes_in = input.shape[2:]
    count = len(sizes_in)
    if size is not None:
        out = tuple(size) if isinstance(size, tuple | list) else (size,) * count
        scales = (None,) * count
    else:
        factors = (scale_factor,) * count if not isinstance(scale_factor, tuple | list) else \
            tuple(scale_factor)
        out = tuple(math.floor(n * f) for n, f in zip(sizes_in, factors, strict=True))
        scales = (None,) * count if recompute_scale_factor else factors
    if count == 3:
        from .resampling_3d import interpolate_volume

        return interpolate_volume(input, out, scales, mode, align_corners)
    if antialias:
        from .antialiasing import interpolate_antialiased

        return interpolate_antialiased(input, out, scales, mode, align_corners)
    if mode == "area":  # torch's adaptive average pooling to the new size
        pool = functional.adaptive_avg_pool1d if count == 1 else functional.adaptive_avg_pool2d
        return pool(input, out[0] if count == 1 else out)
    # the index arithmetic is in torch's opmath type: double for double, else float
    exact = np.float64 if input._data.dtype == np.float64 and not mode.startswith("nearest") \
        else np.float32
    sources = [_source(n_in, n_out, scale, "bilinear" if mode == "linear" else mode,
                       align_corners, exact)
               for n_in, n_out, scale in zip(sizes_in, out, scales, strict=True)]
    return resample(None, input, *([None] + sources if count == 1 else sources))


_MODE_DIMS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def _check_mode(ndim: int, mode: str, antialias: bool) -> None:
    """torch's refusal of a mode for another input's rank; what the engine lacks, named."""
    needed = _MODE_DIMS.get(mode)
    if needed is not None and needed != ndim:
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {needed}D input")
    if antialias and (ndim != 4 or mode not in ("bilinear", "bicubic")):
        if mode == "lanczos":
            raise NotImplementedError(f"F.interpolate(mode='lanczos') {MISSING_HINT}")
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if ndim not in (3, 4, 5) or mode not in ("nearest", "nearest-exact", "linear", "bilinear",
                                             "bicubic", "trilinear", "area"):
        raise NotImplementedError(f"F.interpolate(mode={mode!r}) of a {ndim}-d input is "
                                  f"not {MISSING_HINT}")


def resample(k, input, rows, columns):
    """The forward: the input read at the source positions (a tensor recorded as torch's
    node, or an array); also the derivative of its own backward."""
    values = _resampled(getattr(input, "_data", input), rows, columns)
    if not isinstance(input, Tensor):
        return values
    return _recording.output(_op(rows, columns), following(values, input._data), (input,),
                             (input.shape, rows, columns))


def _op(rows, columns) -> str:
    if rows is None:
        return f"upsample_{_nearest_kind(columns)}1d" if _nearest(columns) else \
            "upsample_linear1d"
    return f"upsample_{_nearest_kind(rows)}2d" if _nearest(rows) else "upsample_bicubic2d" if \
        _cubic(rows) else "upsample_bilinear2d"


class ExactIndices(np.ndarray):
    """nearest-exact's source positions (its nodes are named apart from nearest's)."""


def _nearest_kind(rows) -> str:
    return "nearest_exact" if isinstance(rows, ExactIndices) else "nearest"


def _nearest(rows) -> bool:
    return not isinstance(rows, tuple)  # bilinear's are (first, second, weight)


def _cubic(rows) -> bool:
    return isinstance(rows, tuple) and len(rows) == 2  # bicubic's: (4 indices, 4 weights)


def _resampled(data: np.ndarray, rows, columns) -> np.ndarray:
    if rows is None:  # a sequence
        if _nearest(columns):
            return np.ascontiguousarray(data[..., columns])
        first, second, weight = columns
        return np.ascontiguousarray((data[..., first] * (1 - weight) +
                                     data[..., second] * weight).astype(data.dtype))
    if _cubic(rows):  # torch's order: each row's four columns, then the four rows
        (row_index, row_weight), (column_index, column_weight) = rows, columns
        total = None
        for a in range(4):
            picked = data[:, :, row_index[:, a]]
            inner = picked[..., column_index[:, 0]] * column_weight[:, 0]
            for b in range(1, 4):
                inner = inner + picked[..., column_index[:, b]] * column_weight[:, b]
            term = inner * row_weight[:, a, None]
            total = term if total is None else total + term
        return np.ascontiguousarray(total.astype(data.dtype))
    if _nearest(rows):
        return np.ascontiguousarray(data[:, :, rows[:, None], columns[None, :]])
    (r0, r1, rw), (c0, c1, cw) = rows, columns
    top, low = data[:, :, r0], data[:, :, r1]  # (weights in torch's opmath type)
    top = top[..., c0] * (1 - cw) + top[..., c1] * cw
    low = low[..., c0] * (1 - cw) + low[..., c1] * cw
    return np.ascontiguousarray(((1 - rw)[:, None] * top + rw[:, None] * low).astype(data.dtype))


def _source(size_in: int, size_out: int, scale, mode: str, align_corners, exact=np.float32,
            fused: bool = False):
    """Each output position's source: nearest, the input index; bilinear, (first, second,
    weight of the second); bicubic, (four indices, four weights); with torch's index
    arithmetic (float32, or double for a double input: its opmath type); `fused`: the
    unaligned ``ratio * (o + 0.5) - 0.5`` as one fused multiply-add, as torch's vectorised
    trilinear kernel finds it."""
    positions = np.arange(size_out, dtype=exact)
    if mode == "nearest":
        if size_out == size_in:
            return np.arange(size_out)
        ratio = np.float32(1 / scale if scale else size_in / size_out)
        return np.minimum(np.floor(positions * ratio).astype(np.int64), size_in - 1)
    if mode == "nearest-exact":  # the centre of each output pixel, read where it falls
        if size_out == size_in:
            return np.arange(size_out).view(ExactIndices)
        ratio = np.float32(1 / scale if scale else size_in / size_out)
        centres = np.floor((positions + np.float32(0.5)) * ratio).astype(np.int64)
        return np.minimum(centres, size_in - 1).view(ExactIndices)
    if align_corners:
        ratio = exact((size_in - 1) / (size_out - 1) if size_out > 1 else 0)
        source = positions * ratio
    else:
        ratio = exact(1 / scale if scale else size_in / size_out)
        if fused:
            source = fused_values(np.full_like(positions, ratio), positions + exact(0.5),
                                  exact(-0.5))
        else:
            source = ratio * (positions + exact(0.5)) - exact(0.5)
        if mode != "bicubic":  # (bicubic reads left of the first pixel too)
            source = np.maximum(source, 0)
    if mode == "bicubic":
        return _cubic_taps(source, size_in, exact)
    first = np.floor(source).astype(np.int64)
    second = first + (first < size_in - 1)
    return first, second, (source - first).astype(exact)


CUBIC_A = -0.75  # torch's cubic convolution coefficient


def _cubic_taps(source: np.ndarray, size_in: int, exact):
    """Each output position's four input positions (clamped at the edges) and their cubic
    convolution weights, in the opmath type."""
    first = np.floor(source)
    t = (source - first).astype(exact)
    a = exact(CUBIC_A)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = exact(1)
    weights = np.stack([far(t + one), near(t), near(one - t), far((one - t) + one)], axis=1)
    taps = first.astype(np.int64)[:, None] + np.arange(-1, 3)
    return np.clip(taps, 0, size_in - 1), weights.astype(exact)


def resample_grad(k, grad, shape, rows, columns):
    """Each output's gradient added back to the input positions it was read from; under
    create_graph torch's Upsample...BackwardBackward0, whose derivative resamples again."""
    values = _resample_grad_values(getattr(grad, "_data", grad), shape, rows, columns)
    return k._backward_of(f"{_op(rows, columns)}_backward", values, (grad,), (rows, columns))


def _resample_grad_values(grad: np.ndarray, shape, rows, columns) -> np.ndarray:
    result = np.zeros(shape, grad.dtype)
    if rows is None:  # a sequence
        if _nearest(columns):
            np.add.at(result, (Ellipsis, columns), grad)
            return result
        first, second, weight = columns
        for index, part in ((first, 1 - weight), (second, weight)):
            np.add.at(np.moveaxis(result, -1, 0), index,
                      np.moveaxis(grad * part.astype(grad.dtype), -1, 0))
        return result
    if _cubic(rows):
        (row_index, row_weight), (column_index, column_weight) = rows, columns
        for a in range(4):
            for b in range(4):
                weight = (row_weight[:, a, None] * column_weight[None, :, b]).astype(grad.dtype)
                np.add.at(result, (slice(None), slice(None), row_index[:, a, None],
                                   column_index[None, :, b]), grad * weight)
        return result
    if _nearest(rows):
        np.add.at(result, (slice(None), slice(None), rows[:, None], columns[None, :]), grad)
        return result
    (r0, r1, rw), (c0, c1, cw) = rows, columns
    for row_index, row_weight in ((r0, 1 - rw), (r1, rw)):
        for column_index, column_weight in ((c0, 1 - cw), (c1, cw)):
            weight = (row_weight[:, None] * column_weight[None, :]).astype(grad.dtype)
            np.add.at(result, (slice(None), slice(None), row_index[:, None],
                               column_index[None, :]), grad * weight)
    return result


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, int | float) else \
            scale_factor
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           self.recompute_scale_factor)

    def extra_repr(self) -> str:
        shown = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else \
            f"size={self.size!r}"
        return f"{shown}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear, the corners aligned (as torch's older module)."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class Unfold(Module):
    """Sliding blocks of the input, each flattened into a column (F.unfold)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Columns of sliding blocks summed back into an image of ``output_size`` (F.fold)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                    self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")


def pad(input: Tensor, pad, mode: str = "constant", value=None) -> Tensor:
    """Widths (last dimension first: left, right, then top, bottom...) of ``value`` around
    the input; a negative width crops."""
    if mode != "constant":
        from .padding import pad_by_mode

        if mode not in ("reflect", "replicate", "circular"):
            raise NotImplementedError(f"F.pad(mode={mode!r}) is not {MISSING_HINT}")
        return pad_by_mode(input, pad, mode)
    return _recording.output("constant_pad", _padded(input._data, pad, value or 0), (input,),
                             (tuple(pad),))


def _padded(data: np.ndarray, pad, value) -> np.ndarray:
    widths = [(0, 0)] * data.ndim
    for index in range(len(pad) // 2):
        widths[data.ndim - 1 - index] = (pad[2 * index], pad[2 * index + 1])
    grown = np.pad(data, [(max(a, 0), max(b, 0)) for a, b in widths], constant_values=value)
    cut = tuple(slice(-min(a, 0), grown.shape[d] + min(b, 0)) for d, (a, b) in enumerate(widths))
    return np.ascontiguousarray(grown[cut])


def unpad(k, grad, widths):
    """ConstantPadNdBackward0: the gradient padded by the opposite widths (the padding cut
    off, a crop grown back with zeros)."""
    opposite = [-width for width in widths]
    return pad(grad, opposite) if isinstance(grad, Tensor) else _padded(grad, opposite, 0)


def im2col_of(k, grad, kernel, dilation, padding, stride):
    """Col2ImBackward0: the gradient's blocks as columns (recorded under create_graph)."""
    if isinstance(grad, Tensor):
        return unfold(grad, kernel, dilation, padding, stride)
    return im2col(grad, kernel, dilation, padding, stride)


def col2im_of(k, grad, size, kernel, dilation, padding, stride):
    """Im2ColBackward0: the columns' gradients summed back into the image."""
    if isinstance(grad, Tensor):
        return fold(grad, size, kernel, dilation, padding, stride)
    return col2im(grad, size, kernel, dilation, padding, stride)


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sliding blocks as columns (im2col): (N, C*KH*KW, L), L the blocks."""
    kernel, dilation, padding, stride = (_pair(v) for v in (kernel_size, dilation, padding, stride))
    return _recording.output("im2col", im2col(input._data, kernel, dilation, padding, stride),
                             (input,), (input.shape[2:], kernel, dilation, padding, stride))


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Columns summed back into an image (col2im): unfold's adjoint."""
    size, kernel, dilation, padding, stride = (
        _pair(v) for v in (output_size, kernel_size, dilation, padding, stride))
    values = col2im(input._data, size, kernel, dilation, padding, stride)
    return _recording.output("col2im", values, (input,), (kernel, dilation, padding, stride))


def im2col(data: np.ndarray, kernel, dilation, padding, stride) -> np.ndarray:
    windows = _convolution._windows(_convolution._padded(data, padding), kernel, stride, dilation)
    n, c, rows, columns = windows.shape[:4]
    blocks = windows.transpose(0, 1, 4, 5, 2, 3)
    return np.ascontiguousarray(blocks.reshape(n, c * kernel[0] * kernel[1], rows * columns))


def col2im(data: np.ndarray, size, kernel, dilation, padding, stride) -> np.ndarray:
    n, flat, _ = data.shape
    channels = flat // (kernel[0] * kernel[1])
    rows = (size[0] + 2 * padding[0] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    columns = (size[1] + 2 * padding[1] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    blocks = data.reshape(n, channels, kernel[0], kernel[1], rows, columns)
    result = np.zeros((n, channels, size[0] + 2 * padding[0], size[1] + 2 * padding[1]),
                      data.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            top, left = i * dilation[0], j * dilation[1]
            result[:, :, top:top + stride[0] * rows:stride[0],
                   left:left + stride[1] * columns:stride[1]] += blocks[:, :, i, j]
    return result[:, :, padding[0]:padding[0] + size[0], padding[1]:padding[1] + size[1]]


def _register() -> None:
    from .._formula_kit import Kit

    Kit.resample_grad, Kit.resample, Kit.unpad = resample_grad, resample, unpad
    Kit.im2col, Kit.col2im = im2col_of, col2im_of


_register()
