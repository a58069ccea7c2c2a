"""F.grid_sample of volumes, (N, C, D, H, W) read at an (N, D_out, H_out, W_out, 3) grid of
x, y, z points (trilinear or nearest, any padding), with torch's nodes
(GridSampler3DBackward0, GridSampler3DBackwardBackward0), first and second derivatives. The
coordinates and paddings are grid_sampling.py's, per axis; the eight corners are summed in
torch's order (top/bottom, north/south, west/east) with their weights multiplied x, y, z."""

from __future__ import annotations

import itertools

import numpy as np

from .. import _recording
from .grid_sampling import _MODE_NAMES, _PADDING_NAMES, _coordinates

# the corners' offsets (z, y, x) in torch's order: tnw, tne, tsw, tse, bnw, bne, bsw, bse
_BITS = list(itertools.product((0, 1), repeat=3))


def sample_volume(input, grid, mode: int, padding: int, align: bool):
    values = sampled(input._data, grid._data.astype(input._data.dtype), mode, padding, align)
    return _recording.output("grid_sampler_3d", values, (input, grid),
                             (input, grid, mode, padding, align))


def sampled(image: np.ndarray, grid: np.ndarray, mode: int, padding: int, align: bool):
    """The volume's values at the grid's points, (N, C, D_out, H_out, W_out)."""
    return _Volume(image, grid, mode, padding, align).sampled(image)


class _Volume:
    """Where a grid's points fall in a volume: per axis (x, y, z) the voxel coordinate and
    its slope by the grid's, and the corners each point reads with their weights' factors."""

    def __init__(self, image: np.ndarray, grid: np.ndarray, mode: int, padding: int,
                 align: bool) -> None:
        self.nearest = _MODE_NAMES[mode] == "nearest"
        self.grid = grid
        sizes = image.shape[2:][::-1]  # W, H, D: the sizes along x, y, z
        found = [_coordinates(grid[..., axis], sizes[axis], _PADDING_NAMES[padding], align)
                 for axis in range(3)]
        self.points = [point for point, _ in found]
        self.slopes = [slope for _, slope in found]
        self.low = [np.floor(point) for point in self.points]

    def corners(self):
        """(z, y, x) integer positions and the three weight factors (x, y, z) per corner."""
        if self.nearest:
            yield [np.rint(p).astype(np.int64) for p in self.points[::-1]], None
            return
        for bits in _BITS:
            position = [(low + bit).astype(np.int64) for low, bit in
                        zip(self.low[::-1], bits, strict=True)]
            factors = [(point - low) if bit else (low + 1 - point) for point, low, bit in
                       zip(self.points, self.low, bits[::-1], strict=True)]
            yield position, factors

    def read(self, image: np.ndarray, position):
        """image[n, :, z, y, x] per point as (N, Do, Ho, Wo, C), zero outside; and inside."""
        inside = np.ones(position[0].shape, bool)
        clipped = []
        for place, size in zip(position, image.shape[2:], strict=True):
            inside &= (place >= 0) & (place < size)
            clipped.append(np.clip(place, 0, size - 1))
        batch = np.arange(image.shape[0]).reshape(-1, 1, 1, 1)
        picked = image[(batch, slice(None), *clipped)]
        return np.where(inside[..., None], picked, 0), inside

    def sampled(self, image: np.ndarray) -> np.ndarray:
        total = 0
        for position, factors in self.corners():
            picked, _ = self.read(image, position)
            weight = 1 if factors is None else factors[0] * factors[1] * factors[2]
            total = total + picked * (weight[..., None] if factors is not None else 1)
        return np.ascontiguousarray(np.moveaxis(np.asarray(total, image.dtype), -1, 1))

    def spread(self, flowing: np.ndarray, image: np.ndarray, weights=None) -> np.ndarray:
        """(N, Do, Ho, Wo, C) values added onto the voxels the points read, by the corners'
        weights (or ``weights``, one array per corner)."""
        result = np.zeros(image.shape, image.dtype)
        batch = np.broadcast_to(np.arange(image.shape[0]).reshape(-1, 1, 1, 1),
                                self.points[0].shape)
        for index, (position, factors) in enumerate(self.corners()):
            _, inside = self.read(image, position)
            if weights is not None:
                weight = weights[index]
            else:
                weight = np.ones(batch.shape, image.dtype) if factors is None else \
                    factors[0] * factors[1] * factors[2]
            np.add.at(np.moveaxis(result, 1, -1),
                      (batch[inside], *(place[inside] for place in position)),
                      (flowing * weight[..., None])[inside])
        return result

    def _factor_slopes(self, bits_zyx) -> list[int]:
        return [1 if bit else -1 for bit in bits_zyx[::-1]]  # x, y, z

    def gradients(self, image: np.ndarray, scaled: bool = True) -> list[np.ndarray]:
        """How each point's (N, Do, Ho, Wo, C) value changes with its grid x, y and z (with
        ``scaled`` false, with its voxel coordinates)."""
        by = [0, 0, 0]
        for bits, (position, factors) in zip(_BITS, self.corners(), strict=True):
            picked, _ = self.read(image, position)
            signs = self._factor_slopes(bits)
            for axis in range(3):
                others = [factors[j] for j in range(3) if j != axis]
                by[axis] = by[axis] + picked * (signs[axis] * others[0] * others[1])[..., None]
        if not scaled:
            return by
        return [value * slope[..., None] for value, slope in zip(by, self.slopes, strict=True)]

    def weight_slopes(self, direction: np.ndarray) -> list[np.ndarray]:
        """Each corner's weight differentiated along ``direction`` (.., 3) of the grid."""
        along = [direction[..., axis] * self.slopes[axis] for axis in range(3)]
        result = []
        for bits, (_, factors) in zip(_BITS, self.corners(), strict=True):
            signs = self._factor_slopes(bits)
            total = 0
            for axis in range(3):
                others = [factors[j] for j in range(3) if j != axis]
                total = total + signs[axis] * others[0] * others[1] * along[axis]
            result.append(total)
        return result

    def mixed(self, image: np.ndarray, flowing: np.ndarray) -> dict:
        """Σ_C flowing · ∂²value/∂p_i∂p_j (i < j), the slopes of both axes included."""
        result = {}
        for i, j in ((0, 1), (0, 2), (1, 2)):
            total = 0
            for bits, (position, factors) in zip(_BITS, self.corners(), strict=True):
                picked, _ = self.read(image, position)
                signs = self._factor_slopes(bits)
                rest = factors[3 - i - j]
                total = total + picked * (signs[i] * signs[j] * rest)[..., None]
            result[i, j] = (flowing * total).sum(-1) * self.slopes[i] * self.slopes[j]
        return result


def first_derivative(grad, input, grid, mode, padding, align, for_input: bool):
    """The volume's gradient (each output's spread back onto its voxels) or the grid's."""
    volume = _Volume(input, grid.astype(input.dtype, copy=False), mode, padding, align)
    flowing = np.moveaxis(grad, 1, -1)
    if for_input:
        return volume.spread(flowing, input)
    if volume.nearest:
        return np.zeros(volume.grid.shape, volume.grid.dtype)
    by = volume.gradients(input, scaled=False)  # (scaled last, as torch: a clipped point's
    return np.stack([(flowing * value).sum(-1) * slope for value, slope in  # zero keeps its sign)
                     zip(by, volume.slopes, strict=True)], -1).astype(volume.grid.dtype)


def second_derivative(grad, grad_output, input, grid, mode, padding, align, which: int):
    """The derivative of the grid's gradient, given ``grad`` (V) for it, by grad_output (0),
    input (1) or grid (2): as grid_sampling.grid_sample_second, the Hessian of a trilinear
    form having only mixed terms (the volume's gradient: grid_sample_second's, any mode)."""
    volume = _Volume(input, grid.astype(input.dtype, copy=False), mode, padding, align)
    flowing = np.moveaxis(grad_output, 1, -1)
    if volume.nearest:
        return None
    direction = grad.astype(input.dtype)
    if which == 0:
        moved = sum(value * direction[..., axis:axis + 1]
                    for axis, value in enumerate(volume.gradients(input)))
        return np.ascontiguousarray(np.moveaxis(moved, -1, 1)).astype(input.dtype)
    if which == 1:
        return volume.spread(flowing, input, volume.weight_slopes(direction))
    mixed = volume.mixed(input, flowing)
    parts = [sum(mixed[min(i, j), max(i, j)] * direction[..., j] for j in range(3) if j != i)
             for i in range(3)]
    return np.stack(parts, -1).astype(volume.grid.dtype)

