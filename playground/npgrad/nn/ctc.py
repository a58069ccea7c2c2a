"""The connectionist temporal classification loss (F.ctc_loss, nn.CTCLoss) as torch's CPU
kernel computes it: the forward variables alpha and backward variables beta over the target
with blanks between its labels, in log space, each step's log-sum-exp in torch's order, and
the gradient of each class at each step from alpha + beta (CtcLossBackward0; torch cannot
differentiate that gradient again)."""

from __future__ import annotations

import math

import numpy as np

from .. import _recording
from .._autocast import full_precision
from .._formula_kit import Kit
from .._tensor import Tensor
from .loss import _Loss

_REDUCTIONS = ("none", "mean", "sum")
_WHERE = "ctc_loss_allocate_outputs"


@full_precision
def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """Each sequence's -log p(target | log_probs), reduced: 'mean' divides each by its target
    length (at least 1) before the batch mean, as torch does."""
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs, targets = log_probs.unsqueeze(1), targets.unsqueeze(0)
    inputs, wanted = _lengths(input_lengths, "input"), _lengths(target_lengths, "target")
    losses = _ctc(log_probs, targets, inputs, wanted, blank, zero_infinity)
    if zero_infinity:
        losses = losses.where(losses != float("inf"), losses.new_zeros(()))
    if unbatched:
        losses = losses.squeeze(0)
    if reduction == "sum":
        return losses.sum()
    if reduction == "mean":
        lengths = Tensor._make(np.maximum(np.asarray(wanted, losses._data.dtype), 1))
        return (losses / lengths.reshape(losses.shape)).mean()
    return losses


def _lengths(lengths, which: str) -> list[int]:
    """Lengths given as a tensor (integral, as torch insists) or a sequence of ints."""
    if isinstance(lengths, Tensor):
        if lengths._data.dtype.kind not in "iu":
            raise RuntimeError(f"{which}_lengths must be integral")
        return [int(length) for length in lengths._data.reshape(-1)]
    return [int(length) for length in lengths]


def _ctc(log_probs: Tensor, targets: Tensor, inputs: list, wanted: list, blank: int,
         zero_infinity: bool) -> Tensor:
    data = log_probs._data
    if data.dtype not in (np.float32, np.float64):
        from .._dtype import scalar_type_name
        raise NotImplementedError('"ctc_loss_cpu" not implemented for '
                                  f"'{scalar_type_name(data.dtype)}'")
    steps, batch, classes = data.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    if len(inputs) != batch:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(wanted) != batch:
        raise RuntimeError("target_lengths must be of size batch_size")
    labels = _labels(targets, wanted, batch)
    for length in inputs:
        if length < 0:
            raise RuntimeError("Expected input_lengths to have value at least 0, but got value "
                               f"{length} (while checking arguments for {_WHERE})")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got "
                               f"value {length} (while checking arguments for {_WHERE})")
    primes = _with_blanks(labels, wanted, blank)
    alpha = _forward_variables(data, primes, inputs)
    losses = _negative_log_likelihoods(alpha, inputs, wanted)
    return _recording.output("ctc_loss", losses, (log_probs,),
                             (log_probs, primes, tuple(inputs), tuple(wanted), blank,
                              zero_infinity, losses, alpha))


def _labels(targets: Tensor, wanted: list, batch: int) -> np.ndarray:
    """The targets as (batch, longest) labels: a padded matrix, or one concatenated row."""
    for length in wanted:
        if length < 0:
            raise RuntimeError("Expected target_lengths to have value at least 0, but got value "
                               f"{length} (while checking arguments for {_WHERE})")
    data = np.asarray(targets._data).astype(np.int64)
    longest = max(wanted, default=0)
    if data.ndim == 1:
        if data.shape[0] < sum(wanted):
            raise RuntimeError(f"Expected tensor to have size {sum(wanted)} at dimension 0, but "
                               f"got size {data.shape[0]} for argument #2 'targets' (while "
                               f"checking arguments for {_WHERE})")
        starts = np.cumsum([0, *wanted[:-1]])
        rows = np.zeros((batch, longest), np.int64)
        for row, (start, length) in enumerate(zip(starts, wanted, strict=True)):
            rows[row, :length] = data[start:start + length]
        return rows
    if data.shape[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, "
                           f"but got size {data.shape[1]} for argument #2 'targets' (while "
                           f"checking arguments for {_WHERE})")
    return data[:, :longest]


def _with_blanks(labels: np.ndarray, wanted: list, blank: int) -> np.ndarray:
    """The extended targets: blank, l1, blank, l2, ..., blank (2 S + 1 states)."""
    primes = np.full((labels.shape[0], 2 * labels.shape[1] + 1), blank, np.int64)
    primes[:, 1::2] = labels
    return primes


def _log_sum_exp(*terms):
    """log(Σ exp(term - top)) + top, the exponentials added left to right as torch's loop adds
    them, with exp and log rounded once from double (as the C library's float ones are)."""
    top = np.maximum.reduce(terms)
    top = np.where(top == -np.inf, 0, top).astype(terms[0].dtype)
    total = _exp(terms[0] - top)
    for term in terms[1:]:
        total = total + _exp(term - top)
    return _log(total) + top


def _exp(values):
    if values.dtype == np.float64:  # the C library's own exp, one element at a time
        return _C_EXP(values).astype(np.float64)
    return np.exp(values.astype(np.float64)).astype(values.dtype)


def _log(values):
    if values.dtype == np.float64:
        return _C_LOG(values).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(values.astype(np.float64)).astype(values.dtype)


# NumPy's vectorised double exp and log differ from the C library's (which torch's scalar
# loops call) in the last bit now and then; Python's math module calls the C library's.
def _c_exp(value: float) -> float:
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


_C_EXP = np.frompyfunc(_c_exp, 1, 1)
_C_LOG = np.frompyfunc(lambda v: math.log(v) if v > 0 else -math.inf if v == 0 else math.nan,
                       1, 1)


def _may_skip(primes: np.ndarray) -> np.ndarray:
    """Whether state s may be reached from s - 2 (a label unlike the one two states back)."""
    skip = np.zeros(primes.shape, bool)
    skip[:, 2:] = primes[:, 2:] != primes[:, :-2]
    return skip


def _forward_variables(data: np.ndarray, primes: np.ndarray, inputs: list) -> np.ndarray:
    """log alpha (time, batch, state): every sequence's states at once, one step at a time."""
    steps, batch = data.shape[:2]
    states = primes.shape[1]
    rows = np.arange(batch)[:, None]
    emitted = data[:, rows, primes]  # (time, batch, state): log p of each state's label
    alpha = np.full((steps, batch, states), -np.inf, data.dtype)
    if steps:
        alpha[0, :, 0] = emitted[0, :, 0]
        if states > 1:
            alpha[0, :, 1] = emitted[0, :, 1]
    skip = _may_skip(primes)
    for t in range(1, steps):
        before = alpha[t - 1]
        one_back = np.concatenate([np.full((batch, 1), -np.inf, data.dtype), before[:, :-1]], 1)
        two_back = np.full(before.shape, -np.inf, data.dtype)
        two_back[:, 2:] = np.where(skip[:, 2:], before[:, :-2], -np.inf)
        alpha[t] = _log_sum_exp(before, one_back, two_back) + emitted[t]
    live = np.asarray(inputs)[None, :, None] > np.arange(steps)[:, None, None]
    return np.where(live, alpha, -np.inf).astype(data.dtype)


def _negative_log_likelihoods(alpha: np.ndarray, inputs: list, wanted: list) -> np.ndarray:
    """-log(alpha[end][last blank] + alpha[end][last label]) for each sequence."""
    dtype = alpha.dtype
    losses = np.empty(len(inputs), dtype)
    for row, (length, target) in enumerate(zip(inputs, wanted, strict=True)):
        if length == 0:  # no steps: only the empty target is possible (-log 1, as -0.0)
            losses[row] = -dtype.type(0 if target == 0 else -np.inf)
            continue
        last = alpha[length - 1, row]
        ending = last[2 * target:2 * target + 1]
        before = last[2 * target - 1:2 * target] if target > 0 else np.full(1, -np.inf, dtype)
        losses[row] = -_log_sum_exp(ending, before)[0]
    return losses


def ctc_grad(k, grad, log_probs, primes, inputs, wanted, blank, zero_infinity, losses, alpha):
    """d loss / d log_probs: exp(lp) - exp(log Σ_s:label(s)=c alpha_s beta_s + nll - lp),
    times the loss's gradient; zero past each input's length (and for infinite losses under
    zero_infinity). Under create_graph torch's NotImplemented node."""
    data = np.asarray(getattr(log_probs, "_data", log_probs))
    flowing = np.asarray(getattr(grad, "_data", grad)).reshape(-1).astype(data.dtype)
    sums = _alpha_beta_sums(data, primes, inputs, wanted, alpha)
    steps = data.shape[0]
    with np.errstate(invalid="ignore", over="ignore"):
        values = (_exp(data) - _exp(sums + losses[None, :, None] - data)) * \
            flowing[None, :, None]
    live = np.asarray(inputs)[None, :, None] > np.arange(steps)[:, None, None]
    values = np.where(live, values, 0).astype(data.dtype)
    if zero_infinity:
        values[:, np.isinf(losses)] = 0
    if isinstance(grad, np.ndarray):
        return values
    return k._backward_of("ctc_loss_backward", values, (grad, log_probs))


def _alpha_beta_sums(data, primes, inputs, wanted, alpha) -> np.ndarray:
    """(time, batch, class): log Σ alpha_t(s) beta_t(s) over the states s labelled c, the
    states added from the last to the first as torch's backward loop adds them (a state
    whose alpha beta is -inf adds nothing: log(1) + top is top exactly)."""
    beta = _backward_variables(data, primes, inputs, wanted)
    both = alpha + beta
    sums = np.full(data.shape, -np.inf, data.dtype)
    steps, batch = data.shape[:2]
    times, rows = np.arange(steps)[:, None], np.arange(batch)[None, :]
    for state in range(primes.shape[1] - 1, -1, -1):
        labels = primes[:, state][None, :]
        current = sums[times, rows, labels]
        value = both[:, :, state]
        top = np.maximum(current, value)
        with np.errstate(invalid="ignore"):
            joined = _log(_exp(current - top) + _exp(value - top)) + top
        sums[times, rows, labels] = np.where(current == -np.inf, value, joined)
    return sums


def _backward_variables(data, primes, inputs, wanted) -> np.ndarray:
    """log beta (time, batch, state), from each sequence's last step back to its first."""
    steps, batch = data.shape[:2]
    states = primes.shape[1]
    rows = np.arange(batch)
    emitted = data[:, rows[:, None], primes]
    beta = np.full((steps, batch, states), -np.inf, data.dtype)
    ends, last_states = np.asarray(inputs) - 1, 2 * np.asarray(wanted)
    ready = ends >= 0
    beta[ends[ready], rows[ready], last_states[ready]] = \
        emitted[ends[ready], rows[ready], last_states[ready]]
    labelled = ready & (last_states > 0)
    beta[ends[labelled], rows[labelled], last_states[labelled] - 1] = \
        emitted[ends[labelled], rows[labelled], last_states[labelled] - 1]
    skip_ahead = np.zeros(primes.shape, bool)
    skip_ahead[:, :-2] = primes[:, :-2] != primes[:, 2:]
    numbers = np.arange(states)[None, :]
    inside = numbers <= last_states[:, None]  # (torch's loop starts at 2 S)
    one_allowed = numbers < last_states[:, None]
    two_allowed = skip_ahead & (numbers < last_states[:, None] - 1)
    for t in range(steps - 2, -1, -1):
        after = beta[t + 1]
        one_on = np.full(after.shape, -np.inf, data.dtype)
        one_on[:, :-1] = after[:, 1:]
        two_on = np.full(after.shape, -np.inf, data.dtype)
        two_on[:, :-2] = after[:, 2:]
        now = _log_sum_exp(after, np.where(one_allowed, one_on, -np.inf),
                           np.where(two_allowed, two_on, -np.inf)) + emitted[t]
        active = inside & (t <= ends - 1)[:, None]
        beta[t] = np.where(active, now, beta[t])  # (a sequence's last step: set above)
    return beta


class CTCLoss(_Loss):
    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths,
                target_lengths) -> Tensor:
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                        self.reduction, self.zero_infinity)


Kit.ctc_grad = ctc_grad

FUNCTIONS = ("ctc_loss",)
MODULES = ("CTCLoss",)
