"""Batch norm's float32 arithmetic as torch's CPU kernels do it, so that a training step
through BatchNorm gives torch's bits: the statistics, the output, and the backward's sums.

Why it matters: the gradient reaching a bias placed before a batch norm is zero but for
rounding, and Adam divides it by its own size, so torch's rounding noise becomes a step of
the full learning rate; other arithmetic than torch's sends such a model elsewhere.

torch takes one of two kernels when the input (and, in the backward, the incoming
gradient) is contiguous: for an (N, C) input, or a channels-last one, it works on rows,
each thread summing its run of rows into a float32 buffer that is added up in double;
for (N, C, H, W...) it works plane by plane, each plane reduced in 8-lane vectors (its
AVX2 build, which it runs on AVX-512 machines too; sums added into a double). Its
compiler fused some products into the sums (one FMA) and not others, found by trying
each against torch: noted where they happen. Where torch runs its scalar code
(ATEN_CPU_CAPABILITY=default) nothing is fused and a vector's lanes are added in order.
Other inputs (float64, strided) keep the plain formulas of their callers (None here)."""

from __future__ import annotations

import numpy as np

from . import _compiled
from ._cpu_threads import torch_threads
from ._kernel_exp import vector_floats
from ._numerics import fused_values

_F32 = np.float32
_LANES = 8  # (torch's AVX2 Vectorized<float>)
_FUSED = vector_floats() > 1
# Past this many rows a thread's run is summed row by row in Python: too slow, so the
# callers' plain formulas take over (torch's bits are then not promised).
_ROWS_UP_TO = 4096


def layout(data: np.ndarray) -> str | None:
    """Which of torch's kernels a float32 array meets: 'rows', 'planes' or None."""
    if data.dtype != _F32 or data.ndim < 2 or data.size == 0:
        return None
    if data.flags.c_contiguous:
        return "rows" if data.size == data.shape[0] * data.shape[1] else "planes"
    if data.ndim in (4, 5) and np.moveaxis(data, 1, -1).flags.c_contiguous:
        return "rows"
    return None


def _as_rows(data: np.ndarray) -> np.ndarray:
    """(N, C, ...) as (N·H·W..., C): channels last, one row per position."""
    return np.moveaxis(data, 1, -1).reshape(-1, data.shape[1])


def _by_thread(rows: np.ndarray) -> np.ndarray:
    """The rows as (threads, steps, channels): each of torch's threads' equal run of rows
    (at::parallel_for's split), the last run padded with zero rows (which add nothing)."""
    count = rows.shape[0]
    threads = max(1, min(torch_threads(), count))
    steps = -(-count // threads)
    threads = -(-count // steps)  # (runs of that length: the last threads may get none)
    padded = np.zeros((threads * steps, rows.shape[1]), rows.dtype)
    padded[:count] = rows
    return padded.reshape(threads, steps, rows.shape[1])


def _in_double(parts: np.ndarray) -> np.ndarray:
    """Float32 partial sums (along axis 0) added one after another in double."""
    return np.add.accumulate(parts.astype(np.float64), axis=0)[-1]


def _run_sums(rows: np.ndarray, fused_with=None) -> np.ndarray:
    """Each thread's float32 sum of its run of rows, row after row: of the rows, or (given
    ``fused_with``) of rows · fused_with, each product fused into the running sum."""
    runs = _by_thread(rows)
    if fused_with is None:
        return np.add.accumulate(runs, axis=1)[:, -1]
    if not _FUSED:
        return np.add.accumulate(runs * _by_thread(fused_with), axis=1)[:, -1]
    runs = np.ascontiguousarray(runs.transpose(1, 0, 2))  # (steps, threads, channels)
    factors = np.ascontiguousarray(_by_thread(fused_with).transpose(1, 0, 2))
    sums = np.zeros(runs.shape[1:], _F32)
    kernels = _compiled.kernels
    for step in range(runs.shape[0]):
        if kernels is not None:  # (in place, without fused_values' checks: a row at a time)
            kernels.fma_f32(runs[step], factors[step], sums, sums)
        else:
            sums = fused_values(runs[step], factors[step], sums)
    return sums


def statistics(data: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The batch's mean and sum of squared deviations per channel, float32, as torch's
    kernel finds them (None where torch's arithmetic is not followed)."""
    kind = layout(data)
    if kind == "planes":
        mean = (_channel_totals(data, data.shape) / (data.size // data.shape[1])).astype(_F32)
        deviations = data.reshape(*data.shape[:2], -1) - mean[:, None]
        return mean, _channel_totals(deviations * deviations, deviations.shape).astype(_F32)
    if kind != "rows":
        return None
    rows = _as_rows(data)
    count = rows.shape[0]
    if count <= torch_threads():  # (too few rows to share: each channel in double)
        mean = (_in_double(rows) / count).astype(_F32)
        deviations = rows - mean
        return mean, _in_double(deviations * deviations).astype(_F32)
    if -(-count // torch_threads()) > _ROWS_UP_TO:
        return None
    mean = (_in_double(_run_sums(rows)) / count).astype(_F32)
    deviations = rows - mean
    return mean, _in_double(_run_sums(deviations, deviations)).astype(_F32)


def running_update(running: np.ndarray, batch: np.ndarray, momentum: float,
                   batch_in_double: bool) -> np.ndarray:
    """momentum·batch + (1 - momentum)·running as torch's float32 code: the mean's all in
    float32; the variance's first product in double (its batch term is kept in double)."""
    factor = _F32(momentum)
    kept = (_F32(1) - factor) * running
    if not batch_in_double:
        return factor * batch + kept
    return (np.float64(factor) * batch.astype(np.float64) + kept).astype(_F32)


def normalized(data: np.ndarray, mean, invstd, weight, bias) -> np.ndarray:
    """x·alpha + beta with alpha = invstd·w and beta = b - mean·alpha (each fused)."""
    alpha = invstd if weight is None else invstd * weight
    shift = np.zeros_like(alpha) if bias is None else bias
    shape = (1, -1) + (1,) * (data.ndim - 2)
    if not _FUSED:
        beta = shift - mean * alpha
        return data * alpha.reshape(shape) + beta.reshape(shape)
    beta = fused_values(-mean, alpha, shift)
    return fused_values(data, np.broadcast_to(alpha.reshape(shape), data.shape),
                        beta.reshape(shape))


def backward(grad: np.ndarray, data: np.ndarray, weight, mean, invstd, training: bool):
    """(input's, weight's, bias's gradients) as torch's kernel adds them up, or None where
    torch's arithmetic is not followed (the incoming gradient must share the input's
    layout: torch takes its strided path otherwise)."""
    if data.dtype != _F32 or grad.dtype != _F32 or data.size == 0:
        return None
    weight = np.ones_like(invstd) if weight is None else weight
    kind = layout(data)
    if kind is None or layout(grad) != kind or \
            grad.flags.c_contiguous != data.flags.c_contiguous:
        return _serial_backward(grad, data, weight, mean, invstd, training)
    if kind == "planes":
        return _planes_backward(grad, data, weight, mean, invstd, training)
    if -(-grad.size // grad.shape[1] // torch_threads()) > _ROWS_UP_TO:
        return None
    rows, grad_rows = _as_rows(data), _as_rows(grad)
    count = rows.shape[0]
    centered = rows - mean
    total = _in_double(_run_sums(grad_rows)).astype(_F32)
    dot = _in_double(_run_sums(centered, grad_rows)).astype(_F32)
    if training:
        scale = dot * invstd * invstd / _F32(count)
        mean_grad = total / _F32(count)
        plain = (grad_rows - mean_grad - centered * scale) * invstd * weight
        if _FUSED:  # (fused on whole 8-channel vectors, not on the channels after them)
            body = rows.shape[1] - rows.shape[1] % _LANES
            fused = fused_values(-centered[:, :body], np.broadcast_to(scale[:body], (count, body)),
                                 grad_rows[:, :body] - mean_grad[:body])
            plain[:, :body] = fused * invstd[:body] * weight[:body]
        input_grad = plain
    else:
        input_grad = grad_rows * invstd * weight
    shape = (data.shape[0], *data.shape[2:], data.shape[1])
    return np.moveaxis(input_grad.reshape(shape), -1, 1), dot * invstd, total


def _lane_total(lanes: np.ndarray) -> np.ndarray:
    """An 8-lane vector's lanes added up: by halves as torch's AVX2 shuffles, or in order
    in its scalar build."""
    if not _FUSED:
        return np.add.accumulate(lanes, axis=-1)[..., -1]
    lanes = lanes[..., :4] + lanes[..., 4:]
    lanes = lanes[..., :2] + lanes[..., 2:]
    return lanes[..., 0] + lanes[..., 1]


def _vector_sum(values: np.ndarray, fused_with=None) -> np.ndarray:
    """Each plane's float32 sum (last axis) as torch's vector reduce: 8 lanes summed vector
    by vector, a short tail into the first lanes, then the lanes; a plane shorter than a
    vector lane by lane. With ``fused_with``, the sum of values · fused_with, the tail's
    products fused into the lanes (the body's not)."""
    size = values.shape[-1]
    products = values if fused_with is None else values * fused_with
    if size < _LANES:
        return np.add.accumulate(products, axis=-1)[..., -1]
    lanes = products[..., :_LANES].copy()
    body = size - size % _LANES
    for start in range(_LANES, body, _LANES):
        lanes = lanes + products[..., start:start + _LANES]
    if body < size:
        tail = size - body
        if fused_with is not None and _FUSED:
            lanes[..., :tail] = fused_values(values[..., body:], fused_with[..., body:],
                                             lanes[..., :tail])
        else:
            lanes[..., :tail] = lanes[..., :tail] + products[..., body:]
    return _lane_total(lanes)


def _planes_backward(grad, data, weight, mean, invstd, training: bool):
    """The (N, C, H, W...) kernel: each (n, c) plane reduced in vectors, added in double."""
    planes = data.reshape(*data.shape[:2], -1)
    grad_planes = grad.reshape(planes.shape)
    count = planes.shape[0] * planes.shape[2]
    centered = planes - mean[:, None]
    total = _in_double(_vector_sum(grad_planes))
    dot = _in_double(_vector_sum(centered, grad_planes))
    column = (slice(None), None)
    if training:
        scale = (dot.astype(_F32) * invstd * invstd / _F32(count))[column]
        mean_grad = (total / count).astype(_F32)[column]
        if _FUSED:
            kept = fused_values(-centered, np.broadcast_to(scale, centered.shape),
                                grad_planes - mean_grad)
        else:
            kept = grad_planes - mean_grad - centered * scale
        input_grad = kept * invstd[column] * weight[column]
    else:
        input_grad = grad_planes * invstd[column] * weight[column]
    weight_grad = (dot * invstd.astype(np.float64)).astype(_F32)
    return input_grad.reshape(data.shape), weight_grad, total.astype(_F32)


def _channel_totals(values: np.ndarray, shape: tuple) -> np.ndarray:
    """Each channel's elements (broadcast to ``shape``) added one after another in double
    (one copy in double, summed in place)."""
    rows = np.array(np.moveaxis(np.broadcast_to(values, shape), 1, 0), np.float64, order="C")
    rows = rows.reshape(shape[1], -1)
    return np.add.accumulate(rows, axis=1, out=rows)[:, -1].copy()


def _serial_backward(grad, data, weight, mean, invstd, training: bool):
    """torch's path for strided inputs or gradients (a sum's expanded one): each channel's
    sums one element after another in double, the rest in float32, nothing fused."""
    shape = (1, -1) + (1,) * (data.ndim - 2)
    centered = data - mean.reshape(shape)
    total = _channel_totals(grad, data.shape)
    dot = _channel_totals(centered * grad, data.shape)
    if training:
        count = data.size // data.shape[1]
        scale = dot.astype(_F32) * invstd * invstd / _F32(count)
        mean_grad = (total / count).astype(_F32)
        kept = grad - mean_grad.reshape(shape) - centered * scale.reshape(shape)
        input_grad = kept * invstd.reshape(shape) * weight.reshape(shape)
    else:
        input_grad = grad * invstd.reshape(shape) * weight.reshape(shape)
    weight_grad = (dot * invstd.astype(np.float64)).astype(_F32)
    return input_grad, weight_grad, total.astype(_F32)
