"""``torch.optim.LBFGS``: limited-memory BFGS over all parameters as one flat vector, with
torch's stopping tests and its optional strong-Wolfe line search; each step runs the closure
as many times as it needs. The arithmetic is torch's, tensor op by tensor op (its dot products,
sums and in-place adds), so a run takes the same steps and prints the same losses."""

from __future__ import annotations

from .._grad_mode import enable_grad, no_grad
from .._tensor import Tensor
from . import Optimizer  # (optim/__init__ imports this module after defining it)


def _cat(pieces: list[Tensor]) -> Tensor:
    from .._shapes import cat  # (loaded with the engine)

    return cat(pieces, 0)


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """Where the cubic through (x1, f1, g1) and (x2, f2, g2) is least, kept inside the
    bounds (the two points when none are given); their middle when it has no minimum."""
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            least = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            least = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(least, low), high)
    return (low + high) / 2.0


class _Bracket:
    """The line search's interval: steps, losses, gradients and slopes at its two ends."""

    def __init__(self, steps: list, losses: list, grads: list, slopes: list) -> None:
        self.steps, self.losses, self.grads, self.slopes = steps, losses, grads, slopes

    def ends(self) -> tuple[int, int]:
        """(the end with the lower loss, the other)."""
        return (0, 1) if self.losses[0] <= self.losses[-1] else (1, 0)

    def put(self, end: int, step, loss, grad, slope) -> None:
        self.steps[end], self.losses[end], self.grads[end], self.slopes[end] = \
            step, loss, grad, slope


def _strong_wolfe(evaluate, x, t, d, loss, grad, slope, c1=1e-4, c2=0.9,
                  tolerance_change=1e-9, max_ls=25):
    """A step t along d meeting the strong Wolfe conditions (sufficient decrease, small
    slope): grow the step until a bracket holds one, then zoom in by cubic interpolation.
    Returns (loss, gradient, t, evaluations)."""
    d_norm = d.abs().max()
    grad = grad.clone()
    new_loss, new_grad = evaluate(x, t, d)
    evaluations, tries = 1, 0
    new_slope = new_grad.dot(d)
    t_prev, loss_prev, grad_prev, slope_prev = 0, loss, grad, slope
    bracket, done = None, False
    while tries < max_ls:
        if new_loss > (loss + c1 * t * slope) or (tries > 1 and new_loss >= loss_prev):
            bracket = _Bracket([t_prev, t], [loss_prev, new_loss],
                               [grad_prev, new_grad.clone()], [slope_prev, new_slope])
            break
        if abs(new_slope) <= -c2 * slope:
            bracket, done = _Bracket([t], [new_loss], [new_grad], [new_slope]), True
            break
        if new_slope >= 0:  # past the minimum: it lies between the last two steps
            bracket = _Bracket([t_prev, t], [loss_prev, new_loss],
                               [grad_prev, new_grad.clone()], [slope_prev, new_slope])
            break
        shortest, longest = t + 0.01 * (t - t_prev), t * 10
        before = t
        t = _cubic_minimum(t_prev, loss_prev, slope_prev, t, new_loss, new_slope,
                           bounds=(shortest, longest))
        t_prev, loss_prev, grad_prev, slope_prev = before, new_loss, new_grad.clone(), new_slope
        new_loss, new_grad = evaluate(x, t, d)
        evaluations += 1
        new_slope = new_grad.dot(d)
        tries += 1
    if tries == max_ls:
        bracket = _Bracket([0, t], [loss, new_loss], [grad, new_grad], [None, None])
    low, evaluations = _zoom(evaluate, x, d, loss, slope, bracket, done, tries, evaluations,
                             d_norm, (c1, c2, tolerance_change, max_ls))
    return bracket.losses[low], bracket.grads[low], bracket.steps[low], evaluations


def _zoom(evaluate, x, d, loss, slope, bracket: _Bracket, done: bool, tries: int,
          evaluations: int, d_norm, constants: tuple):
    """Narrow the bracket until a step in it meets the conditions (or it is too narrow)."""
    c1, c2, tolerance_change, max_ls = constants
    stuck = False
    low, high = bracket.ends()
    steps = bracket.steps
    while not done and tries < max_ls:
        if abs(steps[1] - steps[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(steps[0], bracket.losses[0], bracket.slopes[0],
                           steps[1], bracket.losses[1], bracket.slopes[1])
        margin = 0.1 * (max(steps) - min(steps))
        if min(max(steps) - t, t - min(steps)) < margin:  # too near an end: move off it
            if stuck or t >= max(steps) or t <= min(steps):
                t = max(steps) - margin if abs(t - max(steps)) < abs(t - min(steps)) else \
                    min(steps) + margin
                stuck = False
            else:
                stuck = True
        else:
            stuck = False
        new_loss, new_grad = evaluate(x, t, d)
        evaluations += 1
        new_slope = new_grad.dot(d)
        tries += 1
        if new_loss > (loss + c1 * t * slope) or new_loss >= bracket.losses[low]:
            bracket.put(high, t, new_loss, new_grad.clone(), new_slope)
            low, high = bracket.ends()
        else:
            if abs(new_slope) <= -c2 * slope:
                done = True
            elif new_slope * (steps[high] - steps[low]) >= 0:
                bracket.put(high, steps[low], bracket.losses[low], bracket.grads[low],
                            bracket.slopes[low])
            bracket.put(low, t, new_loss, new_grad.clone(), new_slope)
    return low, evaluations


class LBFGS(Optimizer):
    """Quasi-Newton steps from the last ``history_size`` gradient differences."""

    def __init__(self, params, lr: float = 1, max_iter: int = 20, max_eval=None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9,
                 history_size: int = 100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, {
            "lr": lr, "max_iter": max_iter, "max_eval": max_eval,
            "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
            "history_size": history_size, "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter "
                             "groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self) -> Tensor:
        return _cat([p.grad.reshape(-1) if p.grad is not None else
                     p.new_zeros(p.numel()) for p in self._params])

    def _add_to_params(self, step, direction: Tensor) -> None:
        offset = 0
        for p in self._params:
            count = p.numel()
            p.add_(direction[offset:offset + count].view_as(p), alpha=float(step))
            offset += count

    def _evaluate_along(self, closure, start: list, t, d) -> tuple:
        """The loss and flat gradient at start + t * d; the parameters put back."""
        self._add_to_params(t, d)
        loss = float(closure())
        grad = self._flat_grad()
        for p, value in zip(self._params, start, strict=True):
            p.copy_(value)
        return loss, grad

    def step(self, closure):
        with no_grad():
            return self._step(enable_grad()(closure))

    def _step(self, closure):
        group = self.param_groups[0]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        first_loss = closure()
        loss = float(first_loss)
        evaluations = 1
        state["func_evals"] += 1
        grad = self._flat_grad()
        if grad.abs().max() <= group["tolerance_grad"]:
            return first_loss
        memory = _Memory(state, group["history_size"])
        for iteration in range(1, group["max_iter"] + 1):
            state["n_iter"] += 1
            memory.direction(grad, state["n_iter"] == 1)
            memory.keep_gradient(grad, loss)
            loss, grad, used, stop = self._line_step(closure, group, memory, grad, loss,
                                                     iteration, state["n_iter"] == 1)
            if used is None:  # no descent left along the direction
                break
            evaluations += used
            state["func_evals"] += used
            if iteration == group["max_iter"] or evaluations >= group["max_eval"] or \
                    stop or memory.d.mul(memory.t).abs().max() <= group["tolerance_change"] \
                    or abs(loss - memory.prev_loss) < group["tolerance_change"]:
                break
        memory.store(state)
        return first_loss

    def _line_step(self, closure, group, memory, grad, loss, iteration, first):
        """Step along the direction (by lr, or by a strong-Wolfe search): the new loss
        and gradient, the closure's calls (None: no descent) and the gradient test."""
        lr = group["lr"]
        memory.t = min(1.0, 1.0 / grad.abs().sum()) * lr if first else lr
        slope = grad.dot(memory.d)
        if slope > -group["tolerance_change"]:
            return loss, grad, None, True
        used = 0
        if group["line_search_fn"] is not None:
            if group["line_search_fn"] != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            start = [p.clone() for p in self._params]
            loss, grad, memory.t, used = _strong_wolfe(
                lambda x, t, d: self._evaluate_along(closure, x, t, d), start, memory.t,
                memory.d, loss, grad, slope)
            self._add_to_params(memory.t, memory.d)
            return loss, grad, used, bool(grad.abs().max() <= group["tolerance_grad"])
        self._add_to_params(memory.t, memory.d)
        stop = False
        if iteration != group["max_iter"]:
            with enable_grad():
                loss = closure()
            loss = float(loss)  # (outside grad mode: float() of a loss there warns, as torch's)
            grad = self._flat_grad()
            stop = bool(grad.abs().max() <= group["tolerance_grad"])
            used = 1
        return loss, grad, used, stop


class _Memory:
    """What LBFGS keeps between steps (in its state, under torch's names): the direction d
    and step t, the last gradient differences and steps, the diagonal guess H_diag."""

    def __init__(self, state: dict, history_size: int) -> None:
        self.history_size = history_size
        self.d, self.t = state.get("d"), state.get("t")
        self.old_dirs, self.old_stps = state.get("old_dirs"), state.get("old_stps")
        self.ro, self.H_diag = state.get("ro"), state.get("H_diag")
        self.prev_flat_grad, self.prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
        self.al = state.get("al")
        self._state = state

    def direction(self, grad: Tensor, first: bool) -> None:
        """The quasi-Newton direction: -grad at first, then the two-loop recursion."""
        if first:
            self.d = grad.neg()
            self.old_dirs, self.old_stps, self.ro, self.H_diag = [], [], [], 1
            return
        y = grad.sub(self.prev_flat_grad)
        s = self.d.mul(self.t)
        ys = y.dot(s)
        if ys > 1e-10:  # keep the pair only where the curvature is positive
            if len(self.old_dirs) == self.history_size:
                self.old_dirs.pop(0)
                self.old_stps.pop(0)
                self.ro.pop(0)
            self.old_dirs.append(y)
            self.old_stps.append(s)
            self.ro.append(1.0 / ys)
            self.H_diag = ys / y.dot(y)
        if self.al is None:
            self.al = self._state["al"] = [None] * self.history_size
        q = grad.neg()
        for i in range(len(self.old_dirs) - 1, -1, -1):
            self.al[i] = self.old_stps[i].dot(q) * self.ro[i]
            q.add_(self.old_dirs[i], alpha=float(-self.al[i]))
        self.d = r = q.mul(self.H_diag)
        for i in range(len(self.old_dirs)):
            be_i = self.old_dirs[i].dot(r) * self.ro[i]
            r.add_(self.old_stps[i], alpha=float(self.al[i] - be_i))

    def keep_gradient(self, grad: Tensor, loss: float) -> None:
        if self.prev_flat_grad is None:
            self.prev_flat_grad = grad.clone()
        else:
            self.prev_flat_grad.copy_(grad)
        self.prev_loss = loss

    def store(self, state: dict) -> None:
        state.update({"d": self.d, "t": self.t, "old_dirs": self.old_dirs,
                      "old_stps": self.old_stps, "ro": self.ro, "H_diag": self.H_diag,
                      "prev_flat_grad": self.prev_flat_grad, "prev_loss": self.prev_loss})
