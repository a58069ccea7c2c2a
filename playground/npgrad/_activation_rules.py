"""The derivative table's rows for the activations of nn/more_activations.py (the table's
``_row`` and its ELEMENT_WISE mark are passed in: _rules.py adds these to its own)."""

from __future__ import annotations

# torch's elu_backward for an input x: grad·scale where x > 0, else
# grad·input_scale·negcoef·exp(x·input_scale) with negcoef = alpha·scale in the input's type
# (selu and celu are elus with those set); under create_graph EluBackwardBackward0
_ELU = "k.scaled_elu_grad(grad, self, negcoef, scale, input_scale)"


def activation_rows(row, element_wise) -> tuple:
    return (
        row("hardtanh", "HardtanhBackward0", "self", "self min_val max_val",
            "k.masked_grad('hardtanh_backward', grad, self, "
            "(self > min_val) & (self < max_val))", forward=element_wise),
        row("scaled_elu", "EluBackward0", "self", "self negcoef scale input_scale", _ELU,
            forward=element_wise),
        row("celu", "CeluBackward0", "self", "self negcoef scale input_scale", _ELU,
            forward=element_wise),
        # the in-place variants (selu_, celu_, elu_): torch's nodes from the result
        row("scaled_elu_", "EluBackward1", "self", "result negcoef scale input_scale",
            "k.scaled_elu_result_grad(grad, result, negcoef, scale, input_scale)"),
        row("celu_", "CeluBackward1", "self", "result negcoef scale input_scale",
            "k.scaled_elu_result_grad(grad, result, negcoef, scale, input_scale)"),
        row("scaled_elu_backward", "EluBackwardBackward0", "grad_output self",
            "grad_output self negcoef scale input_scale",
            "k.scaled_elu_grad(grad, self, negcoef, scale, input_scale)",
            "k.where(self > 0, 0, grad * grad_output * input_scale * negcoef * input_scale"
            " * k.exp(self * input_scale))"),
        row("prelu", "PreluKernelBackward0", "self weight", "self weight",
            "k.prelu_grad(grad, self, weight, True)", "k.prelu_grad(grad, self, weight, False)"),
        # (torch's one node for both of prelu's gradients is two here, one per gradient)
        row("prelu_input_backward", "PreluKernelBackwardBackward0", "grad_output self weight",
            "grad_output self weight", "k.where(self > 0, grad, weight * grad)",
            "k._zeros(grad, self.shape)", "k.where(self > 0, 0, grad_output * grad)"),
        row("prelu_weight_backward", "PreluKernelBackwardBackward0", "grad_output self",
            "grad_output self", "k.where(self > 0, 0, self * grad)",
            "k.where(self > 0, 0, grad_output * grad)"),
        row("mish", "MishBackward0", "self", "self",
            "grad * (k.tanh(k.log1p(k.exp(self))) + self * k.sigmoid(self) * "
            "(1 - k.tanh(k.log1p(k.exp(self))) ** 2))", forward=element_wise),
        row("hardswish", "HardswishBackward0", "self", "self", "k.hardswish_grad(grad, self)",
            forward=element_wise),
        row("hardswish_backward", "HardswishBackwardBackward0", "grad_output self",
            "grad_output self", "k.hardswish_grad(grad, self)",
            "k.where((self > -3) & (self < 3), grad * grad_output / 3, 0)"),
        row("hardsigmoid", "HardsigmoidBackward0", "self", "self",
            "k.hardsigmoid_grad(grad, self)", forward=element_wise),
        row("hardsigmoid_backward", "NotImplemented", "grad_output self", "",
            "k.not_implemented('aten::hardsigmoid_backward')",
            "k.not_implemented('aten::hardsigmoid_backward')"),
        row("glu", "GluBackward0", "self", "self dim", "k.glu_grad(grad, self, dim)"),
        # a leaky ReLU of random slopes (nn/noisy.py); in place, from its result
        row("rrelu_with_noise", "RreluWithNoiseBackward0", "self",
            "self noise lower upper training",
            "k.rrelu_grad(grad, self, noise, lower, upper, training)"),
        row("rrelu_with_noise_", "RreluWithNoiseBackward1", "self",
            "result noise lower upper training",
            "k.rrelu_grad(grad, result, noise, lower, upper, training)"),
        row("rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0", "grad_output self",
            "self noise lower upper training",
            "k.rrelu_grad(grad, self, noise, lower, upper, training)",
            "k._zeros(grad, grad.shape)"),
        row("glu_backward", "GluBackwardBackward0", "grad_output self", "grad_output self dim",
            "k.glu_double_grad_output(grad, self, dim)",
            "k.glu_double(grad, grad_output, self, dim)"),
        row("threshold", "ThresholdBackward0", "self", "self threshold",
            "k.masked_grad('threshold_backward', grad, self, self > threshold)",
            forward=element_wise),
        row("leaky_relu_", "LeakyReluBackward1", "self", "result negative_slope",
            "k.where(result > 0, grad, grad * negative_slope)"),
        row("threshold_", "ThresholdBackward1", "self", "result threshold",
            "k.where(result > threshold, grad, 0)"),  # (torch's mask from the result)
        row("softshrink", "SoftshrinkBackward0", "self", "self lambd",
            "k.masked_grad('softshrink_backward', grad, self, (self > lambd) | (self < -lambd))",
            forward=element_wise),
        row("hardshrink", "HardshrinkBackward0", "self", "self lambd",
            "k.masked_grad('hardshrink_backward', grad, self, "
            "(self < -lambd) | (self > lambd))", forward=element_wise),
        # what a create_graph backward records for the masks above: torch's nodes, linear in
        # the incoming gradient, constant in the input
        *(row(f"{name}_backward", f"{node}BackwardBackward0", "grad_output self", "mask",
              "k.where(mask, grad, 0)", "k._zeros(grad, grad.shape)")
          for name, node in (("hardtanh", "Hardtanh"), ("threshold", "Threshold"),
                             ("softshrink", "Softshrink"), ("hardshrink", "Hardshrink"))),
    )
