"""First derivatives that torch records as one op of its own under create_graph (relu's
ThresholdBackwardBackward0, softplus's SoftplusBackwardBackward0, ...): worked out on arrays,
then left as the value (NumPy kit) or recorded as that op (tensor kit, ``_backward_of``)."""

from __future__ import annotations

import numpy as np


def _values(value):
    """A tensor's array, or the array itself (the NumPy kit's)."""
    return getattr(value, "_data", value)


class GraphBackwards:
    """The kits' methods for those ops (``k`` is the kit, as in the formula texts)."""

    # ruff: noqa: N805

    def recorded_backward(k, op, plain, grad, self, *more, inputs=1):
        """Row ``plain``'s gradient worked out on arrays as its plain backward does (the same
        bits), recorded as torch's one op ``op`` of grad, self and the next ``inputs - 1`` of
        ``more`` (mse_loss's target) under create_graph."""
        from ._formula_numpy import NUMPY_KIT  # (both kits are made of this class)
        from ._rules import RULES  # (the table compiles formulas that call this kit)

        tensors, rest = (self, *more[:inputs - 1]), more[inputs - 1:]
        values = RULES[plain].formulas[0](NUMPY_KIT, _values(grad),
                                          (*(_values(t) for t in tensors), *rest))
        return k._backward_of(op, values, (grad, *tensors), (grad, *tensors, *rest))

    def nll_of(k, grad, chosen, reduction, count):
        """nll_loss_backward's derivative for its grad_output: nll_loss of ``grad`` (each
        row's weighted value at its target, negated; summed, or over the count for the
        mean)."""
        picked = grad * -chosen
        if reduction == "none":
            return k.sum(picked, (1,) if chosen.ndim > 1 else None, False)
        total = k.sum(picked, None, False)
        return total / count if reduction == "mean" else total

    def mse_double(k, grad, value, reduction):
        """mse_loss_backward's derivative for its input: 2 grad (over the count for the
        mean), as torch's mse_loss_double_backward."""
        doubled = k.times(grad, 2)
        return k.divided(doubled, int(np.prod(value.shape))) if reduction == "mean" else doubled

    def loss_grad_output(k, gradient, grad, value, target, reduction, *more):
        """A loss's gradient op's derivative for its grad_output (torch's
        ..._double_backward_grad_output): kit method ``gradient`` on ``grad`` where nothing
        was reduced, else Σ grad times its gradient for a grad_output of 1."""
        gradient = getattr(k, gradient)
        if reduction == "none":
            return gradient(grad, value, target, reduction, *more)
        return k.sum(gradient(1.0, value, target, reduction, *more) * grad, None, False)

    def weighted(k, value, weight):
        """``value`` times a loss's ``weight`` array, where it has one."""
        return value if weight is None else value * weight

    def logits_loss_grad(k, grad, self, target, count, weight, pos_weight):
        """binary_cross_entropy_with_logits's gradient for its input, in torch's order:
        (σ(x) - t) grad, or ((pw t + 1 - t) σ(x) - pw t) grad with a pos_weight; times the
        weight; a mean's divided in place (DivBackward1; a sum's count is 1: not divided)."""
        if pos_weight is None:
            value = grad * (k.sigmoid(self) - target)
        else:
            scaled = target * pos_weight
            value = ((scaled + 1 - target) * k.sigmoid(self) - scaled) * grad
        value = k.weighted(value, weight)
        return k.divided(value, count) if count != 1 else value

    def logits_loss_target_grad(k, grad, self, count, weight, pos_weight):
        """Its gradient for the target: -x grad, or (log σ(-x) - pw log σ(x)) grad."""
        if pos_weight is None:
            value = -grad * self
        else:
            value = (k.log(k.sigmoid(-self)) - k.log(k.sigmoid(self)) * pos_weight) * grad
        return k.weighted(value, weight) / count

    def reduced_like(k, value, grad_output, count):
        """A loss's per-element derivative for its grad_output, summed (over ``count`` for
        the mean) where the loss was reduced to grad_output's one number."""
        if tuple(grad_output.shape) == tuple(value.shape):
            return value
        return k.sum(value, None, False) / count

    def near_loss_double(k, grad, value, target, reduction, width, divisor):
        """smooth_l1's (``divisor`` beta) and huber's (1) gradients' derivative for the
        input: grad where |x - y| < ``width``, else 0, over the count for the mean (the
        difference is flat there: torch's ..._double_backward)."""
        if width == 0:
            return k.zeros_like(grad)
        inside = np.abs(_values(value) - _values(target)) < width
        result = grad * inside.astype(_values(grad).dtype)
        if divisor != 1:
            result = k.divided(result, divisor)
        if reduction == "mean":
            result = k.divided(result, int(np.prod(value.shape)))
        return result

    def tanh_backward(k, grad, result):
        """tanh's gradient from its output: TanhBackwardBackward0 under create_graph."""
        return k.recorded_backward("tanh_backward", "tanh", grad, result)

    def sigmoid_backward(k, grad, result):
        """sigmoid's gradient from its output: SigmoidBackwardBackward0 under create_graph."""
        return k.recorded_backward("sigmoid_backward", "sigmoid", grad, result)

    def threshold_backward(k, grad, self, threshold):
        """relu's gradient as torch's one op (ThresholdBackwardBackward0) under create_graph,
        the values of relu's plain formula."""
        mask = _values(self) > threshold
        return k._backward_of("threshold_backward", np.where(mask, _values(grad), 0), (grad, self),
                              (mask,))

    def leaky_relu_backward(k, grad, self, negative_slope):
        values = np.where(_values(self) > 0, _values(grad), _values(grad) * negative_slope)
        return k._backward_of("leaky_relu_backward", values, (grad, self),
                              (self, negative_slope))
