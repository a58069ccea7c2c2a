"""The derivative table's rows for what backward formulas record under create_graph=True:
torch's ...BackwardBackward0 nodes, each with its own derivatives (_rules.py adds them)."""

from __future__ import annotations

# softplus's and log_sigmoid's gradients as one op of torch's under create_graph (their
# plain rows' values, recorded as SoftplusBackwardBackward0 and LogSigmoidBackwardBackward0)
SOFTPLUS_BACKWARD = ("k.recorded_backward('softplus_backward', 'softplus', grad, self, beta, "
                     "threshold)")
LOG_SIGMOID_BACKWARD = ("k.recorded_backward('log_sigmoid_backward', 'log_sigmoid', grad, "
                        "self, buffer)")

# softmax's and log_softmax's gradients as torch's _softmax_backward_data and
# _log_softmax_backward_data ops, the losses' as mse_loss_backward, smooth_l1_loss_backward...
# (each its plain row's values)
SOFTMAX_BACKWARD = ("k.recorded_backward('softmax_backward_data', 'softmax', grad, result, "
                    "dim)")
LOG_SOFTMAX_BACKWARD = ("k.recorded_backward('log_softmax_backward_data', 'log_softmax', grad,"
                        " result, dim)")
# (the target's: the same op with the two swapped, as torch has it)
MSE_BACKWARD, SMOOTH_L1_BACKWARD, HUBER_BACKWARD = (tuple(
    f"k.recorded_backward('{loss}_backward', '{loss}', grad, {one}, {other}, reduction"
    f"{width}, inputs=2)" for one, other in (("self", "target"), ("target", "self")))
    for loss, width in (("mse_loss", ""), ("smooth_l1_loss", ", beta"), ("huber_loss", ", delta")))

BCE_BACKWARD = ("k.recorded_backward('binary_cross_entropy_backward', 'binary_cross_entropy', "
                "grad, self, target, count, weight, inputs=2)")
NLL_BACKWARD = ("k.recorded_backward('nll_loss_backward', 'nll_loss', grad, self, chosen, "
                "reduction, count)")


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
        # (softmax's Jacobian is symmetric: its gradient's gradient for grad_output is itself)
        row("softmax_backward_data", "SoftmaxBackwardDataBackward0", "grad_output output",
            "grad_output output dim",
            "k.recorded_backward('softmax_backward_data', 'softmax', grad, output, dim)",
            "grad_output * grad - k.sum(output * grad_output, (dim,), True) * grad"
            " - grad_output * k.sum(output * grad, (dim,), True)"),
        row("log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0",
            "grad_output output", "grad_output output dim",
            "grad - k.sum(grad * k.exp(output), (dim,), True)",
            "-k.sum(grad_output, (dim,), True) * k.exp(output) * grad"),
        row("mse_loss_backward", "MseLossBackwardBackward0", "grad_output self target",
            "grad_output self target reduction",
            "k.loss_grad_output('mse_grad', grad, self, target, reduction)",
            "k.mse_double(grad * grad_output, self, reduction)",
            "-k.mse_double(grad * grad_output, self, reduction)"),
        # (nll_loss's gradient is flat in its input, which is among its inputs all the same)
        row("nll_loss_backward", "NllLossBackwardBackward0", "grad_output self",
            "grad_output self chosen reduction count", "k.nll_of(grad, chosen, reduction, count)",
            "k.zeros_like(grad)"),
        row("smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", "grad_output self target",
            "grad_output self target reduction beta",
            "k.loss_grad_output('smooth_l1_grad', grad, self, target, reduction, beta)",
            "k.near_loss_double(grad * grad_output, self, target, reduction, beta, beta)",
            "k.negated(k.near_loss_double(grad * grad_output, self, target, reduction, beta,"
            " beta))"),
        row("huber_loss_backward", "HuberLossBackwardBackward0", "grad_output self target",
            "grad_output self target reduction delta",
            "k.loss_grad_output('huber_grad', grad, self, target, reduction, delta)",
            "k.near_loss_double(grad * grad_output, self, target, reduction, delta, 1)",
            "k.negated(k.near_loss_double(grad * grad_output, self, target, reduction, delta, 1))"),
        # torch's binary_cross_entropy_double_backward(_grad_output, _target), their 1e-12s
        row("binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0",
            "grad_output self target", "grad_output self target count weight",
            "k.reduced_like(k.weighted(grad * (self - target) / ((self + 1e-12)"
            " * (1 - self + 1e-12)), weight), grad_output, count)",
            "k.weighted((self * self - 2 * self * target + target) / (k.power(self + 1e-12, 2)"
            " * k.power(1 - self + 1e-12, 2)) * (grad * grad_output), weight) / count",
            "k.weighted(-grad * grad_output, weight) / k.clamp_min((1 - self) * self, 1e-12)"
            " / count"),
        row("tanh_backward", "TanhBackwardBackward0", "grad_output output", "grad_output output",
            "k.tanh_backward(grad, output)", "grad * (k.times(output, -2) * grad_output)"),
        row("sigmoid_backward", "SigmoidBackwardBackward0", "grad_output output",
            "grad_output output", "k.sigmoid_backward(grad, output)",
            "grad * grad_output * k.plus(k.times(output, -2), 1)"),
        *_norm_rows(row),
        row("embedding_dense_backward", "EmbeddingDenseBackwardBackward0", "grad_output",
            "indices padding_idx shape", "k.embedding_double(grad, indices, padding_idx, shape)"),
    )


def _norm_rows(row) -> tuple:
    """Layer and batch norm's first derivatives as torch's one node each (_norm_grads.py);
    ``arguments``: the statistics they read, the normalized dims (a batch norm's: all but the
    channels) and whether the statistics are the batch's."""
    rows = []
    for kind, node, saved, arguments in (
            ("layer", "NativeLayerNorm", "mean rstd dims", "mean, rstd, dims, True"),
            ("batch", "NativeBatchNorm", "mean invstd training", "mean, invstd, None, training")):
        name = f"{node}BackwardBackward0"
        rows += [
            row(f"{kind}_norm_input_backward", name, "grad_output input weight",
                f"grad_output input weight {saved}",
                *(f"k.norm_input_second(grad, grad_output, input, weight, {arguments}, {which})"
                  for which in range(3))),
            row(f"{kind}_norm_weight_backward", name, "grad_output input",
                f"grad_output input {saved}",
                *(f"k.norm_weight_second(grad, grad_output, input, {arguments}, {which})"
                  for which in range(2))),
            row(f"{kind}_norm_bias_backward", name, "grad_output", "shape",
                f"k.norm_bias_second(grad, shape, {kind == 'layer'})"),
        ]
    return tuple(rows)
