"""The derivative table: one line per op with torch's node name, what it saves, its formulas.

Like PyTorch's ``derivatives.yaml``: each formula is an expression in ``grad`` (the incoming
gradient), the saved names, and ``k`` (a kit of array functions). The same text runs on NumPy
arrays for a plain backward and on tensors under ``create_graph=True``, and it is what the
inspector shows as the rule a node applies. Broadcasting is undone by the engine, not here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._family_rules import family_rows, with_more_inplace
from ._formula_compiler import formula, stand_ins
from ._graph_rules import (
    BCE_BACKWARD,
    HUBER_BACKWARD,
    LOG_SIGMOID_BACKWARD,
    LOG_SOFTMAX_BACKWARD,
    MSE_BACKWARD,
    NLL_BACKWARD,
    SMOOTH_L1_BACKWARD,
    SOFTMAX_BACKWARD,
    SOFTPLUS_BACKWARD,
    graph_rows,
)
from ._image_rules import image_rows
from ._linalg_rules import linalg_rows
from ._selection_rules import FREES_INDICES


@dataclass(frozen=True)
class Rule:
    """One row of the table; ``formulas`` are compiled from ``texts`` at its first use."""

    op: str
    node_name: str
    inputs: tuple[str, ...]
    saves: tuple[str, ...]
    texts: tuple[str, ...]
    variadic: bool = False
    # torch wraps a Python number operand of mul/div in a tensor it saves and frees like others.
    numbers_are_tensors: bool = False
    # its saves freed by a backward (numbers that are tensors, an index: FREES_INDICES)
    releases: bool = False
    formulas: tuple = field(default=(), compare=False, repr=False)
    # split_formulas, once compiled
    _split: tuple | None = field(default=None, compare=False, repr=False)
    # For each saved name, the inputs whose formula reads it (torch saves only those).
    saved_users: tuple = field(default=(), compare=False, repr=False)
    # Per saved name: None if always needed, else the inputs that must need a gradient for it.
    save_gates: tuple = field(default=(), compare=False, repr=False)
    # Forward-mode AD: ELEMENT_WISE when the tangent is the backward formulas applied to the
    # tangents (torch's ``result: auto_element_wise``); None when _forward.py has its own rule
    # or the op has none
    forward: str | None = None
    # The in-place names that record this node (``mul_`` and ``x *= y`` for mul): _inplace.py
    # binds its forwards under them, and a test calls each one against torch
    inplace: tuple[str, ...] = ()
    # Formulas for create_graph=True where torch records one op of its own (tanh's backward is
    # one TanhBackwardBackward0, not the Mul and Rsub the plain text's arithmetic records):
    # compiled on first use, run on tensors only, the same values as ``texts``
    graph: tuple[str, ...] = ()
    _graph: tuple | None = field(default=None, compare=False, repr=False)

    @property
    def split_formulas(self) -> tuple:
        """The formulas with their ``+ - * /`` split between the cores, for large arrays:
        compiled at the first large gradient, not at import (four times the plain formulas'
        cost, some 26 ms added to every kernel's start)."""
        if self._split is None:
            object.__setattr__(self, "_split",
                               tuple(formula(self, text, split=True) for text in self.texts))
        return self._split

    @property
    def graph_formulas(self) -> tuple:
        """The formulas a create_graph backward runs (``graph``, else the plain ones)."""
        if not self.graph:
            return self.formulas  # (compiled or still stand-ins: never kept as such here)
        if self._graph is None:
            object.__setattr__(self, "_graph", tuple(formula(self, text) for text in self.graph))
        return self._graph

    @property
    def input_of_saved(self) -> tuple[int | None, ...]:
        return tuple(self.inputs.index(n) if n in self.inputs else None for n in self.saves)

    def describe(self) -> str:
        """``MulBackward0: grad_self = grad * other; grad_other = grad * self`` (made once: a
        graph's nodes ask for it at every run)."""
        text = self.__dict__.get("_described")
        if text is None:
            text = f"{self.node_name}: " + "; ".join(
                f"grad_{name} = {formula.replace('k.', '')}"
                for name, formula in zip(self.inputs, self.texts, strict=False))
            object.__setattr__(self, "_described", text)
        return text


def _with_saved_users(rule: Rule) -> Rule:
    """The rule with, per saved name, the inputs whose formulas read it (its formulas are
    compiled later, at its first backward: _formula_compiler.py)."""
    users = tuple(
        tuple(i for i, text in enumerate(rule.texts) if re.search(rf"\b{name}\b", text))
        for name in rule.saves
    )
    every_input = tuple(range(len(rule.texts)))
    gates = tuple(None if rule.variadic or u == every_input or not u else u for u in users)
    object.__setattr__(rule, "saved_users", users)
    object.__setattr__(rule, "save_gates", gates)
    return rule


ELEMENT_WISE = "element_wise"


def _row(op: str, node_name: str, inputs: str, saves: str, *texts: str, variadic=False,
         numbers_are_tensors=False, forward: str | None = None, inplace: str = "",
         graph: tuple[str, ...] = ()) -> Rule:
    return _with_saved_users(Rule(op, node_name, tuple(inputs.split()), tuple(saves.split()), texts,
                         variadic, numbers_are_tensors, numbers_are_tensors or node_name in
                         FREES_INDICES, forward=forward, inplace=tuple(inplace.split()),
                         graph=graph))


TABLE: tuple[Rule, ...] = (
    # arithmetic; a Python scalar operand is saved as a number and gets no edge
    _row("add", "AddBackward0", "self other", "alpha", "grad", "k.scale(grad, alpha)",
         forward=ELEMENT_WISE, inplace="add_ __iadd__"),
    _row("sub", "SubBackward0", "self other", "alpha", "grad", "-k.scale(grad, alpha)",
         forward=ELEMENT_WISE, inplace="sub_ __isub__"),
    _row("rsub", "RsubBackward1", "self", "alpha", "-k.scale(grad, alpha)", forward=ELEMENT_WISE),
    _row("mul", "MulBackward0", "self other", "self other", "grad * other", "grad * self",
         numbers_are_tensors=True, forward=ELEMENT_WISE, inplace="mul_ __imul__"),
    _row("div", "DivBackward0", "self other", "self other",
         # torch's div_tensor_other_backward: the quotient divided again, not other²
         "grad / other", "-grad * ((self / other) / other)", numbers_are_tensors=True,
              forward=ELEMENT_WISE, inplace="div_ __itruediv__"),
    _row("neg", "NegBackward0", "self", "", "-grad", forward=ELEMENT_WISE,
         inplace="neg_ negative_"),
    # torch's mul(Tensor, Scalar): what its own formulas record when they scale by a number
    _row("mul_scalar", "MulBackward1", "self", "other", "grad * other", forward=ELEMENT_WISE),
    _row("add_scalar", "AddBackward1", "self", "", "grad", forward=ELEMENT_WISE),  # (the same)
    _row("pow", "PowBackward0", "self", "self exponent",
         "k.pow_self_grad(grad, self, exponent)", forward=ELEMENT_WISE, inplace="pow_"),
    _row("pow_tensor", "PowBackward1", "self exponent", "self exponent result",
         "k.pow_self_grad(grad, self, exponent)",
         "k.pow_exponent_grad(grad, self, exponent, result)", forward=ELEMENT_WISE,
         inplace="pow_"),
    _row("pow_scalar_base", "PowBackward2", "exponent", "self exponent result",
         "k.pow_exponent_grad(grad, self, exponent, result)", forward=ELEMENT_WISE),
    _row("floor_divide", "NotImplemented", "self other", "",
         "k.not_implemented('aten::floor_divide')", "k.not_implemented('aten::floor_divide')"),
    _row("remainder", "RemainderBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    _row("remainder_tensor", "RemainderBackward1", "self other", "self other",
         "grad", "-grad * k.floor_divide(self, other)", forward=ELEMENT_WISE),
    _row("rremainder", "NotImplemented", "other", "", "k.not_implemented('aten::remainder')"),
    _row("fmod", "FmodBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    _row("fmod_tensor", "FmodBackward1", "self other", "self other",
         "grad", "-grad * k.trunc_divide(self, other)", forward=ELEMENT_WISE),
    # torch's atan2_backward: times 1 / (self² + other²), that 0 where the sum is
    _row("atan2", "Atan2Backward0", "self other", "self other",
         "grad * other * k.atan2_reciprocal(self, other)",
         "grad * -self * k.atan2_reciprocal(self, other)", forward=ELEMENT_WISE),
    _row("hypot", "HypotBackward0", "self other", "self other result",
         "grad * self / result", "grad * other / result", forward=ELEMENT_WISE),
    _row("lerp", "LerpBackward0", "self end", "weight", "grad * (1 - weight)", "grad * weight",
         forward=ELEMENT_WISE, inplace="lerp_"),
    _row("lerp_tensor", "LerpBackward1", "self end weight", "self end weight",
         "grad * (1 - weight)", "grad * weight", "grad * (end - self)", forward=ELEMENT_WISE,
         inplace="lerp_"),
    _row("addcmul", "AddcmulBackward0", "self tensor1 tensor2", "tensor1 tensor2 value",
         "grad", "grad * tensor2 * value", "grad * tensor1 * value", forward=ELEMENT_WISE,
         inplace="addcmul_"),
    _row("addcdiv", "AddcdivBackward0", "self tensor1 tensor2", "tensor1 tensor2 value",
         "grad", "grad * (value / tensor2)",
         "-grad * (value * tensor1 / (tensor2 * tensor2))",  # (torch's grouping)
              forward=ELEMENT_WISE, inplace="addcdiv_"),
    _row("where", "WhereBackward0", "self other", "condition",
         "k.where(condition, grad, 0)", "k.where(condition, 0, grad)", forward=ELEMENT_WISE),
    # elementwise functions
    _row("abs", "AbsBackward0", "self", "self", "grad * k.sgn(self)", forward=ELEMENT_WISE,
         inplace="abs_ absolute_"),
    _row("sign", "SignBackward0", "self", "", "k.zeros_like(grad)", forward=ELEMENT_WISE,
         inplace="sign_"),
    _row("exp", "ExpBackward0", "self", "result", "grad * result", forward=ELEMENT_WISE,
         inplace="exp_"),
    _row("log", "LogBackward0", "self", "self", "grad / self", forward=ELEMENT_WISE,
         inplace="log_"),
    _row("log1p", "Log1PBackward0", "self", "self", "grad / (self + 1)", forward=ELEMENT_WISE,
         inplace="log1p_"),
    _row("sqrt", "SqrtBackward0", "self", "result", "grad / k.times(result, 2)",
         forward=ELEMENT_WISE,
         inplace="sqrt_"),
    _row("rsqrt", "RsqrtBackward0", "self", "result", "-0.5 * grad * k.power(result, 3)",
         forward=ELEMENT_WISE, inplace="rsqrt_"),
    _row("reciprocal", "ReciprocalBackward0", "self", "result", "-grad * (result * result)",
         forward=ELEMENT_WISE, inplace="reciprocal_"),
    _row("sin", "SinBackward0", "self", "self", "grad * k.cos(self)", forward=ELEMENT_WISE,
         inplace="sin_"),
    _row("cos", "CosBackward0", "self", "self", "-grad * k.sin(self)", forward=ELEMENT_WISE,
         inplace="cos_"),
    # (torch's tanh_backward kernel fuses 1 - y² into one multiply-add)
    _row("tanh", "TanhBackward0", "self", "result", "grad * k.fused(-result, result, 1)",
         forward=ELEMENT_WISE, inplace="tanh_", graph=("k.tanh_backward(grad, result)",)),
    _row("sigmoid", "SigmoidBackward0", "self", "result", "grad * (1 - result) * result",
         forward=ELEMENT_WISE, inplace="sigmoid_",
         graph=("k.sigmoid_backward(grad, result)",)),
    _row("relu", "ReluBackward0", "self", "result", "k.where(result > 0, grad, 0)",
         forward=ELEMENT_WISE,
         inplace="relu_", graph=("k.threshold_backward(grad, result, 0)",)),
    _row("tan", "TanBackward0", "self", "result", "grad * (1 + result * result)",
         forward=ELEMENT_WISE, inplace="tan_"),
    _row("asin", "AsinBackward0", "self", "self", "grad * k.rsqrt(1 - self * self)",
         forward=ELEMENT_WISE, inplace="asin_ arcsin_"),
    _row("acos", "AcosBackward0", "self", "self", "-grad * k.rsqrt(1 - self * self)",
         forward=ELEMENT_WISE, inplace="acos_ arccos_"),
    _row("atan", "AtanBackward0", "self", "self", "grad / k.plus(self * self, 1)",
         forward=ELEMENT_WISE,
         inplace="atan_ arctan_"),
    _row("asinh", "AsinhBackward0", "self", "self", "grad * k.rsqrt(self * self + 1)",
         forward=ELEMENT_WISE),
    # torch records asinh_ as a node it has no derivative for
    _row("asinh_", "AsinhBackward1", "self", "",
         "k.no_derivative('inplace version of asinh')", inplace="asinh_ arcsinh_"),
    _row("sinh", "SinhBackward0", "self", "self", "grad * k.cosh(self)",
         forward=ELEMENT_WISE, inplace="sinh_"),
    _row("cosh", "CoshBackward0", "self", "self", "grad * k.sinh(self)",
         forward=ELEMENT_WISE, inplace="cosh_"),
    _row("log2", "Log2Backward0", "self", "self", "grad / (self * 0.6931471805599453)",
         forward=ELEMENT_WISE, inplace="log2_"),
    _row("log10", "Log10Backward0", "self", "self", "grad / (self * 2.3025850929940456)",
         forward=ELEMENT_WISE, inplace="log10_"),
    _row("exp2", "Exp2Backward0", "self", "result", "k.times(grad * result, 0.6931471805599453)",
         forward=ELEMENT_WISE, inplace="exp2_"),
    _row("expm1", "Expm1Backward0", "self", "result", "grad * (result + 1)", forward=ELEMENT_WISE,
         inplace="expm1_"),
    # 2 / sqrt(pi) is 1.1283791670955126
    _row("erf", "ErfBackward0", "self", "self",
         "k.times(k.exp(-self ** 2), 1.1283791670955126) * grad", forward=ELEMENT_WISE,
         inplace="erf_"),
    _row("erfc", "ErfcBackward0", "self", "self",
         "k.times(k.exp(-self ** 2), -1.1283791670955126) * grad", forward=ELEMENT_WISE,
         inplace="erfc_"),
    # steps: flat almost everywhere, so torch's gradient is 0 (frac's is 1)
    _row("floor", "FloorBackward0", "self", "", "k.zeros_like(grad)", forward=ELEMENT_WISE),
    _row("ceil", "CeilBackward0", "self", "", "k.zeros_like(grad)", forward=ELEMENT_WISE),
    _row("trunc", "TruncBackward0", "self", "", "k.zeros_like(grad)", forward=ELEMENT_WISE),
    _row("round", "RoundBackward0", "self", "", "k.zeros_like(grad)", forward=ELEMENT_WISE),
    _row("round_decimals", "RoundBackward1", "self", "", "k.zeros_like(grad)",
         forward=ELEMENT_WISE),
    _row("frac", "FracBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    _row("clamp", "ClampBackward1", "self", "self min max",
         "k.where(k.between(self, min, max), grad, 0)", forward=ELEMENT_WISE, inplace="clamp_"),
    _row("clamp_min", "ClampMinBackward0", "self", "self min", "k.where(self >= min, grad, 0)",
         forward=ELEMENT_WISE, inplace="clamp_min_"),
    _row("clamp_max", "ClampMaxBackward0", "self", "self max", "k.where(self <= max, grad, 0)",
         forward=ELEMENT_WISE, inplace="clamp_max_"),
    _row("masked_fill", "MaskedFillBackward0", "self", "mask", "k.where(mask, 0, grad)",
         forward=ELEMENT_WISE, inplace="masked_fill_"),
    _row("nan_to_num", "NanToNumBackward0", "self", "self", "grad * k.isfinite(self)",
         forward=ELEMENT_WISE),
    _row("leaky_relu", "LeakyReluBackward0", "self", "self negative_slope",
         "k.where(self > 0, grad, grad * negative_slope)", forward=ELEMENT_WISE,
         graph=("k.leaky_relu_backward(grad, self, negative_slope)",)),
    _row("gelu", "GeluBackward0", "self", "self approximate",
         "k.gelu_grad(grad, self, approximate)", forward=ELEMENT_WISE),
    _row("gelu_backward", "GeluBackwardBackward0", "grad_output self",
         "grad_output self approximate", "k.gelu_grad(grad, self, approximate)",
         "k.gelu_second(grad, grad_output, self, approximate)"),
    # torch's silu_backward kernel: 1 + x (1 - σ) is one fused multiply-add
    _row("silu", "SiluBackward0", "self", "self",
         "grad * k.sigmoid(self) * k.fused(self, k.number_minus(1, k.sigmoid(self)), 1)",
         forward=ELEMENT_WISE),
    _row("elu", "EluBackward0", "self", "self alpha", "k.elu_grad(grad, self, alpha)",
         forward=ELEMENT_WISE),
    _row("elu_backward", "EluBackwardBackward0", "grad_output self", "grad_output self alpha",
         "k.elu_grad(grad, self, alpha)",
         "k.where(self < 0, grad * grad_output * alpha * k.exp(self), 0)"),
    _row("layer_norm", "NativeLayerNormBackward0", "input weight bias",
         "input mean rstd weight dims eps",
         "k.layer_norm_input(grad, input, mean, rstd, weight, dims, eps)",
         "k.layer_norm_parameter(grad, input, mean, rstd, dims, eps, True)",
         "k.layer_norm_parameter(grad, input, mean, rstd, dims, eps, False)"),
    _row("softplus", "SoftplusBackward0", "self", "self beta threshold",
         "k.where(self * beta > threshold, grad,"
         " grad * k.exp(self * beta) / (k.exp(self * beta) + 1))", forward=ELEMENT_WISE,
         graph=(SOFTPLUS_BACKWARD,)),
    _row("log_sigmoid", "LogSigmoidBackward0", "self", "self buffer",
         "k.log_sigmoid_grad(grad, self, buffer)", graph=(LOG_SIGMOID_BACKWARD,)),
    _row("binary_cross_entropy", "BinaryCrossEntropyBackward0", "self target",
         "self target count weight",
         # torch's EPSILON is a C float: 1e-12 rounded to float32, in float64 too
         "k.weighted(grad * (self - target) / k.clamp_min((1 - self) * self,"
         " 9.999999960041972e-13), weight) / count",
         "k.weighted(-k.log(self / (1 - self)) * grad, weight) / count",  # (-logit(x))
         graph=(BCE_BACKWARD, "k.weighted(-k.log(self / (1 - self)) * grad, weight) / count")),
    _row("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
         "self target", "self target count weight pos_weight",
         "k.logits_loss_grad(grad, self, target, count, weight, pos_weight)",
         "k.logits_loss_target_grad(grad, self, count, weight, pos_weight)"),
    _row("to", "ToCopyBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    _row("clone", "CloneBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    _row("mse_loss", "MseLossBackward0", "self target", "self target reduction",
         "k.mse_grad(grad, self, target, reduction)",
         "-k.mse_grad(grad, self, target, reduction)", graph=MSE_BACKWARD),
    _row("smooth_l1_loss", "SmoothL1LossBackward0", "self target",
         "self target reduction beta", "k.smooth_l1_grad(grad, self, target, reduction, beta)",
         "-k.smooth_l1_grad(grad, self, target, reduction, beta)", graph=SMOOTH_L1_BACKWARD),
    _row("huber_loss", "HuberLossBackward0", "self target", "self target reduction delta",
         "k.huber_grad(grad, self, target, reduction, delta)",
         "-k.huber_grad(grad, self, target, reduction, delta)", graph=HUBER_BACKWARD),
    _row("nll_loss", "NllLossBackward0", "self", "self chosen reduction count",
         "k.nll_grad(grad, chosen, reduction, count)", graph=(NLL_BACKWARD,)),
    # reductions
    _row("sum", "SumBackward0", "self", "shape", "k.expand(grad, shape)"),
    _row("sum_dim", "SumBackward1", "self", "shape dims keepdim",
         "k.expand(k.restore_dims(grad, dims, keepdim), shape)"),
    _row("mean", "MeanBackward0", "self", "shape count", "k.expand(grad / count, shape)"),
    _row("mean_dim", "MeanBackward1", "self", "shape dims keepdim count",
         "k.expand(k.restore_dims(grad, dims, keepdim) / count, shape)"),
    _row("prod", "ProdBackward0", "self", "self result",
         "k.prod_grad(grad, self, result, None, False)"),
    _row("prod_dim", "ProdBackward1", "self", "self dim keepdim result",
         "k.prod_grad(grad, self, result, dim, keepdim)"),
    _row("max", "MaxBackward1", "self", "self result", "k.evenly_distribute(grad, self, result)"),
    _row("min", "MinBackward1", "self", "self result", "k.evenly_distribute(grad, self, result)"),
    _row("max_dim", "MaxBackward0", "self", "shape dim keepdim indices",
         "k.scatter_indices(grad, shape, dim, indices, keepdim)"),
    _row("min_dim", "MinBackward0", "self", "shape dim keepdim indices",
         "k.scatter_indices(grad, shape, dim, indices, keepdim)"),
    _row("norm", "LinalgVectorNormBackward0", "self", "self ord dims keepdim result",
         "k.norm_grad(grad, self, ord, dims, keepdim, result)"),
    _row("trace", "TraceBackward0", "self", "shape", "k.trace_grad(grad, shape)"),
    _row("dist", "DistBackward0", "self other", "self other p result",
         "k.norm_grad(grad, self - other, p, None, False, result)",
         "k.negated(k.norm_grad(grad, self - other, p, None, False, result))"),
    _row("var", "VarBackward0", "self", "self dims correction keepdim",
         "k.var_grad(grad, self, dims, correction, keepdim)"),
    # torch zeroes the gradient where the std is 0 (a constant input) instead of dividing by it
    _row("std", "StdBackward0", "self", "self dims correction keepdim result",
         "k.var_grad(k.masked_fill(grad / k.times(result, 2), result == 0, 0), self, dims,"
         " correction, keepdim)"),
    _row("amax", "AmaxBackward0", "self", "self dims keepdim result",
         "k.share_extremes(grad, self, dims, keepdim, result)"),
    _row("amin", "AminBackward0", "self", "self dims keepdim result",
         "k.share_extremes(grad, self, dims, keepdim, result)"),
    _row("logsumexp", "LogsumexpBackward0", "self", "self dims keepdim result",
         "k.restore_dims(grad, dims, keepdim)"
         " * k.exp(self - k.restore_dims(result, dims, keepdim))"),
    _row("cumsum", "CumsumBackward0", "self", "dim", "k.reverse_cumsum(grad, dim)"),
    # sorting picks values as gather does: the gradient goes back to where each came from
    _row("sort", "SortBackward0", "self", "shape dim indices",
         "k.scatter_into(grad, shape, dim, indices)"),
    _row("topk", "TopkBackward0", "self", "shape dim indices",
         "k.scatter_into(grad, shape, dim, indices)"),
    _row("softmax", "SoftmaxBackward0", "self", "result dim",
         "k.softmax_grad(grad, result, dim)", forward=ELEMENT_WISE, graph=(SOFTMAX_BACKWARD,)),
    # softmax of rows that may be all -inf (masked attention): those rows are 0, not NaN
    _row("safe_softmax", "SafeSoftmaxBackward0", "self", "result dim",
         "k.softmax_grad(grad, result, dim)", forward=ELEMENT_WISE),
    # torch's fused CPU attention for (batch, heads, length, features) inputs: one node, its
    # gradients from the probabilities recomputed (and no second derivative, as in torch)
    _row("attention", "ScaledDotProductFlashAttentionForCpuBackward0", "query key value",
         "query key value mask scale",
         "k.attention_grad(grad, query, key, value, mask, scale, 0)",
         "k.attention_grad(grad, query, key, value, mask, scale, 1)",
         "k.attention_grad(grad, query, key, value, mask, scale, 2)"),
    _row("attention_backward", "NotImplemented",
         "grad_output query key value", "",
         "k.not_implemented('aten::_scaled_dot_product_flash_attention_for_cpu_backward')",
         "k.not_implemented('aten::_scaled_dot_product_flash_attention_for_cpu_backward')",
         "k.not_implemented('aten::_scaled_dot_product_flash_attention_for_cpu_backward')",
         "k.not_implemented('aten::_scaled_dot_product_flash_attention_for_cpu_backward')"),
    # one LSTM layer over a sequence, torch's CPU node (outputs: sequence, last h, last c)
    _row("lstm_layer", "MkldnnRnnLayerBackward0", "input weight0 weight1 weight2 weight3 hx cx",
         "run memo", *(f"k.lstm_layer_grad(grad, run, memo, {which})" for which in range(7))),
    _row("log_softmax", "LogSoftmaxBackward0", "self", "result dim",
         "k.log_softmax_grad(grad, result, dim)", graph=(LOG_SOFTMAX_BACKWARD,)),
    # linear algebra
    _row("mm", "MmBackward0", "self mat2", "self mat2 self_layout mat2_layout",
         "k.mm_mat1_grad(grad, mat2, self_layout)", "k.mm_mat2_grad(grad, self, mat2_layout)"),
    _row("bmm", "BmmBackward0", "self mat2", "self mat2",
         "k.matmul(grad, k.mT(mat2))", "k.matmul(k.mT(self), grad)"),
    _row("baddbmm", "BaddbmmBackward0", "self batch1 batch2", "batch1 batch2 beta alpha",
         "k.scale(grad, beta)", "k.scale(k.matmul(grad, k.mT(batch2)), alpha)",
         "k.scale(k.matmul(k.mT(batch1), grad), alpha)"),
    _row("addmm", "AddmmBackward0", "self mat1 mat2", "mat1 mat2 layout1 layout2 beta alpha",
         "k.scale(grad, beta)", "k.scale(k.mm_mat1_grad(grad, mat2, layout1), alpha)",
         "k.scale(k.mm_mat2_grad(grad, mat1, layout2), alpha)"),
    _row("mv", "MvBackward0", "self vec", "self vec",
         "k.outer(grad, vec)", "k.matmul(k.mT(self), grad)"),
    _row("dot", "DotBackward0", "self tensor", "self tensor", "grad * tensor", "grad * self"),
    # shapes and views
    _row("view", "ViewBackward0", "self", "shape", "k.reshape(grad, shape)"),
    _row("alias", "AliasBackward0", "self", "", "grad", forward=ELEMENT_WISE),
    # a view written through, as torch regenerates it: each element's gradient to its place
    _row("as_strided", "AsStridedBackward0", "self", "shape positions",
         "k.as_strided_backward(grad, shape, positions)"),
    _row("as_strided_", "AsStridedBackward1", "self", "shape positions",
         "k.as_strided_backward(grad, shape, positions)"),
    _row("unsafe_view", "UnsafeViewBackward0", "self", "shape", "k.reshape(grad, shape)"),
    _row("reshape_alias", "ReshapeAliasBackward0", "self", "shape", "k.reshape(grad, shape)"),
    _row("t", "TBackward0", "self", "", "k.t(grad)"),
    _row("transpose", "TransposeBackward0", "self", "dim0 dim1", "k.swapaxes(grad, dim0, dim1)"),
    # what torch's RNNs do to a batch_first output: transpose_ of a tensor of their own
    _row("transpose_", "TransposeBackward1", "self", "dim0 dim1",
         "k.swapaxes(grad, dim0, dim1)"),
    _row("permute", "PermuteBackward0", "self", "dims", "k.unpermute(grad, dims)"),
    _row("diagonal", "DiagonalBackward0", "self", "shape offset dim1 dim2",
         "k.diagonal_backward(grad, shape, offset, dim1, dim2)"),
    _row("squeeze", "SqueezeBackward0", "self", "shape", "k.reshape(grad, shape)"),
    _row("squeeze_dim", "SqueezeBackward1", "self", "shape", "k.reshape(grad, shape)"),
    _row("squeeze_dims", "SqueezeBackward4", "self", "shape", "k.reshape(grad, shape)"),
    _row("unsqueeze", "UnsqueezeBackward0", "self", "dim", "k.squeeze_dim(grad, dim)"),
    _row("expand", "ExpandBackward0", "self", "shape", "k.sum_to(grad, shape)"),
    _row("flip", "FlipBackward0", "self", "dims", "k.flip(grad, dims)"),
    _row("roll", "RollBackward0", "self", "shifts dims", "k.unroll(grad, shifts, dims)"),
    _row("tril", "TrilBackward0", "self", "diagonal", "k.tril(grad, diagonal)"),
    _row("triu", "TriuBackward0", "self", "diagonal", "k.triu(grad, diagonal)"),
    _row("gather", "GatherBackward0", "self", "shape dim index",
         "k.scatter_add_into(grad, shape, dim, index)"),
    _row("scatter", "ScatterBackward0", "self src", "dim index",
         "k.scatter_fill(grad, dim, index, 0)", "k.gather(grad, dim, index)"),
    _row("scatter_value", "ScatterBackward1", "self", "dim index",
         "k.scatter_fill(grad, dim, index, 0)"),
    _row("scatter_add", "ScatterAddBackward0", "self src", "dim index",
         "grad", "k.gather(grad, dim, index)"),
    _row("index_select", "IndexSelectBackward0", "self", "shape dim index",
         "k.index_add_into(grad, shape, dim, index)"),
    _row("batch_norm", "NativeBatchNormBackward0", "input weight bias",
         "input mean weight invstd training eps",
         "k.batch_norm_input(grad, input, mean, weight, invstd, training, eps)",
         "k.batch_norm_parameter(grad, input, mean, invstd, training, eps, True)",
         "k.batch_norm_parameter(grad, input, mean, invstd, training, eps, False)"),
    _row("pack_padded_sequence", "PackPaddedSequenceBackward0", "input",
         "shape sizes batch_first", "k.unpack_padded(grad, shape, sizes, batch_first)"),
    _row("embedding", "EmbeddingBackward0", "weight", "shape indices padding_idx scale sparse",
         "k.embedding_backward(grad, shape, indices, padding_idx, scale, sparse)"),
    _row("index_add", "IndexAddBackward0", "self source", "dim index alpha",
         "grad", "k.index_add_source(grad, dim, index, alpha)", inplace="index_add_"),
    _row("repeat", "RepeatBackward0", "self", "shape repeats", "k.unrepeat(grad, shape, repeats)"),
    _row("select", "SelectBackward0", "self", "shape dim index",
         "k.select_backward(grad, shape, dim, index)"),
    _row("slice", "SliceBackward0", "self", "shape dim start end step",
         "k.slice_backward(grad, shape, dim, start, end, step)"),
    _row("unfold", "UnfoldBackward0", "self", "shape dim size step",
         "k.fold_windows(grad, shape, dim, size, step)"),
    _row("index", "IndexBackward0", "self", "shape indices",
         "k.index_backward(grad, shape, indices)"),
    _row("cat", "CatBackward0", "tensors", "dim offsets sizes",
         "k.narrow(grad, dim, offsets[i], sizes[i])", variadic=True),
    _row("stack", "StackBackward0", "tensors", "dim", "k.select(grad, dim, i)", variadic=True),
    # one node for all the pieces (a gradient for each output; None where none came)
    _row("unbind", "UnbindBackward0", "self", "shape dim", "k.join_unbind(grad, shape, dim)"),
    _row("unsafe_split", "UnsafeSplitBackward0", "self", "shape dim sizes",
         "k.join_split(grad, shape, dim, sizes)"),
    _row("split", "SplitBackward0", "self", "shape dim sizes",
         "k.join_split(grad, shape, dim, sizes)"),
    _row("split_with_sizes", "SplitWithSizesBackward0", "self", "shape dim sizes",
         "k.join_split(grad, shape, dim, sizes)"),
    # in-place writes; CopyBackwards is what a create_graph backward leaves in a leaf's .grad
    _row("copy", "CopyBackwards", "self src", "", "k.zeros_like(grad)", "grad", inplace="copy_"),
    _row("copy_slices", "CopySlices", "self src", "index",
         "k.zero_at(grad, index)", "k.getitem(grad, index)", inplace="__setitem__"),
    _row("zero_", "ZeroBackward0", "self", "", "k.zeros_like(grad)", inplace="zero_"),
    _row("fill_", "FillBackward2", "self", "", "k.zeros_like(grad)", inplace="fill_"),
    # random fills: the values no longer depend on the old ones
    _row("normal_", "NormalBackward0", "self", "", "k.zeros_like(grad)", inplace="normal_"),
    _row("uniform_", "UniformBackward0", "self", "", "k.zeros_like(grad)", inplace="uniform_"),
    _row("exponential_", "ExponentialBackward0", "self", "", "k.zeros_like(grad)",
         inplace="exponential_"),
    _row("random_", "RandomBackward0", "self", "", "k.zeros_like(grad)", inplace="random_"),
    _row("bernoulli_", "BernoulliBackward2", "self", "", "k.zeros_like(grad)",
         inplace="bernoulli_"),
    _row("bernoulli_tensor", "BernoulliBackward1", "self p", "", "k.zeros_like(grad)",
         "k.zeros_like(grad)", inplace="bernoulli_"),
) + graph_rows(_row) + linalg_rows(_row) + image_rows(_row) + family_rows(_row, ELEMENT_WISE)
# (what create_graph records; torch.linalg's; convolutions, pooling, resizing; the families'
# own: _family_rules.py)
TABLE = tuple(with_more_inplace(rule) for rule in TABLE)  # (floor_, scatter_...: the families')
for _rule in TABLE:  # the final rows' formulas, compiled at each one's first backward
    object.__setattr__(_rule, "formulas", stand_ins(_rule))

RULES: dict[str, Rule] = {rule.op: rule for rule in TABLE}
