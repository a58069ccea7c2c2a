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

    def recorded_backward(k, op, plain, grad, self, *more):
        """Row ``plain``'s gradient worked out on arrays as its plain backward does (the same
        bits), recorded as torch's one op ``op`` of (grad, self) under create_graph."""
        from ._formula_numpy import NUMPY_KIT  # (both kits are made of this class)
        from ._rules import RULES  # (the table compiles formulas that call this kit)

        values = RULES[plain].formulas[0](NUMPY_KIT, _values(grad), (_values(self), *more))
        return k._backward_of(op, values, (grad, self), (grad, self, *more))

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
        return k._backward_of("threshold_backward", _values(grad) * mask, (grad, self), (mask,))

    def leaky_relu_backward(k, grad, self, negative_slope):
        values = np.where(_values(self) > 0, _values(grad), _values(grad) * negative_slope)
        return k._backward_of("leaky_relu_backward", values, (grad, self),
                              (self, negative_slope))
