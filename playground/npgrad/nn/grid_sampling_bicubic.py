"""F.grid_sample(mode="bicubic") of images: each point reads the 4 × 4 pixels around it, their
positions passed through the padding one by one (a pixel outside reads zero), weighted by
torch's cubic convolution (A = -0.75) along x, then along y; and both gradients."""

from __future__ import annotations

import numpy as np

from .grid_sampling import _PADDING_NAMES, _coordinates, _read, _reflected

A = -0.75


def _near(x):
    """Weight of a tap within one pixel: torch's cubic_convolution1."""
    return ((A + 2) * x - (A + 3)) * x * x + 1


def _far(x):
    """Weight of a tap one to two pixels away: torch's cubic_convolution2."""
    return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A


def _weights(t: np.ndarray) -> list[np.ndarray]:
    return [_far(t + 1), _near(t), _near(1 - t), _far(2 - t)]


def _weight_slopes(t: np.ndarray) -> list[np.ndarray]:
    """The weights' derivatives by -t, as torch's get_cubic_coefficients_grad writes them."""
    x = -1 - t
    first = (-3 * A * x - 10 * A) * x - 8 * A
    x = -t
    second = (-3 * (A + 2) * x - 2 * (A + 3)) * x
    x = 1 - t
    third = (3 * (A + 2) * x - 2 * (A + 3)) * x
    x = 2 - t
    fourth = (3 * A * x - 10 * A) * x + 8 * A
    return [first, second, third, fourth]


def _bends(t: np.ndarray) -> list[np.ndarray]:
    """The weights' second derivatives by t."""
    def near(x):
        return 6 * (A + 2) * x - 2 * (A + 3)

    def far(x):
        return 6 * A * x - 10 * A

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _padded(place: np.ndarray, size: int, padding: str, align: bool) -> np.ndarray:
    """A tap's pixel index after the padding (torch's compute_coordinates), truncated."""
    if padding == "reflection":
        low, high = (0, 2 * (size - 1)) if align else (-1, 2 * size - 1)
        place, _ = _reflected(place, low, high)
    if padding != "zeros":
        place = np.clip(place, 0, size - 1)
    return np.trunc(place).astype(np.int64)


class _Taps:
    """Where a grid's points fall and the 16 pixels each reads, with their weights."""

    def __init__(self, image: np.ndarray, grid: np.ndarray, padding: int, align: bool) -> None:
        height, width = image.shape[2:]
        padding_name = _PADDING_NAMES[padding]
        x, self.x_scale = _coordinates(grid[..., 0], width, "zeros", align)
        y, self.y_scale = _coordinates(grid[..., 1], height, "zeros", align)
        left, top = np.floor(x), np.floor(y)
        tx, ty = x - left, y - top
        self.x_weights, self.y_weights = _weights(tx), _weights(ty)
        self.x_slopes, self.y_slopes = _weight_slopes(tx), _weight_slopes(ty)
        self.x_bends, self.y_bends = _bends(tx), _bends(ty)
        self.columns = [_padded(left - 1 + i, width, padding_name, align) for i in range(4)]
        self.rows = [_padded(top - 1 + j, height, padding_name, align) for j in range(4)]

    def values(self, image: np.ndarray) -> list[list[np.ndarray]]:
        """[row j][column i]: the (N, Ho, Wo, C) pixels read, zero outside."""
        return [[_read(image, row, column)[0] for column in self.columns] for row in self.rows]

    @staticmethod
    def _along(values: list, weights: list) -> np.ndarray:
        return values[0] * weights[0][..., None] + values[1] * weights[1][..., None] + \
            values[2] * weights[2][..., None] + values[3] * weights[3][..., None]

    def sampled(self, image: np.ndarray) -> np.ndarray:
        rows = [self._along(row, self.x_weights) for row in self.values(image)]
        return self._along(rows, self.y_weights)


def sampled(image: np.ndarray, grid: np.ndarray, padding: int, align: bool) -> np.ndarray:
    total = _Taps(image, grid, padding, align).sampled(image)
    return np.ascontiguousarray(np.moveaxis(np.asarray(total, image.dtype), -1, 1))


def _spread(taps: _Taps, flowing: np.ndarray, image: np.ndarray, weight_of) -> np.ndarray:
    """(N, Ho, Wo, C) values added onto the 16 pixels each point read, by ``weight_of(i, j)``
    (column i, row j); those outside get nothing."""
    result = np.zeros(image.shape, image.dtype)
    batch = np.broadcast_to(np.arange(image.shape[0]).reshape(-1, 1, 1), flowing.shape[:-1])
    height, width = image.shape[2:]
    for j, row in enumerate(taps.rows):
        for i, column in enumerate(taps.columns):
            inside = (row >= 0) & (row < height) & (column >= 0) & (column < width)
            np.add.at(np.moveaxis(result, 1, -1), (batch[inside], row[inside], column[inside]),
                      (flowing * weight_of(i, j)[..., None])[inside])
    return result


def first_derivative(grad: np.ndarray, image: np.ndarray, grid: np.ndarray, padding: int,
                     align: bool, for_input: bool) -> np.ndarray:
    """The image's gradient (each output's spread onto its 16 pixels by their weights) or
    the grid's (the weights' slopes, by the coordinates' scale: no padding clips a point)."""
    taps = _Taps(image, grid.astype(image.dtype, copy=False), padding, align)
    flowing = np.moveaxis(grad, 1, -1)  # (N, Ho, Wo, C)
    if for_input:
        return _spread(taps, flowing, image, lambda i, j: taps.x_weights[i] * taps.y_weights[j])
    values = taps.values(image)
    by_x = taps._along([taps._along(row, taps.x_slopes) for row in values], taps.y_weights)
    by_y = taps._along([taps._along(row, taps.x_weights) for row in values], taps.y_slopes)
    # (torch's slopes are by -t: its sums subtract them)
    return np.stack([-(flowing * by_x).sum(-1) * taps.x_scale,
                     -(flowing * by_y).sum(-1) * taps.y_scale], -1).astype(taps.x_scale.dtype)


def second_derivative(grad: np.ndarray, grad_output: np.ndarray, image: np.ndarray,
                      grid: np.ndarray, padding: int, align: bool, which: int):
    """The grid gradient's derivative, given ``grad`` (V, grid-shaped) for it, by
    grad_output (0: the sample's change along V), the image (1: grad_output spread by the
    weights' change along V) or the grid (2: the Hessian of the sample, times V)."""
    taps = _Taps(image, grid.astype(image.dtype, copy=False), padding, align)
    flowing = np.moveaxis(grad_output, 1, -1)
    along_x = grad[..., 0].astype(image.dtype) * taps.x_scale
    along_y = grad[..., 1].astype(image.dtype) * taps.y_scale
    if which == 1:
        return _spread(taps, flowing, image, lambda i, j: -taps.x_slopes[i] * taps.y_weights[j]
                       * along_x - taps.x_weights[i] * taps.y_slopes[j] * along_y)
    values = taps.values(image)
    by_x = -taps._along([taps._along(row, taps.x_slopes) for row in values], taps.y_weights)
    by_y = -taps._along([taps._along(row, taps.x_weights) for row in values], taps.y_slopes)
    if which == 0:
        moved = by_x * along_x[..., None] + by_y * along_y[..., None]
        return np.ascontiguousarray(np.moveaxis(moved, -1, 1)).astype(image.dtype)
    xx = taps._along([taps._along(row, taps.x_bends) for row in values], taps.y_weights)
    yy = taps._along([taps._along(row, taps.x_weights) for row in values], taps.y_bends)
    xy = taps._along([taps._along(row, taps.x_slopes) for row in values], taps.y_slopes)
    xx, yy, xy = ((flowing * part).sum(-1) for part in (xx, yy, xy))
    return np.stack([(xx * along_x + xy * along_y) * taps.x_scale,
                     (xy * along_x + yy * along_y) * taps.y_scale], -1).astype(grid.dtype)
