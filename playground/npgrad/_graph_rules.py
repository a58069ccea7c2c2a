"""The derivative table's rows for what backward formulas record under create_graph=True:
torch's ...BackwardBackward0 nodes, each with its own derivatives (_rules.py adds them)."""

from __future__ import annotations

# softplus's and log_sigmoid's gradients as one op of torch's under create_graph (their
# plain rows' values, recorded as SoftplusBackwardBackward0 and LogSigmoidBackwardBackward0)
SOFTPLUS_BACKWARD = ("k.recorded_backward('softplus_backward', 'softplus', grad, self, beta, "
                     "threshold)")
LOG_SIGMOID_BACKWARD = ("k.recorded_backward('log_sigmoid_backward', 'log_sigmoid', grad, "
                        "self, buffer)")


def graph_rows(row) -> tuple:
    """The rows, made with ``row`` (_rules._row)."""
    return (
        row("select_backward", "SelectBackwardBackward0", "grad_output", "dim index",
            "k.select(grad, dim, index)"),
        row("slice_backward", "SliceBackwardBackward0", "grad_output", "dim start end step",
            "k.slice(grad, dim, start, end, step)"),
        row("unfold_backward", "UnfoldBackwardBackward0", "grad_output", "dim size step",
            "k.unfold(grad, dim, size, step)"),
        row("index_backward", "IndexPutImplBackward0", "grad_output", "indices",
            "k.getitem(grad, indices)"),
        row("diagonal_backward", "DiagonalBackwardBackward0", "grad_output", "offset dim1 dim2",
            "k.diagonal(grad, offset, dim1, dim2)"),
        # (the input is theirs too, with a zero gradient: a gradient through a leaky relu alone
        # still requires grad, as torch's does; relu's is threshold's row, _activation_rules.py)
        row("leaky_relu_backward", "LeakyReluBackwardBackward0", "grad_output self",
            "self negative_slope", "k.leaky_relu_backward(grad, self, negative_slope)",
            "k.zeros_like(grad)"),
        row("softplus_backward", "SoftplusBackwardBackward0", "grad_output self",
            "grad_output self beta threshold", SOFTPLUS_BACKWARD,
            "k.times(k.sigmoid_backward(grad * grad_output, k.sigmoid(k.times(self, beta)))"
            " * (k.times(self, beta) < threshold), beta)"),
        row("log_sigmoid_backward", "LogSigmoidBackwardBackward0", "grad_output self",
            "grad_output self buffer", LOG_SIGMOID_BACKWARD,
            "grad * grad_output * (k.sigmoid(self) - 1) * k.sigmoid(self)"),
        row("tanh_backward", "TanhBackwardBackward0", "grad_output output", "grad_output output",
            "k.tanh_backward(grad, output)", "grad * (k.times(output, -2) * grad_output)"),
        row("sigmoid_backward", "SigmoidBackwardBackward0", "grad_output output",
            "grad_output output", "k.sigmoid_backward(grad, output)",
            "grad * grad_output * k.plus(k.times(output, -2), 1)"),
    )
