"""Forward-mode tangents of reductions, normalizations, losses and sorting, as torch's jvp
formulas compute them (FunctionsManual's norm_jvp, var_jvp, logsumexp_jvp, layer_norm_jvp,
batch_norm_jvp...): NumPy arrays in, the result's tangent out, in the rule shape of
_forward.py (tangents and primals per input, what the op saved, its result)."""

from __future__ import annotations

import numpy as np

from ._formula_numpy import NUMPY_KIT
from ._summation_order import running_products, running_sums


def _axes(dims, ndim: int) -> tuple:
    """A saved ``dims`` (None: all of them) as a tuple of axes."""
    if dims is None:
        return tuple(range(ndim))
    return tuple(int(d) % max(ndim, 1) for d in ((dims,) if np.ndim(dims) == 0 else dims))


def _sum(value: np.ndarray, axes: tuple | None, keepdim: bool) -> np.ndarray:
    """A sum in torch's order of adding (the engine's own sums'); None: of everything."""
    return NUMPY_KIT.sum(np.asarray(value), axes, keepdim)


def _restored(value: np.ndarray, axes: tuple, keepdim: bool) -> np.ndarray:
    """A reduction's result with its reduced dimensions put back (length 1)."""
    return value if keepdim else np.expand_dims(value, axes)


def norm(tangents, primals, saved, result):
    """linalg_vector_norm's (norm_jvp): 0, 1, 2, ±inf and any other order."""
    (t,), (x,) = tangents[:1], primals[:1]
    _, order, dims, keepdim, _ = saved
    axes = _axes(dims, x.ndim)
    kind = result.dtype.type
    if order == 0:
        return np.zeros_like(result)
    if order == 1:
        return _sum(np.sign(x) * t, axes, keepdim)
    if order == 2:
        total = _sum(x * t, axes, keepdim) / result
        return np.where(result == 0, kind(0), total)
    whole = _restored(result, axes, keepdim)
    if np.isinf(order):  # the tangent at the extremes, shared among them
        mask = np.abs(x) == whole
        shared = _sum(np.sign(x) * t * mask, axes, keepdim)
        return shared / mask.sum(axis=axes, keepdims=keepdim)
    scaled = _sum(np.abs(x) ** kind(order - 2) * x * t, axes, keepdim)
    powered = result ** kind(order - 1)
    return np.where(result == 0, kind(0), scaled / powered)


def var(tangents, primals, saved, result):
    """var_jvp: 2/(n - correction) · Σ t (x - mean)."""
    (t,), (x,) = tangents[:1], primals[:1]
    _, dims, correction, keepdim = saved[:4]
    axes = _axes(dims, x.ndim)
    count = int(np.prod([x.shape[a] for a in axes])) if x.ndim else 1
    kind = result.dtype.type
    centred = x - x.mean(axis=axes, keepdims=True, dtype=x.dtype)
    factor = kind(2.0 / (count - (1 if correction is None else correction)))
    return factor * _sum(t * centred, axes, keepdim)


def std(tangents, primals, saved, result):
    """var_jvp / (2 · std), 0 where std is."""
    kind = result.dtype.type
    spread = var(tangents, primals, saved[:4], result) / (kind(2) * result)
    return np.where(result == 0, kind(0), spread)


def logsumexp(tangents, primals, saved, result):
    """logsumexp_jvp: Σ e^(x - max) t / Σ e^(x - max)."""
    (t,), (x,) = tangents[:1], primals[:1]
    _, dims, keepdim, _ = saved
    axes = _axes(dims, x.ndim)
    shifted = np.exp(x - x.max(axis=axes, keepdims=True)) if x.size else np.exp(x)
    return _sum(shifted * t, axes, keepdim) / _sum(shifted, axes, keepdim)


def picked(tangents, primals, saved, result):
    """max/min over a dim, sort, topk: the tangent at the indices picked."""
    t = tangents[0]
    shape, dim, *rest = saved
    indices = rest[-1]
    keepdim = rest[0] if len(rest) == 2 else True
    dim = int(dim) % max(len(shape), 1)
    if t.ndim == 0:
        return t.copy()
    where = indices if keepdim else np.expand_dims(indices, dim)
    taken = np.take_along_axis(t, where, dim)
    return taken if keepdim else np.squeeze(taken, dim)


def shared_extremes(tangents, primals, saved, result):
    """amax, amin (amaxamin_jvp), and max, min of all: the tangent where the extreme is,
    averaged over the elements that reach it."""
    (t,), (x,) = tangents[:1], primals[:1]
    if len(saved) == 2:  # max(), min()
        mask = x == result
        return _sum(np.where(mask, t, 0), None, False) / mask.sum()
    _, dims, keepdim, _ = saved
    axes = _axes(dims, x.ndim)
    mask = x == _restored(result, axes, keepdim)
    return _sum(np.where(mask, t, 0), axes, keepdim) / mask.sum(axis=axes, keepdims=keepdim)


def mse_loss(tangents, primals, saved, result):
    """mse_loss_jvp: 2 (x - y)(x_t - y_t), reduced."""
    (x_t, y_t), (x, y) = tangents[:2], primals[:2]
    reduction = saved[2]
    difference = x_t if y_t is None else (x_t - y_t if x_t is not None else -y_t)
    losses = 2 * (x - y) * difference
    return _reduce(losses, reduction, result)


def nll_loss(tangents, primals, saved, result):
    """nll_loss of the tangent (the loss is linear in its input)."""
    t = tangents[0]
    _, chosen, reduction, count = saved
    if reduction == "none":
        return -_sum(t * chosen, (t.ndim - 1 if t.ndim == 1 else 1,), False)
    total = -_sum(t * chosen, None, False)
    return total / result.dtype.type(count) if reduction == "mean" else total


def _reduce(losses: np.ndarray, reduction: str, result: np.ndarray) -> np.ndarray:
    if reduction == "mean":
        return _sum(losses, None, False) / result.dtype.type(losses.size)
    return _sum(losses, None, False) if reduction == "sum" else losses


def product(tangents, primals, saved, result):
    """prod and prod over a dim: Σ t · (the product of the other elements)."""
    (t,), (x,) = tangents[:1], primals[:1]
    dim, keepdim = (None, False) if len(saved) == 2 else saved[1:3]
    dim = None if dim is None else int(dim) % max(x.ndim, 1)
    others = _others_product(x, result, dim, keepdim)
    axes = _axes(dim, x.ndim)
    return _sum(others * t, axes, keepdim).astype(result.dtype, copy=False)


def _others_product(x: np.ndarray, product: np.ndarray, dim, keepdim: bool) -> np.ndarray:
    """Each element's product of the other elements along ``dim`` (None: all), zeros
    allowed: torch's prod_backward with a gradient of ones, as its jvp calls it."""
    return NUMPY_KIT.prod_grad(np.ones_like(product), x, product, dim, keepdim)


def cumprod(tangents, primals, saved, result):
    """torch's cumprod_jvp: cumsum(t / x) · result, and from each row's first zero on, the
    running product of the elements with that zero's tangent in its place."""
    (t,), (x,) = tangents[:1], primals[:1]
    dim = int(saved[1]) % max(x.ndim, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        general = running_sums(t / x, dim) * result
    zeros = x == 0
    if x.ndim == 0:
        return np.where(zeros, t, general)
    if not zeros.any():
        return general
    first_zero = zeros & (np.cumsum(zeros, axis=dim) == 1)
    after_zero = np.cumsum(first_zero, axis=dim) > 0
    return np.where(after_zero, running_products(np.where(first_zero, t, x), dim), general)


def layer_norm(tangents, primals, saved, result):
    """layer_norm_jvp over the normalized dims."""
    x_t, weight_t, bias_t = (list(tangents) + [None, None])[:3]
    x, weight = primals[0], primals[1] if len(primals) > 1 else None
    _, mean, rstd, _, dims, _ = saved
    return _normalized_tangent(x, x_t, mean, rstd, tuple(dims), weight, weight_t, bias_t,
                               lambda value: value, result)


def batch_norm(tangents, primals, saved, result):
    """batch_norm_jvp: per channel (dim 1), over the batch statistics while training, the
    running ones in eval."""
    x_t, weight_t, bias_t = (list(tangents) + [None, None])[:3]
    x, weight = primals[0], primals[1] if len(primals) > 1 else None
    _, mean, _, invstd, training, _ = saved
    shape = (1, -1) + (1,) * (x.ndim - 2)

    def per_channel(value):
        return None if value is None else value.reshape(shape)

    if not training:
        if x_t is None:
            x_t = np.zeros_like(x)
        mean, invstd = per_channel(mean), per_channel(invstd)
        total = x_t * invstd
        return _affine_tangent(total, x, mean, invstd, per_channel(weight),
                               per_channel(weight_t), per_channel(bias_t))
    dims = (0, *range(2, x.ndim))
    return _normalized_tangent(x, x_t, per_channel(mean), per_channel(invstd), dims,
                               weight, weight_t, bias_t, per_channel, result)


def _normalized_tangent(x, x_t, mean, invstd, dims, weight, weight_t, bias_t, per_channel,
                        result):
    """(x_t - mean(x_t)) invstd + (x - mean) invstd_t, with invstd_t = -invstd³ ·
    Σ (x_t - mean(x_t))(x - mean) / n, then weight and bias's terms."""
    if x_t is None:
        x_t = np.zeros_like(x)
    count = int(np.prod([x.shape[d] for d in dims]))
    centred_t = x_t - x_t.mean(axis=dims, keepdims=True, dtype=result.dtype)
    invstd_t = -invstd ** 3 * _sum(centred_t * (x - mean), dims, True) / \
        result.dtype.type(count)
    total = centred_t * invstd + (x - mean) * invstd_t
    return _affine_tangent(total, x, mean, invstd, per_channel(weight),
                           per_channel(weight_t), per_channel(bias_t))


def _affine_tangent(total, x, mean, invstd, weight, weight_t, bias_t):
    if weight is not None:
        total = total * weight
        if weight_t is not None:
            total = total + weight_t * (x - mean) * invstd
    if bias_t is not None:
        total = total + bias_t
    return total


RULES = {"norm": norm, "var": var, "std": std, "logsumexp": logsumexp, "max_dim": picked,
         "min_dim": picked, "sort": picked, "topk": picked, "amax": shared_extremes,
         "amin": shared_extremes, "max": shared_extremes, "min": shared_extremes,
         "mse_loss": mse_loss, "nll_loss": nll_loss, "prod": product, "prod_dim": product,
         "cumprod": cumprod, "layer_norm": layer_norm, "batch_norm": batch_norm}
