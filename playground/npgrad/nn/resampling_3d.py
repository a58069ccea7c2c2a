"""F.interpolate of volumes (N, C, D, H, W): nearest, nearest-exact and trilinear (area is
adaptive average pooling), as torch's UpsampleNearest3DBackward0,
UpsampleNearestExact3DBackward0 and UpsampleTrilinear3DBackward0, in torch's order of
arithmetic: the forward nests the axes (depth outermost), the backward adds each output's
eight shares to its corners output after output. Where torch runs its AVX2/AVX-512 kernels
their compiler fused each ``a * b + c`` of the trilinear forward (the source positions and
each blend's first term) into one FMA; where it runs its scalar code it did not."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._formula_kit import Kit
from .._kernel_exp import vector_floats
from .._numerics import fused_values
from .._tensor import Tensor
from .resampling import ExactIndices, _nearest, _source
from .volumes import adaptive_avg_pool3d

_FUSED = vector_floats() > 1  # (torch's kernels for AVX2 and AVX-512 are built with FMA)


def interpolate_volume(input: Tensor, sizes: tuple, scales: tuple, mode: str,
                       align_corners) -> Tensor:
    """A volume resized to ``sizes`` (each axis's scale as given, or None)."""
    if mode == "area":  # torch's adaptive average pooling to the new size
        return adaptive_avg_pool3d(input, sizes)
    exact = np.float64 if input._data.dtype == np.float64 and mode == "trilinear" else \
        np.float32  # (torch's opmath type of the index arithmetic)
    kind = "bilinear" if mode == "trilinear" else mode
    sources = tuple(_source(size_in, size_out, scale, kind, align_corners, exact,
                            _FUSED and kind == "bilinear")
                    for size_in, size_out, scale in zip(input.shape[2:], sizes, scales,
                                                        strict=True))
    return resample_volume(None, input, sources)


def _blend(near: np.ndarray, far: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """(1 - w)·near + w·far as torch's kernel computes it (the first product fused)."""
    if _FUSED:
        return fused_values(np.broadcast_to(1 - weight, near.shape), near, far * weight)
    return near * (1 - weight) + far * weight


def resample_volume(k, input, sources):
    """The forward: the volume read at the source positions (a tensor recorded as torch's
    node, or an array); also the derivative of its own backward."""
    values = _resampled(getattr(input, "_data", input), sources)
    if not isinstance(input, Tensor):
        return values
    return _recording.output(_op(sources), values, (input,), (input.shape, sources))


def _op(sources) -> str:
    if not _nearest(sources[0]):
        return "upsample_trilinear3d"
    return "upsample_nearest_exact3d" if isinstance(sources[0], ExactIndices) else \
        "upsample_nearest3d"


def _resampled(data: np.ndarray, sources) -> np.ndarray:
    if _nearest(sources[0]):
        depth, rows, columns = sources
        return np.ascontiguousarray(data[:, :, depth[:, None, None], rows[None, :, None],
                                         columns[None, None, :]])
    (d0, d1, dw), (h0, h1, hw), (w0, w1, ww) = sources

    def along_width(block):
        return _blend(block[..., w0], block[..., w1], ww)

    def along_height(block):
        return _blend(along_width(block[..., h0, :]), along_width(block[..., h1, :]),
                      hw[:, None])

    values = _blend(along_height(data[:, :, d0]), along_height(data[:, :, d1]),
                    dw[:, None, None])
    return np.ascontiguousarray(values.astype(data.dtype))


def resample_volume_grad(k, grad, shape, sources):
    """Each output's gradient added to the input positions it was read from, in torch's
    order; under create_graph torch's Upsample...3DBackwardBackward0, whose derivative
    resamples again."""
    flowing = np.asarray(getattr(grad, "_data", grad))
    targets, shares = _corners(sources, shape[2:], flowing.dtype)
    planes = flowing.reshape(int(np.prod(shape[:2])), int(np.prod(flowing.shape[2:])))
    values = np.zeros((len(planes), int(np.prod(shape[2:]))), flowing.dtype)
    if shares is None:  # nearest: each output to one place
        np.add.at(values, (slice(None), targets), planes)  # (in order: torch's sums)
    else:  # the ((d·h)·w) share of each corner times g, added in order
        _add_shares(values, targets, shares.ravel(), np.repeat(planes, 8, axis=1))
    values = values.reshape(shape)
    return k._backward_of(f"{_op(sources)}_backward", values, (grad,), (sources,))


def _add_shares(values: np.ndarray, targets: np.ndarray, shares: np.ndarray,
                flowing: np.ndarray) -> None:
    """values[:, t] += share · g for each (t, share, g) in order, as torch's loop adds them:
    its compiler fused each into one FMA where torch runs its vector kernels' builds, so a
    place's sum is a chain, taken here a round at a time (each place's r-th addend)."""
    if not _FUSED:
        np.add.at(values, (slice(None), targets), flowing * shares)
        return
    order = np.argsort(targets, kind="stable")
    ranked = targets[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    rank = np.arange(len(ranked)) - np.repeat(starts, np.diff(np.r_[starts, len(ranked)]))
    for round_ in range(int(rank.max(initial=-1)) + 1):
        taken = order[rank == round_]
        places = targets[taken]
        values[:, places] = fused_values(np.broadcast_to(shares[taken], flowing[:, taken].shape),
                                         flowing[:, taken], values[:, places])


def _corners(sources, sizes: tuple, dtype):
    """Per output (in order), the flat input positions it reads and, for trilinear, the
    weight of each of its eight corners (000, 001, 010, ... as torch lists them)."""
    depth, height, width = sizes
    if _nearest(sources[0]):
        d, h, w = sources
        flat = (d[:, None, None] * height + h[None, :, None]) * width + w[None, None, :]
        return flat.ravel(), None
    axes = [((first, second), ((1 - weight).astype(dtype), weight.astype(dtype)))
            for first, second, weight in sources]
    targets, shares = [], []
    for a in range(2):
        for b in range(2):
            for c in range(2):
                (dz, dw), (hz, hw), (wz, ww) = ((axis[0][i], axis[1][i]) for axis, i in
                                                zip(axes, (a, b, c), strict=True))
                targets.append((dz[:, None, None] * height + hz[None, :, None]) * width +
                               wz[None, None, :])
                shares.append(dw[:, None, None] * hw[None, :, None] * ww[None, None, :])
    return (np.stack(targets, -1).ravel(),
            np.stack(shares, -1).reshape(-1, 8).astype(dtype))


for _function in (resample_volume, resample_volume_grad):
    setattr(Kit, _function.__name__, _function)
