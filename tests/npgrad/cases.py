"""One or more calls per row of the derivative table, run on both torch and npgrad by the tests.

Every row of ``playground.npgrad._rules.TABLE`` must appear here: the table test fails for a row
without a case, so adding an op to the engine forces adding its comparison with torch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    op: str
    shapes: tuple
    call: Callable
    domain: str = "any"  # "positive" for log/sqrt-like ops, "unit" for asin, "distinct": no ties
    label: str = ""
    dtypes: tuple = ("float32", "float64")  # the input dtypes it is compared in

    @property
    def id(self) -> str:
        return f"{self.op}-{self.label}" if self.label else self.op


def _copy_slices(m, a, b):
    y = a * 2
    y[0] = b * 3
    return y


def _index_put(m, a, b):
    """x[tensor] = values: torch's IndexPutBackward0, rows written out of order."""
    y = a * 2
    y[m.tensor([2, 0])] = b[:2] * 3
    return y


def _index_put_mask(m, a, b):
    y = a * 2
    y[m.tensor([[True, False, True], [False, True, False]])] = b * 3
    return y


def _written_view(m, a):
    """A view written in place: it becomes an as_strided view of its base's CopySlices."""
    y = a * 2
    view = y[:, 1:]
    view.mul_(3)
    return view


def _zero(m, a):
    y = a * 2
    return y.zero_()


def _fill(m, a):
    y = a * 2
    return y.fill_(3)


def _random_fill(method, *arguments):
    """y = a * 2 refilled in place by a seeded draw: the values torch's generator gives."""

    def call(m, a):
        m.manual_seed(3)
        y = a * 2
        return getattr(y, method)(*arguments)

    return call


def _bernoulli_tensor(m, a, p):
    m.manual_seed(3)
    y = a * 2
    return y.bernoulli_(p.sigmoid())  # chances in (0, 1), their gradient torch's zeros


def _double_backward(index):
    def call(m, a):
        (grad,) = m.autograd.grad((a[index] ** 2).sum(), a, create_graph=True)
        return grad

    return call


def _second(function):
    """The gradient of (function(a) ** 2).sum(), kept differentiable: the next backward runs
    the op's formula through the engine's own ops (the tensor kit)."""

    def call(m, a):
        (grad,) = m.autograd.grad((function(m, a) ** 2).sum(), a, create_graph=True)
        return grad

    return call


def _padded(mode: str, dims: int):
    def call(m, a):
        return m.nn.functional.pad(a, (1, 2, 2, 1, 0, 1)[:2 * dims], mode=mode)

    return call


def _second_of_first(function):
    """_second for a function of several inputs: the gradient for the first."""

    def call(m, a, *others):
        (grad,) = m.autograd.grad((function(m, a, *others) ** 2).sum(), a, create_graph=True)
        return grad

    return call


def _create_graph_leaf_grad(m, a):
    loss = (a * a.sin()).sum()
    loss.backward(create_graph=True)
    grad = a.grad
    a.grad = None
    return grad


CASES = [
    Case("add", ((2, 3), (3,)), lambda m, a, b: a + b, label="broadcast"),
    Case("add", ((2, 3),), lambda m, a: 2 + a, label="scalar"),
    Case("add", ((2, 3), (2, 3)), lambda m, a, b: a.add(b, alpha=2), label="alpha"),
    Case("sub", ((2, 3), (2, 1)), lambda m, a, b: a - b, label="broadcast"),
    Case("sub", ((2, 3),), lambda m, a: a - 2, label="scalar"),
    Case("rsub", ((2, 3),), lambda m, a: 10 - a),
    Case("mul", ((2, 3), (3,)), lambda m, a, b: a * b, label="broadcast"),
    Case("mul", ((4,),), lambda m, a: a * 3, label="scalar"),
    Case("div", ((2, 3), (2, 3)), lambda m, a, b: a / b, domain="positive"),
    Case("div", ((2, 3),), lambda m, a: a / 4, label="scalar"),
    Case("neg", ((3,),), lambda m, a: -a),
    Case("mul_scalar", ((3,),), _double_backward(slice(0, 3)), label="inside-pow-formula"),
    Case("pow", ((2, 3),), lambda m, a: a**2, label="square"),
    Case("pow", ((2, 3),), lambda m, a: a**2.5, domain="positive", label="real"),
    Case("pow", ((3,),), lambda m, a: a**0, label="zero"),
    Case("pow_tensor", ((2, 3), (2, 3)), lambda m, a, b: a**b, domain="positive"),
    Case("pow_scalar_base", ((3,),), lambda m, a: 2**a),
    Case("floor_divide", ((3,),), lambda m, a: a // 2, label="name-only"),
    Case("remainder", ((2, 3),), lambda m, a: a % 0.7),
    Case("remainder", ((2, 3),), lambda m, a: m.remainder(a, -0.7), label="negative"),
    Case("remainder_tensor", ((2, 3), (3,)), lambda m, a, b: a % b, label="broadcast"),
    Case("rremainder", ((3,),), lambda m, a: 2.0 % a, label="name-only"),
    Case("fmod", ((2, 3),), lambda m, a: a.fmod(0.7)),
    Case("fmod_tensor", ((2, 3), (2, 3)), lambda m, a, b: m.fmod(a, b)),
    Case("maximum", ((2, 3), (2, 3)), lambda m, a, b: m.maximum(a, b)),
    Case("atan2", ((2, 3), (2, 3)), lambda m, a, b: m.atan2(a, b)),
    Case("atan2", ((2, 3), (3,)), lambda m, a, b: a.arctan2(b), label="broadcast"),
    Case("hypot", ((2, 3), (2, 3)), lambda m, a, b: m.hypot(a, b)),
    Case("lerp", ((2, 3), (2, 3)), lambda m, a, b: m.lerp(a, b, 0.3)),
    Case("lerp", ((2, 3), (2, 3)), lambda m, a, b: a.lerp(b, 0.8), label="far-weight"),
    Case("lerp_tensor", ((2, 3), (2, 3), (2, 3)), lambda m, a, b, w: m.lerp(a, b, w)),
    Case("addcmul", ((2, 3), (2, 3), (3,)), lambda m, a, b, c: m.addcmul(a, b, c, value=0.5)),
    Case("addcdiv", ((2, 3), (2, 3), (2, 3)), lambda m, a, b, c: a.addcdiv(b, c, value=2),
         domain="positive"),
    Case("minimum", ((2, 3), (2, 3)), lambda m, a, b: m.minimum(a, b)),
    Case("where", ((2, 3), (2, 3)), lambda m, a, b: m.where(a > 0, a, b)),
    Case("abs", ((2, 3),), lambda m, a: a.abs()),
    Case("sign", ((2, 3),), lambda m, a: a.sign()),
    Case("exp", ((2, 3),), lambda m, a: a.exp()),
    Case("log", ((2, 3),), lambda m, a: a.log(), domain="positive"),
    Case("log1p", ((2, 3),), lambda m, a: m.log1p(a), domain="positive"),
    Case("sqrt", ((2, 3),), lambda m, a: a.sqrt(), domain="positive"),
    Case("rsqrt", ((2, 3),), lambda m, a: a.rsqrt(), domain="positive"),
    Case("reciprocal", ((2, 3),), lambda m, a: a.reciprocal(), domain="positive"),
    Case("rdiv", ((3,),), lambda m, a: 2 / a, domain="positive", label="reciprocal-mul"),
    Case("sin", ((2, 3),), lambda m, a: a.sin()),
    Case("cos", ((2, 3),), lambda m, a: m.cos(a)),
    Case("tanh", ((2, 3),), lambda m, a: a.tanh()),
    Case("sigmoid", ((2, 3),), lambda m, a: m.sigmoid(a)),
    Case("relu", ((2, 3),), lambda m, a: a.relu()),
    Case("relu", ((2, 3),), lambda m, a: m.nn.functional.relu(a), label="functional"),
    Case("tan", ((2, 3),), lambda m, a: a.tan(), domain="unit"),
    Case("asin", ((2, 3),), lambda m, a: a.asin(), domain="unit"),
    Case("acos", ((2, 3),), lambda m, a: m.acos(a), domain="unit"),
    Case("atan", ((2, 3),), lambda m, a: m.arctan(a)),
    Case("asinh", ((2, 3),), lambda m, a: m.asinh(a)),
    Case("sinh", ((2, 3),), lambda m, a: a.sinh()),
    Case("cosh", ((2, 3),), lambda m, a: m.cosh(a)),
    Case("log2", ((2, 3),), lambda m, a: a.log2(), domain="positive"),
    Case("log10", ((2, 3),), lambda m, a: m.log10(a), domain="positive"),
    Case("exp2", ((2, 3),), lambda m, a: a.exp2()),
    Case("expm1", ((2, 3),), lambda m, a: m.expm1(a)),
    Case("erf", ((2, 3),), lambda m, a: m.erf(a)),
    Case("erf", ((2, 3),), _second(lambda m, a: a.erf()), label="second"),
    Case("erfc", ((2, 3),), lambda m, a: a.erfc()),
    Case("floor", ((2, 3),), lambda m, a: (a * 3).floor()),
    Case("ceil", ((2, 3),), lambda m, a: m.ceil(a * 3)),
    Case("trunc", ((2, 3),), lambda m, a: (a * 3).trunc()),
    Case("round", ((2, 3),), lambda m, a: m.round(a * 3)),
    Case("round_decimals", ((2, 3),), lambda m, a: a.round(decimals=1)),
    Case("frac", ((2, 3),), lambda m, a: (a * 3).frac()),
    Case("tan", ((2, 3),), _second(lambda m, a: a.tan()), domain="unit", label="second"),
    Case("asin", ((2, 3),), _second(lambda m, a: a.asin()), domain="unit", label="second"),
    Case("sinh", ((2, 3),), _second(lambda m, a: a.sinh()), label="second"),
    Case("exp2", ((2, 3),), _second(lambda m, a: a.exp2()), label="second"),
    Case("remainder_tensor", ((2, 3),), _second(lambda m, a: a % (a.detach() * 0 + 0.7)),
         label="second"),
    Case("clamp_min", ((2, 3),), lambda m, a: a.clamp_min(0.1)),
    Case("clamp_max", ((2, 3),), lambda m, a: m.clamp_max(a, 0.1)),
    Case("masked_fill", ((2, 3),), lambda m, a: a.masked_fill(a > 0.2, -1.0)),
    Case("leaky_relu", ((2, 3),), lambda m, a: m.nn.functional.leaky_relu(a, 0.2)),
    Case("leaky_relu", ((2, 3),), lambda m, a: m.nn.LeakyReLU()(a), label="module"),
    Case("softplus", ((2, 3),), lambda m, a: m.nn.functional.softplus(a * 8, beta=2,
                                                                      threshold=5)),
    Case("binary_cross_entropy", ((2, 3), (2, 3)), lambda m, a, b: m.nn.functional
         .binary_cross_entropy(a.sigmoid(), b.sigmoid())),
    Case("binary_cross_entropy", ((2, 3), (2, 3)), lambda m, a, b: m.nn.BCELoss(
        reduction="none")(a.sigmoid(), b.sigmoid()), label="none"),
    Case("binary_cross_entropy_with_logits", ((2, 3), (2, 3)), lambda m, a, b: m.nn.functional
         .binary_cross_entropy_with_logits(a * 3, b.sigmoid(), reduction="sum")),
    Case("binary_cross_entropy_with_logits", ((2, 3), (2, 3)),
         lambda m, a, b: m.nn.BCEWithLogitsLoss()(a, b.sigmoid()), label="module"),
    Case("binary_cross_entropy", ((2, 3), (2, 3)), lambda m, a, b: m.nn.BCELoss(
        weight=m.tensor([0.5, 2.0, 1.5]))(a.sigmoid(), b.sigmoid()), label="weight"),
    Case("binary_cross_entropy_with_logits", ((2, 3), (2, 3)), lambda m, a, b: m.nn
         .BCEWithLogitsLoss(weight=m.tensor([0.5, 2.0, 1.5]), pos_weight=m.tensor(
             [3.0, 1.0, 0.25]), reduction="sum")(a * 2, b.sigmoid()), label="both weights"),
    Case("clamp", ((2, 3),), lambda m, a: a.clamp(-0.5, 0.5), label="both"),
    Case("clamp", ((2, 3),), lambda m, a: a.clamp(min=0), label="min"),
    Case("to", ((2, 3),), lambda m, a: a.double() if a.dtype == m.float32 else a.float()),
    Case("clone", ((2, 3),), lambda m, a: a.clone()),
    Case("mse_loss", ((2, 3), (2, 3)), lambda m, a, b: m.nn.functional.mse_loss(a, b)),
    Case("smooth_l1_loss", ((2, 3), (2, 3)), lambda m, a, b: m.nn.functional.smooth_l1_loss(
        a * 2, b, beta=0.5)),
    Case("smooth_l1_loss", ((2, 3), (2, 3)), lambda m, a, b: m.nn.SmoothL1Loss(
        reduction="none")(a * 2, b), label="module"),
    Case("huber_loss", ((2, 3), (2, 3)), lambda m, a, b: m.nn.functional.huber_loss(
        a * 2, b, reduction="sum", delta=0.7)),
    Case("huber_loss", ((2, 3), (2, 3)), lambda m, a, b: m.nn.HuberLoss()(a * 2, b),
         label="module"),
    Case("sum", ((2, 3),), lambda m, a: a.sum()),
    Case("sum_dim", ((2, 3),), lambda m, a: a.sum(1), label="one"),
    Case("sum_dim", ((2, 3, 2),), lambda m, a: a.sum((0, 2), keepdim=True), label="keepdim"),
    Case("mean", ((2, 3),), lambda m, a: a.mean()),
    Case("mean_dim", ((2, 3),), lambda m, a: a.mean(0), label="one"),
    Case("mean_dim", ((2, 3),), lambda m, a: a.mean(-1, keepdim=True), label="keepdim"),
    Case("prod", ((2, 3),), lambda m, a: a.prod()),
    Case("prod_dim", ((2, 3),), lambda m, a: a.prod(1)),
    Case("max", ((2, 3),), lambda m, a: a.max(), domain="distinct"),
    Case("min", ((2, 3),), lambda m, a: a.min(), domain="distinct"),
    Case("max_dim", ((2, 3),), lambda m, a: a.max(1)[0], domain="distinct"),
    Case("amax", ((2, 3),), lambda m, a: a.amax()),
    Case("amax", ((2, 3),), lambda m, a: (a * 2).round().amax(1, keepdim=True), label="ties"),
    Case("amin", ((2, 3),), lambda m, a: m.amin(a, (0,)), label="dim"),
    Case("logsumexp", ((2, 3),), lambda m, a: a.logsumexp(1)),
    Case("logsumexp", ((2, 3),), lambda m, a: m.logsumexp(a, (0, 1), keepdim=True),
         label="dims"),
    Case("cumsum", ((2, 3),), lambda m, a: a.cumsum(1)),
    Case("cumsum", ((2, 3),), lambda m, a: m.cumsum(a, dim=-2), label="negative-dim"),
    Case("cumsum", ((2, 3),), _second(lambda m, a: a.cumsum(1)), label="second"),
    Case("sort", ((2, 3),), lambda m, a: m.sort(a, 1).values, domain="distinct"),
    Case("sort", ((3, 2),), lambda m, a: a.sort(dim=0, descending=True)[0], domain="distinct",
         label="descending"),
    Case("sort", ((2, 3),), _second(lambda m, a: a.sort().values), domain="distinct",
         label="second"),
    Case("topk", ((2, 4),), lambda m, a: m.topk(a, 2).values, domain="distinct"),
    Case("topk", ((4, 2),), lambda m, a: a.topk(3, dim=0, largest=False).values,
         domain="distinct", label="smallest"),
    Case("logsumexp", ((2, 3),), _second(lambda m, a: a.logsumexp(1)), label="second"),
    Case("min_dim", ((2, 3),), lambda m, a: a.min(0, keepdim=True).values, domain="distinct"),
    Case("norm", ((2, 3),), lambda m, a: a.norm(), label="all"),
    Case("norm", ((2, 3),), lambda m, a: a.norm(dim=1), label="dim"),
    Case("norm", ((2, 3),), lambda m, a: a.norm(p=1), label="p1"),
    Case("norm", ((2, 3),), lambda m, a: a.norm(p=3, dim=0, keepdim=True), label="p3"),
    Case("norm", ((2, 3),), lambda m, a: a.norm(p=float("-inf")), label="p-inf",
         domain="distinct"),
    Case("trace", ((3, 3),), lambda m, a: m.trace(a)),
    Case("trace", ((2, 4),), lambda m, a: a.trace(), label="wide"),
    Case("linalg_slogdet", ((3, 3),), lambda m, a: m.logdet(a @ a.mT + m.eye(3, dtype=a.dtype)),
         label="logdet"),
    Case("linalg_slogdet", ((2, 2),), lambda m, a: a.logdet(), label="logdet-maybe-nan"),
    Case("dist", ((2, 3), (2, 3)), lambda m, a, b: m.dist(a, b)),
    Case("dist", ((2, 3), (3,)), lambda m, a, b: a.dist(b, 1), label="p1-broadcast"),
    Case("dist", ((2, 3), (2, 3)), lambda m, a, b: m.dist(a, b, 1.5), label="p1.5"),
    Case("dist", ((2, 3), (2, 3)), lambda m, a, b: m.dist(a, b, 3), label="p3"),
    Case("dist", ((3,), (3,)), lambda m, a, b: m.dist(a, b, float("inf")), label="pinf",
         domain="distinct"),
    Case("dist", ((3,), (3,)), lambda m, a, b: m.dist(a, b, float("-inf")), label="p-inf",
         domain="distinct"),
    Case("var", ((2, 3),), lambda m, a: a.var(), label="all"),
    Case("var", ((2, 3),), lambda m, a: a.var(1, unbiased=False), label="dim"),
    Case("std", ((2, 3),), lambda m, a: a.std(), label="all"),
    Case("std", ((2, 3),), lambda m, a: a.std(0, keepdim=True), label="dim"),
    Case("softmax", ((2, 3),), lambda m, a: a.softmax(1)),
    Case("log_softmax", ((2, 3),), lambda m, a: m.log_softmax(a, dim=0)),
    Case("mm", ((2, 3), (3, 4)), lambda m, a, b: a @ b),
    Case("bmm", ((2, 2, 3), (2, 3, 4)), lambda m, a, b: m.bmm(a, b)),
    Case("linalg_det", ((3, 3),), lambda m, a: m.linalg.det(a + 3 * m.eye(3, dtype=a.dtype))),
    Case("linalg_det", ((2, 3, 3),), lambda m, a: m.linalg.det(a + 3 * m.eye(3, dtype=a.dtype)),
         label="batched"),
    Case("linalg_slogdet", ((3, 3),), lambda m, a: m.linalg.slogdet(
        a + 3 * m.eye(3, dtype=a.dtype)).logabsdet),
    Case("linalg_inv", ((3, 3),), lambda m, a: m.linalg.inv(a + 3 * m.eye(3, dtype=a.dtype))),
    Case("linalg_solve", ((3, 3), (3,)), lambda m, a, b: m.linalg.solve(
        a + 3 * m.eye(3, dtype=a.dtype), b)),
    Case("linalg_solve", ((2, 3, 3), (2, 3, 2)), lambda m, a, b: m.linalg.solve(
        a + 3 * m.eye(3, dtype=a.dtype), b), label="matrices"),
    Case("linalg_solve", ((3, 3), (2, 3)), lambda m, a, b: m.linalg.solve(
        a + 3 * m.eye(3, dtype=a.dtype), b, left=False), label="on-the-right"),
    Case("linalg_solve", ((3, 3), (2, 3)), lambda m, a, b: m.autograd.grad(
        (m.linalg.solve_ex(a + 3 * m.eye(3, dtype=a.dtype), b, left=False).result ** 3).sum(),
        a, create_graph=True)[0], label="second-order-on-the-right"),
    Case("linalg_det", ((3, 3),), lambda m, a: m.autograd.grad(
        m.linalg.det(a + 3 * m.eye(3, dtype=a.dtype)), a, create_graph=True)[0],
        label="create-graph"),
    Case("baddbmm", ((3, 4), (2, 3, 2), (2, 2, 4)), lambda m, c, a, b: m.baddbmm(c, a, b)),
    Case("baddbmm", ((2, 3, 4), (2, 3, 2), (2, 2, 4)), lambda m, c, a, b: m.baddbmm(
        c, a, b, beta=0.5, alpha=2), label="scaled"),
    Case("mv", ((2, 3), (3,)), lambda m, a, b: a @ b),
    Case("dot", ((3,), (3,)), lambda m, a, b: a @ b),
    Case("squeeze_dims", ((3,), (3, 2)), lambda m, a, b: a @ b, label="vector-matrix"),
    Case("unsafe_view", ((2, 2, 3), (3, 4)), lambda m, a, b: a @ b, label="batch-matrix"),
    Case("unsafe_view", ((2, 2, 3), (2, 3, 4)), lambda m, a, b: a @ b, label="batched"),
    Case("view", ((2, 3),), lambda m, a: a.view(3, 2)),
    Case("view", ((2, 3),), lambda m, a: a.flatten(), label="flatten"),
    Case("unsafe_view", ((2, 3),), lambda m, a: a.t().reshape(6), label="copying-reshape"),
    Case("t", ((2, 3),), lambda m, a: a.t()),
    Case("permute", ((2, 3),), lambda m, a: a.T, label="T"),
    Case("transpose", ((2, 3, 2),), lambda m, a: a.transpose(0, 2)),
    Case("permute", ((2, 3, 2),), lambda m, a: a.permute(2, 0, 1)),
    Case("squeeze", ((1, 3, 1),), lambda m, a: a.squeeze()),
    Case("squeeze_dim", ((1, 3),), lambda m, a: a.squeeze(0)),
    Case("unsqueeze", ((2, 3),), lambda m, a: a.unsqueeze(1)),
    Case("unsqueeze", ((2, 3),), lambda m, a: a[None], label="None-index"),
    Case("expand", ((3, 1),), lambda m, a: a.expand(2, 3, 4)),
    Case("select", ((2, 3),), lambda m, a: a[1]),
    Case("select", ((2, 3),), lambda m, a: a[:, -1], label="column"),
    Case("select", ((2, 3),), lambda m, a: a[1, 2], label="element"),
    Case("slice", ((4, 3),), lambda m, a: a[1:3]),
    Case("slice", ((4, 3),), lambda m, a: a[:], label="lone-full-slice"),
    Case("alias", ((4, 3),), lambda m, a: a[...]),
    Case("alias", ((4, 3),), lambda m, a: a[:, :], label="full-tuple"),
    Case("slice", ((4, 3),), lambda m, a: a[..., ::2], label="step"),
    Case("index", ((4, 3),), lambda m, a: a[[0, 2, 0]]),
    Case("index", ((4, 3),), lambda m, a: a[a > 0], label="mask"),
    Case("roll", ((2, 3),), lambda m, a: m.roll(a, 1)),
    Case("roll", ((2, 3),), lambda m, a: a.roll((1, -1), (0, 1)), label="dims"),
    Case("roll", ((2, 3),), _second(lambda m, a: a.roll(2, 1)), label="second"),
    Case("flip", ((2, 3),), lambda m, a: a.flip(0, 1)),
    Case("flip", ((2, 3),), lambda m, a: m.flip(a, [-1]), label="function"),
    Case("tril", ((3, 3),), lambda m, a: a.tril()),
    Case("triu", ((2, 3, 3),), lambda m, a: m.triu(a, 1), label="batched"),
    Case("addmm", ((3,), (2, 4), (4, 3)), lambda m, b, x, w: m.addmm(b, x, w)),
    Case("addmm", ((2, 4), (3, 4), (3,)), lambda m, x, w, b: m.nn.functional.linear(x, w, b),
         label="linear"),
    Case("nll_loss", ((4, 3),),
         lambda m, a: m.nn.functional.nll_loss(a.log_softmax(1), m.tensor([0, 2, 1, 2]))),
    Case("nll_loss", ((4, 3),), lambda m, a: m.nn.functional.nll_loss(
        a, m.tensor([1, 0, 2, 2]), reduction="none"), label="none"),
    Case("nll_loss", ((4, 3),), lambda m, a: m.nn.functional.cross_entropy(
        a, m.tensor([0, 2, -100, 1]), reduction="sum"), label="cross-entropy-ignored"),
    Case("nll_loss", ((3,),), lambda m, a: m.nn.functional.cross_entropy(a, m.tensor(1)),
         label="one-row"),
    Case("scatter", ((2, 3), (2, 2)),
         lambda m, a, b: a.scatter(1, m.tensor([[2, 0], [1, 2]]), b)),
    Case("scatter", ((2, 3), (1, 2)), lambda m, a, b: m.scatter(a, 0, m.tensor([[1, 0]]), b),
         label="function"),
    Case("scatter_value", ((2, 3),), lambda m, a: a.scatter(1, m.tensor([[2], [0]]), 1.5)),
    # reduce=: torch has no derivative (NotImplemented); the values and names are compared
    Case("scatter_reducing", ((2, 3), (2, 2)), lambda m, a, b: a.scatter(
        1, m.tensor([[2, 2], [0, 1]]), b, reduce="multiply"), label="name-only"),
    Case("scatter_value_reducing", ((2, 3),), lambda m, a: a.scatter(
        1, m.tensor([[2], [0]]), 1.5, reduce="add"), label="name-only"),
    Case("scatter_reducing_", ((2, 3), (2, 2)), lambda m, a, b: (a * 1).scatter_(
        1, m.tensor([[2, 2], [0, 1]]), b, reduce="add"), label="name-only"),
    Case("scatter_value_reducing_", ((2, 3),), lambda m, a: (a * 1).scatter_(
        1, m.tensor([[2], [0]]), 0.5, reduce="multiply"), label="name-only"),
    Case("gather", ((2, 3),), lambda m, a: a.gather(1, m.tensor([[2, 0, 2], [1, 1, 0]]))),
    Case("gather", ((3, 3),), lambda m, a: m.gather(a, 0, m.tensor([[2, 0], [0, 0]])),
         label="smaller-index"),
    Case("gather", ((2, 3),), _second(lambda m, a: a.gather(1, m.tensor([[2, 2], [0, 1]]))),
         label="second"),
    Case("scatter_add", ((2, 4), (2, 3)), lambda m, a, b: a.scatter_add(
        1, m.tensor([[3, 0, 3], [1, 1, 2]]), b)),
    Case("index_select", ((3, 2),), lambda m, a: a.index_select(0, m.tensor([2, 0, 2]))),
    Case("conv2d", ((2, 3, 6, 5), (4, 3, 3, 2), (4,)),
         lambda m, a, w, b: m.nn.functional.conv2d(a, w, b, stride=(2, 1), padding=1)),
    Case("conv2d", ((1, 2, 5, 5), (3, 2, 2, 2)),
         lambda m, a, w: m.nn.functional.conv2d(a, w, dilation=2), label="dilated"),
    Case("conv_transpose2d", ((2, 3, 4, 5), (3, 2, 3, 2), (2,)),
         lambda m, a, w, b: m.nn.functional.conv_transpose2d(a, w, b, stride=2, padding=1,
                                                             output_padding=1)),
    Case("conv_transpose2d", ((1, 2, 3, 3), (2, 3, 2, 2)), lambda m, a, w: m.nn.functional
         .conv_transpose2d(a, w, dilation=2), label="dilated"),
    Case("max_pool2d", ((2, 3, 6, 5),), lambda m, a: m.nn.functional.max_pool2d(a, 2),
         domain="distinct"),
    Case("max_pool2d", ((1, 2, 5, 6),), lambda m, a: m.nn.functional.max_pool2d(
        a, (3, 2), stride=1, padding=1), domain="distinct", label="padded"),
    Case("unfold", ((2, 7),), lambda m, a: a.unfold(1, 3, 2)),
    Case("unfold", ((5, 2, 3),), lambda m, a: a.unfold(0, 3, 1) * 2, label="overlapping"),
    Case("unfold_backward", ((2, 7),), lambda m, a: m.autograd.grad(
        (a.unfold(1, 3, 1) ** 3).sum(), a, create_graph=True)[0]),
    Case("avg_pool2d", ((2, 3, 6, 5),), lambda m, a: m.nn.functional.avg_pool2d(a, 2)),
    Case("avg_pool2d", ((1, 2, 5, 6),), lambda m, a: m.nn.AvgPool2d(
        3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)(a), label="padded"),
    Case("avg_pool2d", ((2, 7),), lambda m, a: m.nn.functional.avg_pool1d(a[None], 3, 2)[0],
         label="1d"),
    Case("adaptive_avg_pool2d", ((2, 3, 7, 5),), lambda m, a: m.nn.functional
         .adaptive_avg_pool2d(a, (3, 2))),
    Case("adaptive_avg_pool2d", ((3, 5, 6),), lambda m, a: m.nn.AdaptiveAvgPool2d((None, 4))(a),
         label="unbatched"),
    Case("avg_pool2d_backward", ((1, 2, 5, 5),), lambda m, a: m.autograd.grad(
        (m.nn.functional.avg_pool2d(a, 3, 1, 1) ** 3).sum(), a, create_graph=True)[0]),
    Case("adaptive_avg_pool2d_backward", ((1, 2, 5, 7),), lambda m, a: m.autograd.grad(
        (m.nn.functional.adaptive_avg_pool2d(a, 3) ** 3).sum(), a, create_graph=True)[0]),
    # a create_graph backward records torch's node for each, differentiable again
    Case("conv2d_input_backward", ((1, 2, 5, 5), (3, 2, 3, 3)), lambda m, a, w: m.autograd.grad(
        (m.nn.functional.conv2d(a, w, stride=2, padding=1) ** 2).sum(), a,
        create_graph=True)[0]),
    Case("conv2d_weight_backward", ((1, 2, 5, 5), (3, 2, 3, 3)), lambda m, a, w:
         m.autograd.grad((m.nn.functional.conv2d(a, w, padding=1, dilation=2) ** 2).sum(), w,
                         create_graph=True)[0]),
    Case("max_pool2d_backward", ((2, 3, 6, 5),), lambda m, a: m.autograd.grad(
        (m.nn.functional.max_pool2d(a, 2) ** 3).sum(), a, create_graph=True)[0],
        domain="distinct"),
    Case("batch_norm", ((4, 3), (3,), (3,)), lambda m, a, w, b: m.nn.functional.batch_norm(
        a, None, None, w, b, training=True), label="training"),
    Case("batch_norm", ((4, 3, 2), (3,), (3,)), lambda m, a, w, b: m.nn.functional.batch_norm(
        a, m.zeros(3, dtype=a.dtype), m.ones(3, dtype=a.dtype), w, b), label="eval"),
    Case("batch_norm", ((2, 3, 4, 5),), lambda m, a: m.nn.BatchNorm2d(3, dtype=a.dtype)(a * 2 + 1),
         label="2d"),
    Case("embedding", ((4, 3),), lambda m, a: m.nn.functional.embedding(
        m.tensor([[1, 3], [1, 0]]), a)),
    Case("embedding", ((4, 3),), lambda m, a: m.nn.functional.embedding(
        m.tensor([2, 0, 2]), a, padding_idx=2), label="padding"),
    Case("embedding", ((4, 3),), lambda m, a: m.nn.functional.embedding(
        m.tensor([2, 0, 2, 3, 2]), a, scale_grad_by_freq=True) * m.arange(
        1.0, 4.0, dtype=a.dtype), label="scale_grad_by_freq"),
    Case("embedding_dense_backward", ((4, 3),), _second(lambda m, a: m.nn.functional.embedding(
        m.tensor([[1, 3], [1, 0]]), a) * a[:2, None])),
    Case("embedding_dense_backward", ((4, 3),), _second(lambda m, a: m.nn.functional.embedding(
        m.tensor([2, 0, 2]), a, padding_idx=2) * a[1:]), label="padding"),
    Case("index_select", ((2, 3),), _second(lambda m, a: m.index_select(a, 1, m.tensor([1, 1]))),
         label="second"),
    Case("index_add", ((3, 2), (4, 2)), lambda m, a, b: a.index_add(0, m.tensor([2, 0, 2, 1]), b)),
    Case("repeat", ((2, 3),), lambda m, a: a.repeat(2, 1, 3)),
    Case("repeat", ((3,),), lambda m, a: a.repeat(2), label="one-dim"),
    Case("cat", ((2, 3), (1, 3)), lambda m, a, b: m.cat([a, b])),
    Case("cat", ((2, 3), (2, 1)), lambda m, a, b: m.cat((a, b), dim=1), label="dim1"),
    Case("stack", ((2, 3), (2, 3)), lambda m, a, b: m.stack([a, b], dim=1)),
    Case("split", ((4, 3),), lambda m, a: a.split(3)[1]),
    Case("split", ((2, 5),), lambda m, a: m.split(a, 2, dim=1)[0], label="function"),
    Case("split_with_sizes", ((4, 3),), lambda m, a: a.split([1, 2], dim=1)[1]),
    # activations, normalization and attention of today's models
    Case("gelu", ((2, 3),), lambda m, a: m.nn.functional.gelu(a)),
    Case("gelu", ((2, 3),), lambda m, a: m.nn.functional.gelu(a, approximate="tanh"),
         label="tanh"),
    Case("gelu_backward", ((2, 3),), _second(lambda m, a: m.nn.functional.gelu(a))),
    Case("gelu_backward", ((2, 3),),
         _second(lambda m, a: m.nn.functional.gelu(a, approximate="tanh")), label="tanh"),
    Case("silu", ((2, 3),), lambda m, a: m.nn.functional.silu(a)),
    Case("elu", ((2, 3),), lambda m, a: m.nn.functional.elu(a, alpha=0.7)),
    Case("elu_backward", ((2, 3),), _second(lambda m, a: m.nn.functional.elu(a))),
    Case("layer_norm", ((4, 3), (3,), (3,)), lambda m, a, w, b: m.nn.functional.layer_norm(
        a, (3,), w, b)),
    Case("layer_norm", ((2, 2, 3),), lambda m, a: m.nn.functional.layer_norm(a, (2, 3)),
         label="plain"),
    # their gradients under create_graph: torch's one node, differentiated again
    *(Case(f"{kind}_norm_{part}_backward", ((4, 3, 2), (3,), (3,)) if kind == "batch" else
           ((4, 3, 2), (2,), (2,)), lambda m, a, w, b, norm=norm, which=which: m.autograd.grad(
               (norm(m, a, w, b) ** 3).sum(), (a, w, b), create_graph=True)[which],
           label=label)
      for kind, label, norm in (
          ("layer", "", lambda m, a, w, b: m.nn.functional.layer_norm(a, (2,), w, b)),
          ("batch", "training", lambda m, a, w, b: m.nn.functional.batch_norm(
              a, None, None, w, b, training=True)),
          ("batch", "eval", lambda m, a, w, b: m.nn.functional.batch_norm(
              a, m.full((3,), 0.1, dtype=a.dtype), m.full((3,), 2.0, dtype=a.dtype), w, b)))
      for which, part in enumerate(("input", "weight", "bias"))),
    Case("layer_norm_input_backward", ((2, 2, 3),), lambda m, a: m.autograd.grad(
        (m.nn.functional.layer_norm(a, (2, 3)) ** 3).sum(), a, create_graph=True)[0],
         label="plain"),
    Case("nan_to_num", ((2, 3),), lambda m, a: a.nan_to_num()),
    Case("safe_softmax", ((3, 4), (5, 4), (5, 2)), lambda m, q, k, v:
         m.nn.functional.scaled_dot_product_attention(q, k, v), label="math-path"),
    Case("attention", ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), lambda m, q, k, v:
         m.nn.functional.scaled_dot_product_attention(q, k, v)),
    Case("attention", ((2, 1, 4, 3), (2, 1, 4, 3), (2, 1, 4, 3)), lambda m, q, k, v:
         m.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True), label="causal"),
    # float32 runs on oneDNN's node; float64 takes torch's step-by-step ops
    Case("lstm_layer", ((5, 2, 3),), lambda m, x: (m.manual_seed(0), m.nn.LSTM(
        3, 4)(x.float())[0])[1], dtypes=("float32",)),
    Case("lstm_layer", ((5, 3),), lambda m, x: (m.manual_seed(0), m.nn.LSTM(
        3, 2, bidirectional=True, dtype=x.dtype)(x)[1][1])[1], label="unbatched-reverse"),
    Case("transpose_", ((2, 4, 3),), lambda m, x: (m.manual_seed(0), m.nn.RNN(
        3, 2, batch_first=True, dtype=x.dtype)(x)[0])[1]),
    Case("unsafe_split", ((2, 8),), lambda m, a: a.unsafe_chunk(4, 1)[2] * 2),
    Case("reshape_alias", ((4, 3),), lambda m, a: a[:, :2].reshape(2, 2, 2)),
    Case("reshape_alias", ((4, 3),), lambda m, a: a.t().reshape(3, 2, 2), label="transposed"),
    Case("unbind", ((3, 4),), lambda m, a: a.unbind(1)[2] * 2),
    Case("unbind", ((2, 3),), lambda m, a: m.stack(m.unbind(a)[::-1]), label="all"),
    Case("unsafe_split", ((2, 8),), lambda m, x: (m.manual_seed(0), m.nn.LSTMCell(
        8, 3, dtype=x.dtype)(x)[0])[1], label="lstm-cell"),
    Case("attention_backward", ((1, 2, 3, 4),), lambda m, q: m.autograd.grad(
        (m.nn.functional.scaled_dot_product_attention(q, q, q) ** 2).sum(), q,
        create_graph=True)[0], label="name-only"),
    Case("copy_slices", ((2, 3), (3,)), _copy_slices),
    Case("copy_slices", ((3,), (1,)), _copy_slices, label="leading-one"),
    Case("index_put", ((3, 2), (3, 2)), _index_put),
    Case("index_put", ((2, 3), (3,)), _index_put_mask, label="mask"),
    Case("as_strided", ((2, 3),), _written_view),
    Case("pack_padded_sequence", ((4, 3, 2),), lambda m, x: m.nn.utils.rnn.pack_padded_sequence(
        x, [4, 3, 1]).data),
    Case("pack_padded_sequence", ((3, 4, 2),), _second(
        lambda m, x: m.nn.utils.rnn.pack_padded_sequence(x, [4, 2, 1], batch_first=True).data),
        label="second"),
    Case("zero_", ((2, 3),), _zero),
    Case("copy", ((2, 3),), _create_graph_leaf_grad),
    Case("fill_", ((2, 3),), _fill),
    Case("normal_", ((2, 3),), _random_fill("normal_", 1.0, 2.0)),
    Case("uniform_", ((2, 3),), _random_fill("uniform_", -1.0, 1.0)),
    Case("exponential_", ((2, 3),), _random_fill("exponential_", 2.0)),
    Case("random_", ((2, 3),), _random_fill("random_", 0, 9)),
    Case("bernoulli_", ((2, 3),), _random_fill("bernoulli_", 0.5)),
    Case("bernoulli_tensor", ((2, 3), (3,)), _bernoulli_tensor),
    Case("asinh_", ((3,),), lambda m, a: (a * 2).asinh_(), label="name-only"),
    Case("leaky_relu_backward", ((3, 2),), _second(
        lambda m, a: m.nn.functional.leaky_relu(a, 0.1))),
    Case("threshold_backward", ((3, 2),), _second(lambda m, a: a.relu()), label="relu"),
    Case("max_pool2d_backward", ((1, 1, 4, 4),), _second(
        lambda m, a: m.nn.functional.max_pool2d(a, 2)), label="alone"),
    Case("softplus_backward", ((3, 2),), _second(lambda m, a: m.nn.functional.softplus(a))),
    Case("log_sigmoid_backward", ((3, 2),), _second(lambda m, a: m.nn.functional.logsigmoid(a))),
    Case("tanh_backward", ((3, 2),), _second(lambda m, a: a.tanh())),
    Case("softmax_backward_data", ((3, 4),), _second(
        lambda m, a: m.nn.functional.softmax(a, 1) * m.arange(4.0, dtype=a.dtype))),
    Case("log_softmax_backward_data", ((3, 4),), _second(
        lambda m, a: m.nn.functional.log_softmax(a, 0) * m.arange(4.0, dtype=a.dtype))),
    Case("mse_loss_backward", ((3, 2), (3, 2)), _second_of_first(
        lambda m, a, b: m.nn.functional.mse_loss(a, b, reduction="sum"))),
    Case("smooth_l1_loss_backward", ((3, 2), (3, 2)), _second_of_first(
        lambda m, a, b: m.nn.functional.smooth_l1_loss(a, b, beta=0.5))),
    Case("huber_loss_backward", ((3, 2), (3, 2)), _second_of_first(
        lambda m, a, b: m.nn.functional.huber_loss(a, b, reduction="none", delta=0.6))),
    Case("binary_cross_entropy_backward", ((3, 2), (3, 2)), _second_of_first(
        lambda m, a, b: m.nn.functional.binary_cross_entropy(a.sigmoid(), b.sigmoid()))),
    Case("nll_loss_backward", ((3, 4),), _second(lambda m, a: m.nn.functional.nll_loss(
        a.log_softmax(1), m.tensor([0, 3, 1]), reduction="none"))),
    Case("sigmoid_backward", ((3, 2),), _second(lambda m, a: a.sigmoid())),
    Case("add_scalar", ((3, 2),), _second(lambda m, a: a.sigmoid()), label="sigmoid's second"),
    Case("select_backward", ((3, 2),), _double_backward(1)),
    Case("slice_backward", ((3, 2),), _double_backward(slice(0, 2))),
    Case("index_backward", ((3, 2),), _double_backward([0, 2])),
    Case("conv2d", ((2, 4, 5, 5), (6, 2, 3, 3), (6,)), lambda m, x, w, b: m.nn.functional.conv2d(
        x, w, b, padding=1, groups=2), label="groups"),
    Case("conv2d", ((1, 3, 5, 5), (3, 1, 3, 3)), lambda m, x, w: m.nn.functional.conv2d(
        x, w, stride=2, groups=3), label="depthwise"),
    Case("conv_transpose2d", ((2, 4, 3, 3), (4, 3, 3, 3), (6,)),
         lambda m, x, w, b: m.nn.functional.conv_transpose2d(x, w, b, stride=2, groups=2),
         label="groups"),
    Case("conv2d_input_backward", ((1, 4, 5, 5), (4, 2, 3, 3)), lambda m, x, w: m.autograd.grad(
        (m.nn.functional.conv2d(x, w, groups=2) ** 2).sum(), x, create_graph=True)[0],
        label="groups"),
    Case("log_sigmoid", ((2, 5),), lambda m, a: m.nn.functional.logsigmoid(a * 8)),
    # a 0-d gradient reaches the formulas as a NumPy scalar, not an array
    Case("log_sigmoid", ((),), lambda m, a: m.nn.functional.logsigmoid(a * 3), label="0-d"),
    Case("softmax", ((),), lambda m, a: (a * 3).softmax(0), label="0-d"),
    Case("log_softmax", ((),), lambda m, a: (a * 3).log_softmax(0), label="0-d"),
    # the rest of the activations (nn/more_activations.py), each with its create_graph node
    Case("hardtanh", ((2, 5),), lambda m, a: m.nn.functional.hardtanh(a * 2, -1.5, 1.0)),
    Case("hardtanh_backward", ((2, 5),), _second(lambda m, a: m.nn.functional.relu6(a * 4))),
    Case("scaled_elu", ((2, 5),), lambda m, a: m.nn.functional.selu(a * 2)),
    Case("scaled_elu_backward", ((2, 5),), _second(lambda m, a: m.nn.functional.selu(a * 2))),
    Case("scaled_elu_", ((2, 5),), lambda m, a: m.nn.functional.selu(a * 2, inplace=True)),
    Case("celu", ((2, 5),), lambda m, a: m.nn.functional.celu(a * 2, 0.5)),
    Case("celu_", ((2, 5),), lambda m, a: m.nn.functional.celu(a * 2, 0.5, inplace=True)),
    Case("prelu", ((2, 3, 4), (3,)), lambda m, a, w: m.nn.functional.prelu(a, w)),
    Case("prelu_input_backward", ((2, 3, 4), (1,)), lambda m, a, w: m.autograd.grad(
        m.nn.functional.prelu(a, w).pow(2).sum(), a, create_graph=True)[0]),
    Case("prelu_weight_backward", ((2, 3, 4), (3,)), lambda m, a, w: m.autograd.grad(
        m.nn.functional.prelu(a, w).pow(2).sum(), w, create_graph=True)[0]),
    Case("mish", ((2, 5),), lambda m, a: m.nn.functional.mish(a * 3)),
    Case("hardswish", ((2, 5),), lambda m, a: m.nn.functional.hardswish(a * 4)),
    Case("hardswish_backward", ((2, 5),), _second(lambda m, a: m.nn.functional.hardswish(a * 4))),
    Case("hardsigmoid", ((2, 5),), lambda m, a: m.nn.functional.hardsigmoid(a * 4)),
    Case("hardsigmoid_backward", ((2, 5),),
         _second(lambda m, a: m.nn.functional.hardsigmoid(a * 4)), label="name-only"),
    Case("glu", ((2, 6),), lambda m, a: m.nn.functional.glu(a, 1)),
    Case("glu_backward", ((2, 6),), _second(lambda m, a: m.nn.functional.glu(a, 1) * a[:, :3])),
    Case("glu_backward", ((4, 3),), _second(lambda m, a: m.nn.functional.glu(a, 0)),
         label="first-dim"),
    Case("threshold", ((2, 5),), lambda m, a: m.nn.functional.threshold(a, 0.1, 2.0)),
    Case("threshold_", ((2, 5),), lambda m, a: m.nn.functional.threshold(a * 1, 0.1, -2.0, True)),
    Case("threshold_backward", ((2, 5),),
         _second(lambda m, a: m.nn.functional.threshold(a, 0.1, 2.0))),
    Case("leaky_relu_", ((2, 5),), lambda m, a: m.nn.functional.leaky_relu_(a * 1, 0.2)),
    Case("softshrink", ((2, 5),), lambda m, a: m.nn.functional.softshrink(a * 2, 0.7)),
    Case("softshrink_backward", ((2, 5),),
         _second(lambda m, a: m.nn.functional.softshrink(a * 2))),
    Case("hardshrink", ((2, 5),), lambda m, a: m.nn.functional.hardshrink(a * 2, 0.7)),
    Case("hardshrink_backward", ((2, 5),),
         _second(lambda m, a: m.nn.functional.hardshrink(a * 2))),
    Case("linalg_cross", ((2, 3), (2, 3)), lambda m, a, b: m.cross(a, b, dim=1)),
    Case("linalg_cross", ((3,), (3,)), lambda m, a, b: m.autograd.grad(
        m.linalg.cross(a, b).pow(2).sum(), a, create_graph=True)[0], label="second"),
    Case("cdist", ((3, 2), (4, 2)), lambda m, a, b: m.cdist(a, b)),
    Case("cdist", ((2, 3, 2), (2, 4, 2)), lambda m, a, b: m.cdist(a, b, p=1), label="p1"),
    Case("cdist", ((3, 2), (4, 2)), lambda m, a, b: m.cdist(a, b, p=3), label="p3"),
    Case("euclidean_dist", ((30, 2), (4, 2)), lambda m, a, b: m.cdist(a, b)),
    Case("euclidean_dist", ((30, 2), (2, 4, 2)), lambda m, a, b: m.cdist(a, b), label="batch"),
    Case("euclidean_dist", ((30, 2), (4, 2)), lambda m, a, b: m.autograd.grad(
        m.cdist(a, b).pow(3).sum(), b, create_graph=True)[0], label="second"),
    Case("cdist_backward", ((3, 2), (4, 2)), lambda m, a, b: m.autograd.grad(
        m.cdist(a, b).pow(2).sum(), a, create_graph=True)[0], label="name-only"),
    Case("xlogy", ((2, 3), (2, 3)), lambda m, a, b: m.xlogy(a, b), domain="positive"),
    Case("xlogy_scalar_self", ((2, 3),), lambda m, a: m.xlogy(1.5, a), domain="positive"),
    Case("xlogy_scalar_other", ((2, 3),), lambda m, a: a.xlogy(2.5), domain="positive"),
    Case("cholesky_solve", ((3, 2), (3, 3)), lambda m, b, a: m.cholesky_solve(
        b, m.linalg.cholesky(a @ a.mT + 3 * m.eye(3, dtype=a.dtype)))),
    Case("cholesky_solve", ((3, 2), (3, 3)), lambda m, b, a: m.cholesky_solve(
        b, m.linalg.cholesky(a @ a.mT + 3 * m.eye(3, dtype=a.dtype), upper=True), upper=True),
        label="upper"),
    Case("upsample_nearest2d", ((1, 2, 3, 3),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=2)),
    Case("upsample_nearest2d", ((1, 1, 4, 5),), lambda m, a: m.nn.functional.interpolate(
        a, size=(3, 7)), label="size"),
    Case("upsample_bilinear2d", ((1, 2, 3, 3),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=2, mode="bilinear")),
    Case("upsample_bilinear2d", ((1, 1, 4, 5),), lambda m, a: m.nn.functional.interpolate(
        a, size=(7, 3), mode="bilinear", align_corners=True), label="corners"),
    Case("upsample_bicubic2d", ((1, 2, 4, 5),), lambda m, a: m.nn.functional.interpolate(
        a, size=(7, 3), mode="bicubic")),
    Case("upsample_bicubic2d_backward", ((1, 1, 4, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, scale_factor=2, mode="bicubic",
                                                 align_corners=True))),
    Case("upsample_nearest2d_backward", ((1, 2, 3, 3),), _second(
        lambda m, a: m.nn.functional.interpolate(a, scale_factor=2))),
    Case("upsample_bilinear2d_backward", ((1, 1, 4, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=(7, 3), mode="bilinear"))),
    Case("upsample_bilinear2d_aa", ((1, 2, 7, 6),), lambda m, a: m.nn.functional.interpolate(
        a, size=(3, 4), mode="bilinear", antialias=True)),
    Case("upsample_bicubic2d_aa", ((1, 2, 7, 6),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=0.45, mode="bicubic", antialias=True)),
    Case("upsample_bicubic2d_aa", ((1, 1, 4, 5),), lambda m, a: m.nn.functional.interpolate(
        a, size=(3, 7), mode="bicubic", antialias=True, align_corners=True), label="corners"),
    Case("upsample_bilinear2d_aa_backward", ((1, 1, 6, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=(4, 2), mode="bilinear",
                                                 antialias=True))),
    Case("upsample_bicubic2d_aa_backward", ((1, 1, 6, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=(3, 8), mode="bicubic",
                                                 antialias=True))),
    Case("upsample_nearest1d", ((1, 2, 5),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=1.5)),
    Case("upsample_nearest_exact1d", ((1, 2, 5),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=1.5, mode="nearest-exact")),
    Case("upsample_nearest_exact2d", ((1, 2, 5, 4),), lambda m, a: m.nn.functional.interpolate(
        a, size=(3, 7), mode="nearest-exact")),
    Case("upsample_nearest_exact1d_backward", ((1, 2, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=8, mode="nearest-exact"))),
    Case("upsample_nearest_exact2d_backward", ((1, 2, 3, 3),), _second(
        lambda m, a: m.nn.functional.interpolate(a, scale_factor=1.7, mode="nearest-exact"))),
    Case("upsample_linear1d", ((2, 1, 5),), lambda m, a: m.nn.functional.interpolate(
        a, scale_factor=2, mode="linear")),
    Case("upsample_linear1d", ((1, 2, 5),), lambda m, a: m.nn.functional.interpolate(
        a, size=7, mode="linear", align_corners=True), label="corners"),
    Case("upsample_nearest1d_backward", ((1, 2, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=3))),
    Case("upsample_linear1d_backward", ((1, 2, 5),), _second(
        lambda m, a: m.nn.functional.interpolate(a, size=8, mode="linear"))),
    *(Case(f"{op}{dims}d", ((1, 2, 3, 4, 5)[-dims - 1:],), _padded(mode, dims))
      for op, mode in (("reflection_pad", "reflect"), ("replication_pad", "replicate"))
      for dims in (1, 2, 3)),
    *(Case(f"{op}{dims}d_backward", ((1, 2, 3, 4, 5)[-dims - 1:],), _second(_padded(mode, dims)))
      for op, mode in (("reflection_pad", "reflect"), ("replication_pad", "replicate"))
      for dims in (1, 2, 3)),
    Case("pixel_shuffle", ((2, 8, 2, 3),), lambda m, a: m.nn.functional.pixel_shuffle(a, 2)),
    Case("channel_shuffle", ((2, 6, 2, 3),), lambda m, a: m.nn.functional.channel_shuffle(a, 3)),
    Case("pixel_unshuffle", ((2, 2, 4, 6),), lambda m, a: m.nn.functional.pixel_unshuffle(a, 2)),
    Case("group_norm", ((2, 4, 3, 3), (4,), (4,)), lambda m, a, w, b: m.nn.functional.group_norm(
        a, 2, w, b)),
    Case("group_norm", ((2, 4, 5),), _second(lambda m, a: m.nn.functional.group_norm(a, 2)),
         label="second"),
    Case("nll_loss2d", ((2, 5, 3, 2),), lambda m, a: m.nn.functional.nll_loss(
        a, m.tensor([[[0, 4], [1, 2], [3, 3]], [[2, 0], [1, 1], [4, 0]]]), reduction="none")),
    Case("nll_loss2d", ((2, 5, 3),), lambda m, a: m.nn.functional.cross_entropy(
        a, m.tensor([[0, 4, 1], [2, 2, 3]]), weight=m.linspace(0.5, 2, 5, dtype=a.dtype)),
        label="weighted"),
    Case("conv1d", ((2, 4, 7), (6, 2, 3), (6,)), lambda m, x, w, b: m.nn.functional.conv1d(
        x, w, b, stride=2, padding=1, groups=2)),
    Case("conv1d_input_backward", ((2, 4, 7), (3, 4, 2)), _second_of_first(
        lambda m, x, w: m.nn.functional.conv1d(x, w, dilation=2))),
    Case("conv1d_weight_backward", ((3, 4, 2), (2, 4, 7)), _second_of_first(
        lambda m, w, x: m.nn.functional.conv1d(x, w, stride=2, padding=1))),
    Case("constant_pad", ((1, 2, 3, 3),), lambda m, a: m.nn.functional.pad(a, (1, 2, 0, 1))),
    Case("constant_pad", ((2, 4),), lambda m, a: m.nn.functional.pad(a, (-1, 2), value=3.0),
         label="crop"),
    Case("conv_transpose1d", ((2, 2, 5), (2, 3, 3)), lambda m, x, w:
         m.nn.functional.conv_transpose1d(x, w, None, 2, 1, 1)),
    Case("conv_transpose1d", ((2, 5), (2, 2, 2), (4,)), lambda m, x, w, b:
         m.nn.functional.conv_transpose1d(x, w, b, groups=2, dilation=2), label="grouped"),
    Case("conv_transpose1d_input_backward", ((2, 2, 5), (2, 3, 3)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv_transpose1d(x, w, None, 2, 1, 1) ** 2).sum(), x,
                         create_graph=True)[0]),
    Case("conv_transpose1d_weight_backward", ((1, 4, 5), (4, 1, 2)), lambda m, x, w:
         m.autograd.grad((m.nn.functional.conv_transpose1d(x, w, None, 2, 0, 1, 2) ** 2).sum(),
                         w, create_graph=True)[0]),
    Case("im2col", ((1, 2, 4, 5),), lambda m, a: m.nn.functional.unfold(a, 3, padding=1)),
    Case("im2col", ((1, 1, 5, 5),), lambda m, a: m.nn.functional.unfold(a, 2, stride=2,
                                                                        dilation=2),
         label="strided"),
    Case("col2im", ((1, 8, 9),), lambda m, a: m.nn.functional.fold(a, (4, 4), 2)),
    Case("linalg_cholesky", ((3, 3),), lambda m, a: m.linalg.cholesky(
        a @ a.mT + 3 * m.eye(3, dtype=a.dtype))),
    Case("linalg_cholesky", ((3, 3),), lambda m, a: m.autograd.grad(m.linalg.cholesky(
        a @ a.mT + 3 * m.eye(3, dtype=a.dtype), upper=True).sum(), a, create_graph=True)[0],
        label="second-order-upper"),
    Case("cholesky", ((3, 3),), lambda m, a: m.cholesky(a @ a.mT + 3 * m.eye(3, dtype=a.dtype))),
    Case("cholesky", ((3, 3),), lambda m, a: m.autograd.grad((a @ a.mT + 3 * m.eye(
        3, dtype=a.dtype)).cholesky(upper=True).sum(), a, create_graph=True)[0],
        label="second-order-upper"),
    Case("linalg_qr", ((4, 3),), lambda m, a: m.linalg.qr(a).R),
    Case("linalg_qr", ((2, 5),), lambda m, a: m.linalg.qr(a).R, label="wide"),
    Case("linalg_householder_product", ((5, 3), (2,)),
         lambda m, a, tau: m.linalg.householder_product(a, tau)),
    Case("linalg_householder_product", ((2, 4, 3), (2, 3)),
         lambda m, a, tau: m.orgqr(a, tau), label="batched"),
    Case("geqrf", ((4, 3),), lambda m, a: m.geqrf(a).a, label="name-only"),
    Case("linalg_eigh", ((4, 4),), lambda m, a: m.linalg.eigvalsh(a + a.mT)),
    Case("linalg_svd", ((4, 3),), lambda m, a: m.linalg.svdvals(a)),
    Case("diagonal", ((3, 4),), lambda m, a: a.diagonal(1)),
    Case("diagonal", ((2, 3, 3),), lambda m, a: m.diagonal(a, -1, 2, 1), label="batched"),
    Case("diagonal_backward", ((3, 3),), lambda m, a: m.autograd.grad(
        (a.diagonal() ** 2).sum(), a, create_graph=True)[0]),
]

# the op families' own cases, kept beside their rows (tests/npgrad/cases_*.py)
from tests.npgrad.cases_complex import COMPLEX_CASES  # noqa: E402
from tests.npgrad.cases_more_math import MORE_MATH_CASES  # noqa: E402
from tests.npgrad.cases_selection import SELECTION_CASES  # noqa: E402

CASES += SELECTION_CASES + MORE_MATH_CASES + COMPLEX_CASES
