"""F.affine_grid and F.grid_sample (2-D; volumes: grid_sampling_3d.py), what a spatial
transformer network is made of: a
grid of sampling points from an affine map, and an image read at those points (bilinear or
nearest, outside it zeros, its border or its reflection), with torch's nodes
(AffineGridGeneratorBackward0, GridSampler2DBackward0), their first derivatives and their
second (GridSampler2DBackwardBackward0)."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._formula_kit import Kit
from .._tensor import Tensor
from .._user_warnings import warn_at_user_code

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}
# the node saves the numbers torch's does; its formula reads them back as names
_MODE_NAMES = {number: name for name, number in _MODES.items()}
_PADDING_NAMES = {number: name for name, number in _PADDINGS.items()}
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the old "
                  "behavior is desired. See the documentation of grid_sample for details.")
THIRD_ORDER = ("a third derivative through grid_sample is not in the built-in NumPy engine; "
               "switch the engine to torch")


def _aligned(align_corners) -> bool:
    if align_corners is None:
        warn_at_user_code(_ALIGN_WARNING)
        return False
    return bool(align_corners)


def _steps(count: int, align_corners: bool, dtype) -> np.ndarray:
    """torch's linspace_from_neg_one: -1..1 in ``count`` steps, pulled in to the pixels'
    centres unless the corners align."""
    from .._numerics import linspace

    if count <= 1:
        return np.zeros(1, dtype)
    steps = linspace(-1, 1, count, dtype)
    if not align_corners:
        steps = steps * dtype.type(count - 1) / dtype.type(count)
    return steps.astype(dtype, copy=False)


def _base_grid(sizes: tuple, align_corners: bool, dtype) -> np.ndarray:
    """Every output point's (x, y[, z], 1): x along the last size, y the one before..."""
    grid = np.ones((*sizes, len(sizes) + 1), dtype)
    for axis, count in enumerate(reversed(sizes)):
        shape = [1] * len(sizes)
        shape[len(sizes) - 1 - axis] = count
        grid[..., axis] = _steps(count, align_corners, dtype).reshape(shape)
    return grid


def affine_grid(theta: Tensor, size, align_corners=None) -> Tensor:
    """The (N, H, W, 2) points that the (N, 2, 3) affine maps send the output's pixels to;
    for a volume, the (N, D, H, W, 3) points of (N, 3, 4) maps."""
    align = _aligned(align_corners)
    data = theta._data
    if data.dtype.kind != "f":
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {tuple(size)}.")
    dims = len(size) - 2
    if data.ndim != 3 or data.shape[1:] != (dims, dims + 1):
        raise ValueError(f"Expected a batch of {dims}D affine matrices of shape "
                         f"Nx{dims}x{dims + 1} for size {tuple(size)}. Got {theta.shape}.")
    batch, sizes = size[0], tuple(size[2:])
    base = _base_grid(sizes, align, data.dtype).reshape(1, -1, dims + 1)
    grid = np.matmul(base, np.swapaxes(data, 1, 2)).reshape(batch, *sizes, dims)
    return _recording.output("affine_grid", grid, (theta,), (base,))


def affine_grid_grad(k, grad, base):
    """dθ = (base ᵀ grad)ᵀ per batch, as torch's affine_grid_generator_backward."""
    flat = k.reshape(grad, (grad.shape[0], -1, grad.shape[-1]))
    return k.mT(k.matmul(k.mT(k.expand(base, (grad.shape[0], *base.shape[1:]))), flat))


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners=None) -> Tensor:
    """(N, C, H, W) ``input`` read at the (N, H_out, W_out, 2) ``grid``'s points, x then y in
    [-1, 1] across the image."""
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align = _aligned(align_corners)
    if input.ndim == 5:
        from .grid_sampling_3d import sample_volume

        if mode == "bicubic":
            raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
        return sample_volume(input, grid, _MODES[mode], _PADDINGS[padding_mode], align)
    if input.ndim != 4:
        raise NotImplementedError("grid_sample of other than 4-D and 5-D inputs is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    values = _sampled(input._data, grid._data.astype(input._data.dtype), mode, padding_mode,
                      align)
    return _recording.output("grid_sampler_2d", values, (input, grid),
                             (input, grid, _MODES[mode], _PADDINGS[padding_mode], align))


def _coordinates(normalized: np.ndarray, size: int, padding: str, align: bool):
    """Pixel coordinates of points in [-1, 1], and their derivative by the normalized ones
    (after the border's clip or the reflection)."""
    dtype = normalized.dtype.type
    if align:
        pixel, scale = (normalized + 1) / 2 * dtype(size - 1), dtype(size - 1) / 2
    else:
        pixel, scale = ((normalized + 1) * dtype(size) - 1) / 2, dtype(size) / 2
    slope = np.full(pixel.shape, scale, normalized.dtype)
    if padding == "reflection":
        low, high = (0, 2 * (size - 1)) if align else (-1, 2 * size - 1)
        pixel, flip = _reflected(pixel, low, high)
        slope = slope * flip
    if padding != "zeros":
        outside = (pixel <= 0) | (pixel >= size - 1)
        pixel = np.clip(pixel, 0, size - 1)
        # (a zero of the reflection's sign: torch multiplies the clip's 0 by it)
        slope = np.where(outside, slope * 0, slope).astype(normalized.dtype)
    return pixel, slope


def _reflected(pixel: np.ndarray, twice_low: int, twice_high: int):
    """Coordinates reflected into [low, high] (given doubled), and the sign they took."""
    if twice_low == twice_high:
        return np.zeros_like(pixel), np.zeros_like(pixel)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    shifted = pixel - pixel.dtype.type(low)
    sign = np.where(shifted < 0, -1, 1).astype(pixel.dtype)
    distance = np.abs(shifted)
    extra = np.fmod(distance, pixel.dtype.type(span))
    flips = np.floor(distance / pixel.dtype.type(span))
    even = flips % 2 == 0
    reflected = np.where(even, extra + low, span - extra + low).astype(pixel.dtype)
    return reflected, np.where(even, sign, -sign).astype(pixel.dtype)


def _corners(x: np.ndarray, y: np.ndarray, mode: str):
    """(rows, columns, weights) of the pixels each point reads: four for bilinear."""
    if mode == "nearest":
        return [(np.rint(y).astype(np.int64), np.rint(x).astype(np.int64),
                 np.ones_like(x))]
    left, top = np.floor(x), np.floor(y)
    right, bottom = left + 1, top + 1
    return [(top, left, (right - x) * (bottom - y)), (top, right, (x - left) * (bottom - y)),
            (bottom, left, (right - x) * (y - top)), (bottom, right, (x - left) * (y - top))]


def _read(image: np.ndarray, rows, columns):
    """image[n, :, row, column] for each point, zero outside; and where it was inside."""
    height, width = image.shape[2:]
    rows, columns = rows.astype(np.int64), columns.astype(np.int64)
    inside = (rows >= 0) & (rows < height) & (columns >= 0) & (columns < width)
    batch = np.arange(image.shape[0]).reshape(-1, 1, 1)
    picked = image[batch, :, np.clip(rows, 0, height - 1), np.clip(columns, 0, width - 1)]
    return np.where(inside[..., None], picked, 0), inside  # (N, Ho, Wo, C)


def _points(image: np.ndarray, grid: np.ndarray, padding: str, align: bool):
    height, width = image.shape[2:]
    x, x_slope = _coordinates(grid[..., 0], width, padding, align)
    y, y_slope = _coordinates(grid[..., 1], height, padding, align)
    return x, y, x_slope, y_slope


def _sampled(image: np.ndarray, grid: np.ndarray, mode: str, padding: str, align: bool):
    if mode == "bicubic":
        from . import grid_sampling_bicubic

        return grid_sampling_bicubic.sampled(image, grid, _PADDINGS[padding], align)
    x, y, _, _ = _points(image, grid, padding, align)
    total = 0
    for rows, columns, weight in _corners(x, y, mode):
        picked, _ = _read(image, rows, columns)
        total = total + picked * weight[..., None]
    return np.ascontiguousarray(np.moveaxis(np.asarray(total, image.dtype), -1, 1))


def grid_sample_grad(k, grad, input, grid, mode: int, padding: int, align: bool,
                     for_input: bool):
    """The input's gradient: each output's gradient spread back onto the pixels it read, by
    their weights; the grid's: how the interpolated value changes as its point moves. Under
    create_graph each is torch's GridSampler2DBackwardBackward0 (grid_sample_second); of a
    volume, GridSampler3D's (grid_sampling_3d.py)."""
    arrays = [np.asarray(getattr(value, "_data", value)) for value in (grad, input, grid)]
    values = _first_of(arrays[1])(*arrays, mode, padding, align, for_input)
    if isinstance(grad, np.ndarray):
        return values
    volume = arrays[1].ndim == 5
    op = f"grid_sampler_{3 if volume else 2}d_{'input' if for_input else 'grid'}_backward"
    return k._backward_of(op, values, (grad, input, grid), (grad, input, grid, mode, padding,
                                                              align))


class _Points:
    """Where a grid's points fall in an image: pixel coordinates, their slopes by the grid's
    coordinates, and the corners each reads with their weights."""

    def __init__(self, input: np.ndarray, grid: np.ndarray, mode: int, padding: int,
                 align: bool) -> None:
        self.mode = _MODE_NAMES[mode]
        self.grid = grid.astype(input.dtype, copy=False)
        self.x, self.y, self.x_slope, self.y_slope = _points(input, self.grid,
                                                             _PADDING_NAMES[padding], align)
        self.corners = _corners(self.x, self.y, self.mode)

    def spread(self, flowing: np.ndarray, input: np.ndarray, weights=None) -> np.ndarray:
        """(N, Ho, Wo, C) values added onto the pixels the points read, by the corners'
        weights (or ``weights``, one array per corner)."""
        result = np.zeros(input.shape, input.dtype)
        batch = np.broadcast_to(np.arange(input.shape[0]).reshape(-1, 1, 1), self.x.shape)
        for index, (rows, columns, weight) in enumerate(self.corners):
            _, inside = _read(input, rows, columns)
            spread = flowing * (weight if weights is None else weights[index])[..., None]
            np.add.at(np.moveaxis(result, 1, -1),
                      (batch[inside], rows.astype(np.int64)[inside],
                       columns.astype(np.int64)[inside]), spread[inside])
        return result

    def slopes(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """How each point's (N, Ho, Wo, C) value of ``image`` changes with its grid x and y."""
        (top, left, _), _, _, (bottom, right, _) = self.corners
        north_west, north_east, south_west, south_east = \
            [_read(image, rows, columns)[0] for rows, columns, _ in self.corners]
        by_x = (north_east - north_west) * (bottom - self.y)[..., None] + \
            (south_east - south_west) * (self.y - top)[..., None]
        by_y = (south_west - north_west) * (right - self.x)[..., None] + \
            (south_east - north_east) * (self.x - left)[..., None]
        return by_x * self.x_slope[..., None], by_y * self.y_slope[..., None]

    def weight_slopes(self, direction: np.ndarray) -> list[np.ndarray]:
        """Each corner's weight differentiated along ``direction`` (N, Ho, Wo, 2) of the grid."""
        (top, left, _), _, _, (bottom, right, _) = self.corners
        along_x, along_y = direction[..., 0] * self.x_slope, direction[..., 1] * self.y_slope
        return [-(bottom - self.y) * along_x - (right - self.x) * along_y,
                (bottom - self.y) * along_x - (self.x - left) * along_y,
                -(self.y - top) * along_x + (right - self.x) * along_y,
                (self.y - top) * along_x + (self.x - left) * along_y]

    def twist(self, image: np.ndarray) -> np.ndarray:
        """The value's mixed derivative by the grid's x and y (a bilinear form has no other)."""
        north_west, north_east, south_west, south_east = \
            [_read(image, rows, columns)[0] for rows, columns, _ in self.corners]
        scale = (self.x_slope * self.y_slope)[..., None]
        return (south_east - south_west - north_east + north_west) * scale


def _first_of(input: np.ndarray):
    """The first derivative's function for an image, or for a volume (five dimensions)."""
    if input.ndim == 5:
        from .grid_sampling_3d import first_derivative

        return first_derivative
    return _first_derivative


def _first_derivative(grad, input, grid, mode, padding, align, for_input: bool):
    if _MODE_NAMES[mode] == "bicubic":
        from . import grid_sampling_bicubic

        return grid_sampling_bicubic.first_derivative(grad, input, grid, padding, align,
                                                      for_input)
    points = _Points(input, grid, mode, padding, align)
    flowing = np.moveaxis(grad, 1, -1)  # (N, Ho, Wo, C)
    if for_input:
        return points.spread(flowing, input)
    if points.mode == "nearest":
        return np.zeros(points.grid.shape, points.grid.dtype)
    by_x, by_y = points.slopes(input)
    return np.stack([(flowing * by_x).sum(-1), (flowing * by_y).sum(-1)], -1).astype(
        points.grid.dtype)


def _sample_of(image: np.ndarray, grid: np.ndarray, mode: int, padding: int, align: bool):
    """An image (or a volume) read at the grid's points, the modes and paddings as numbers."""
    if image.ndim == 5:
        from .grid_sampling_3d import sampled

        return sampled(image, grid, mode, padding, align)
    return _sampled(image, grid, _MODE_NAMES[mode], _PADDING_NAMES[padding], align)


def grid_sample_second(k, grad, grad_output, input, grid, mode, padding, align,
                       for_input: bool, which: int):
    """GridSampler2DBackwardBackward0: the derivative of the input's gradient (for_input)
    or the grid's, given ``grad`` for it, by grad_output (0), input (1) or grid (2). The
    input's gradient is linear in grad_output and the sample is linear in the image, so
    <v, gI> = <S(v, grid), g> and <V, gGrid> = <g, S(input, grid)> moved along V."""
    if not isinstance(grad, np.ndarray):
        raise NotImplementedError(THIRD_ORDER)
    if for_input:  # grad is an image's (or volume's) worth, v: every mode, as above
        if which == 0:
            return _sample_of(grad, grid.astype(input.dtype), mode, padding, align)
        if which == 1:
            return None
        return _first_of(input)(grad_output, grad, grid, mode, padding, align, False)
    if input.ndim == 5:
        from .grid_sampling_3d import second_derivative

        return second_derivative(grad, grad_output, input, grid, mode, padding, align, which)
    if _MODE_NAMES[mode] == "bicubic":
        from . import grid_sampling_bicubic

        return grid_sampling_bicubic.second_derivative(grad, grad_output, input, grid,
                                                       padding, align, which)
    points = _Points(input, grid, mode, padding, align)
    flowing = np.moveaxis(grad_output, 1, -1)
    if points.mode == "nearest":
        return None
    if which == 0:  # grad is a grid's worth, V: the sample's change along it
        by_x, by_y = points.slopes(input)
        moved = by_x * grad[..., :1] + by_y * grad[..., 1:]
        return np.ascontiguousarray(np.moveaxis(moved, -1, 1)).astype(input.dtype)
    if which == 1:
        return points.spread(flowing, input, points.weight_slopes(grad.astype(input.dtype)))
    mixed = (flowing * points.twist(input)).sum(-1)
    return np.stack([mixed * grad[..., 1], mixed * grad[..., 0]], -1).astype(
        points.grid.dtype)


Kit.affine_grid_grad = affine_grid_grad
Kit.grid_sample_grad = grid_sample_grad
Kit.grid_sample_second = grid_sample_second

__all__ = ["affine_grid", "grid_sample"]
