"""Classification losses: F.nll_loss and F.cross_entropy (log_softmax, then nll_loss) with
class weights, ignored targets, label smoothing and K-dimensional inputs (N, C, d1, ...),
recorded as torch records them (NllLossBackward0, NllLoss2DBackward0 and the views around)."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._arithmetic import mul_scalar
from .._autocast import full_precision
from .._complex_refusals import refused_for_complex
from .._formula_kit import _zero_elsewhere
from .._reductions import log_softmax
from .._selection import type_name
from .._tensor import Tensor
from .functional import _reduced


def _check_targets(input: Tensor, target: Tensor) -> None:
    """torch's nll_loss_nd checks, in its order: a batch of targets for the batch of inputs,
    class indices as int64 (or uint8), one per sample for a batch of rows."""
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim != 1 and (target.ndim == 0 or target.shape[0] != input.shape[0]):
        got = target.shape[0] if target.ndim else 1
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({got}).")
    if input.ndim <= 2 and target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{type_name(target._data.dtype)}")


@full_precision
def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of each target class (``input`` holds log-probabilities),
    each weighted by its class's weight; a mean divides by the weights of the kept targets."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check_targets(input, target)
    if input.ndim == 3 or input.ndim > 4:  # torch's: as an image of one row, viewed back
        samples, classes = input.shape[0], input.shape[1]
        loss = nll_loss(input.contiguous().view(samples, classes, 1, -1),
                        target.contiguous().view(samples, 1, -1), weight, None, ignore_index,
                        None, reduction)
        return loss.view(*target.shape) if reduction == "none" else loss
    values = input._data
    if values.ndim == 2 and weight is None and reduction != "none":
        plain = _plain_rows(values, target._data, ignore_index, reduction)
        if plain is not None:
            data, chosen, count = plain
            return _recording.output("nll_loss", data, (input,), (input, chosen, reduction,
                                                                   count))
    classes = np.asarray(target._data if isinstance(target, Tensor) else target)
    image = values.ndim == 4
    rows = np.moveaxis(values, 1, -1).reshape(-1, values.shape[1]) if image else \
        (values if values.ndim == 2 else values[None])
    labels = classes.reshape(-1)
    kept = labels != ignore_index
    outside = kept & ((labels < 0) | (labels >= rows.shape[1]))
    if outside.any():  # (torch's kernel checks the targets in order: the first it meets)
        raise IndexError(f"Target {int(labels[outside][0])} is out of bounds.")
    scale = np.ones(rows.shape[1], values.dtype) if weight is None else weight._data
    chosen = np.zeros_like(rows)  # each row's weight at its target class, 0 elsewhere
    chosen[np.flatnonzero(kept), labels[kept]] = scale[labels[kept]]
    gathered = rows[np.flatnonzero(kept), labels[kept]]  # (not a masked sum: -inf elsewhere)
    picked = np.zeros(labels.shape, values.dtype)
    picked[kept] = -(gathered * scale[labels[kept]] if weight is not None else gathered)
    total = chosen.sum() if weight is not None else int(kept.sum())
    shape = (classes.shape if image else (() if values.ndim == 1 else (rows.shape[0],)))
    if reduction == "none":
        data, count = _reduced(picked.reshape(shape), reduction, values.dtype, total)
    else:  # torch's nll_loss kernels add the rows (positions) in a cascade of their own
        data, count = _cascade_reduced(picked, kept, None if weight is None else
                                       scale[np.where(kept, labels, 0)], reduction)
    if image:
        chosen = np.moveaxis(chosen.reshape(*classes.shape, values.shape[1]), -1, 1)
    elif values.ndim == 1:
        chosen = chosen[0]
    if image:
        return _recording.output("nll_loss2d", data, (input,), (chosen, reduction, count))
    # (the input is saved as torch saves it: its gradient's own node takes it as an input)
    return _recording.output("nll_loss", data, (input,), (input, chosen, reduction, count))


def _plain_rows(values: np.ndarray, labels: np.ndarray, ignore_index: int, reduction: str):
    """nll_loss of a batch of rows, reduced, without class weights: (loss, each row's weight
    at its class, the count), as the general code below gives them, in a third of its time
    (a training loop's every step); None where a target is ignored or out of range (the
    general code words the error)."""
    if labels.ndim != 1 or not labels.size or labels.min() < 0 or \
            labels.max() >= values.shape[1]:
        return None
    if 0 <= ignore_index < values.shape[1] and (labels == ignore_index).any():
        return None  # (a negative one, as the default -100, is no class: none is ignored)
    rows = np.arange(labels.size)
    chosen = np.zeros_like(values)
    chosen[rows, labels] = 1
    data, count = _cascade_reduced(-values[rows, labels], None, None, reduction)
    return data, chosen, count


def _cascade_reduced(losses: np.ndarray, kept: np.ndarray | None, weights, reduction: str):
    """nll_loss's sum or mean of rows as torch's kernel adds them: row after row into a
    running total that is passed up a level every 2^p rows (p = max(4, ceil(log2 n) / 8)),
    as a cascade of 8 levels, then the levels added from the lowest; the weights alike.
    (``kept`` None: every row.)"""
    kind = losses.dtype.type
    if kept is None or kept.all():
        total = _cascade(losses, kind)
        weight = kind(losses.size) if weights is None else _cascade(weights, kind)
    else:
        total, weight = _cascade_skipping(losses, kept, weights, kind)
    if reduction == "sum":
        return np.asarray(total, losses.dtype), 1
    return np.asarray(kind(total) / kind(weight), losses.dtype), weight


_LEVELS = 8  # of torch's cascade


def _power(size: int) -> int:
    """p: a level gathers 2^p rows before it passes them up."""
    ceil_log2 = (size - 1).bit_length() if size > 1 else 0
    return max(4, ceil_log2 // _LEVELS)


def _cascade(values: np.ndarray, kind) -> float:
    """The cascade's total of every value: at each level, the first value alone, then runs
    of ``step`` values, each run added in order and passed up; what is left stays."""
    step = 1 << _power(values.size)
    if values.size <= step:  # (a small batch) no run fills up: what the levels below come to
        return _unleveled(values.tolist(), kind)
    left_over = []
    for _ in range(_LEVELS - 1):
        runs = (values.size - 1) // step if values.size else 0
        passed = values[:1]
        if runs:
            chunks = values[1:1 + runs * step].reshape(runs, step)
            passed = np.concatenate([passed, np.cumsum(chunks, axis=1, dtype=kind)[:, -1]])
        rest = values[1 + runs * step:]
        left_over.append(np.cumsum(rest, dtype=kind)[-1] if rest.size else kind(0))
        values = passed.astype(kind)
    left_over.append(np.cumsum(values, dtype=kind)[-1] if values.size else kind(0))
    total = kind(0)
    for part in left_over:
        total = kind(total + part)
    return total


def _unleveled(values: list, kind):
    """_cascade of at most one run's values: the rows after the first added in order into
    the lowest level, the levels above it zeros, and the first row, passed up alone, last."""
    if not values:
        return kind(0)
    rest = kind(0)
    for value in values[1:]:
        rest = kind(rest + value)
    return kind(kind(kind(0) + rest) + values[0])


def _cascade_skipping(losses, kept, weights, kind):
    """The cascade one row at a time, ignored rows skipped (their turn to pass up too)."""
    power = _power(losses.size)
    sums, weight_sums = [kind(0)] * _LEVELS, [kind(0)] * _LEVELS
    for row in np.flatnonzero(kept):
        sums[0] = kind(sums[0] + losses[row])
        weight_sums[0] = kind(weight_sums[0] + (weights[row] if weights is not None else 0))
        for level in range(_LEVELS - 1):
            if row & (((1 << power) - 1) << (level * power)):
                break
            sums[level + 1] = kind(sums[level + 1] + sums[level])
            weight_sums[level + 1] = kind(weight_sums[level + 1] + weight_sums[level])
            sums[level] = weight_sums[level] = kind(0)
    total = weight = kind(0)
    for part, weight_part in zip(sums, weight_sums, strict=True):
        total, weight = kind(total + part), kind(weight + weight_part)
    return total, (kind(int(kept.sum())) if weights is None else weight)


def nll2d_grad(k, grad, chosen, reduction, count):
    """NllLoss2DBackward0: -grad times each position's target weight, over the count for a
    mean (a 'none' gradient has no class dimension: it gains one)."""
    if reduction == "none":
        grad = k.unsqueeze(grad, 1)
    if reduction == "mean":  # (torch's kernel divides first, as nll_grad's)
        grad = grad / chosen.dtype.type(count)
    return _zero_elsewhere(grad * -chosen, chosen)


@refused_for_complex("cross_entropy")
@full_precision
def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the classes, then nll_loss: the two nodes torch records; with label
    smoothing, mixed with the mean of all classes' -log p as torch's kernel mixes them."""
    if isinstance(target, Tensor) and target.shape == input.shape:  # class probabilities
        if not target.dtype.is_floating_point:
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {type_name(target._data.dtype)}")
        from .more_losses import cross_entropy_of_probabilities

        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return cross_entropy_of_probabilities(input, target, weight, reduction, label_smoothing)
    classes = 1 if input.ndim >= 2 else 0
    log_probs = log_softmax(input, classes)
    loss = nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)
    if not label_smoothing:
        return loss
    ignored = target == ignore_index
    if weight is not None:  # each class's -log p by its weight
        shape = [1] * log_probs.ndim
        shape[classes] = weight.shape[0]
        smooth = (-(log_probs * weight.view(*shape)).sum(classes)).masked_fill_(ignored, 0.0)
    else:
        smooth = (-log_probs.sum(classes)).masked_fill_(ignored, 0.0)
    if reduction == "mean" and weight is not None:  # over the kept targets' weights
        smooth = smooth.sum() / weight.gather(0, target.masked_select(~ignored).flatten()).sum()
    elif reduction == "mean":
        smooth = smooth.sum() / (~ignored).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return mul_scalar(loss, 1 - label_smoothing) + mul_scalar(
        smooth, label_smoothing / input.shape[classes])


def _register() -> None:
    from .._formula_kit import Kit

    Kit.nll2d_grad = nll2d_grad


_register()
