"""torch.autograd.forward_ad on npgrad: dual levels, make_dual/unpack_dual, and the tangents
of the common ops, compared with torch's (values, tangents, printed text, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import run_printing

SCRIPT = """
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([0.5, 1.0, 2.0], dtype=DTYPE)
tangent = torch.tensor([1.0, 0.0, 1.0], dtype=DTYPE)
for attempt in ("fwAD.make_dual(primal, tangent)", "fwAD.unpack_dual(primal)",
                "fwAD.exit_dual_level()"):
    try:
        print(eval(attempt))
    except RuntimeError as error:
        print(type(error).__name__, error)
with fwAD.dual_level() as level:
    dual = fwAD.make_dual(primal, tangent)
    unpacked = fwAD.unpack_dual(dual)
    print(level, dual, unpacked, type(unpacked).__name__, unpacked.tangent is tangent)
    print(unpacked.primal is primal, dual._base is primal, fwAD.unpack_dual(primal))
    out = dual ** 2 + primal.sin() * dual
    print(out, fwAD.unpack_dual(out).primal, fwAD.unpack_dual(out).tangent)
    print(dual * 2, (dual / primal).sum(), dual.detach(), fwAD.unpack_dual(dual.clone()))
    print(fwAD.unpack_dual(dual.view(3, 1).t()), fwAD.unpack_dual(dual[1:]))
    print(fwAD.unpack_dual(dual @ torch.ones(3, 2, dtype=DTYPE)), dual > 1)
    long_row = fwAD.make_dual(torch.linspace(0, 1, 12, dtype=DTYPE), torch.ones(12, dtype=DTYPE))
    print(long_row * 3)
    for attempt in ("fwAD.enter_dual_level()", "fwAD.make_dual(primal, torch.ones(2))",
                    "fwAD.make_dual(primal, torch.ones(3, dtype=torch.int64))",
                    "fwAD.make_dual(torch.ones(3, dtype=torch.int64), tangent)",
                    "fwAD.make_dual(dual, tangent)", "fwAD.make_dual(primal, tangent, level=3)",
                    "dual.floor_divide(2)"):
        try:
            print(attempt, eval(attempt))
        except (RuntimeError, ValueError, NotImplementedError) as error:
            print(attempt, type(error).__name__, error)
print(out, fwAD.unpack_dual(out))

x = torch.tensor([1.0, 2.0], dtype=DTYPE, requires_grad=True)
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.ones(2, dtype=DTYPE))
    print(dx, dx.requires_grad, fwAD.unpack_dual(dx * x).tangent.detach())
    loss = (dx * dx).sum()
    print(loss)
    loss.backward()
print(x.grad)

class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * 2 + b

    @staticmethod
    def jvp(ctx, a_t, b_t):
        print("jvp got", a_t, b_t)
        return a_t * 2 + b_t

class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    print(Twice.apply(dual, torch.ones(3, dtype=DTYPE)))
    try:
        NoJvp.apply(dual)
    except NotImplementedError as error:
        print(error)
"""


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
def test_forward_ad_prints_what_torch_prints(dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    code = SCRIPT.replace("DTYPE", dtype)
    expected = run_printing(code, torch)
    assert run_printing(code, npgrad) == expected


# Each case: a function of a dual x (3x4) and a plain y (3x4) whose primal and tangent are
# compared.
CASES = {
    "add": lambda t, x, y: x + y * 2 + 1,
    "sub": lambda t, x, y: 3 - x - y,
    "mul": lambda t, x, y: x * y * 0.5,
    "div": lambda t, x, y: x / (y + 2) + (y + 2) / (x + 3),
    "neg": lambda t, x, y: -x,
    "pow": lambda t, x, y: (x + 2) ** 2 + (x + 2) ** 0.5 + 2 ** x + (y + 2) ** (x + 1),
    "sin cos": lambda t, x, y: x.sin() + x.cos(),
    "exp log": lambda t, x, y: x.exp() + (x + 3).log(),
    "tanh sigmoid relu": lambda t, x, y: x.tanh() + x.sigmoid() + x.relu(),
    "sqrt": lambda t, x, y: (x + 3).sqrt(),
    "matmul": lambda t, x, y: x @ y.T @ x + y @ x.T @ y,
    "batched matmul": lambda t, x, y: t.matmul(x.view(3, 2, 2), y.view(3, 2, 2)) + 0 * y.sum(),
    "mm": lambda t, x, y: t.mm(x, y.T),
    "vector products": lambda t, x, y: x[0] @ y[1] + x @ y[2],
    "sum mean": lambda t, x, y: x.sum() + x.mean() + x.sum(0).mean() + x.mean(1, keepdim=True),
    "reshape view transpose": lambda t, x, y: x.reshape(4, 3).t() + x.view(12)[:4].view(1, 4)
    + x.transpose(0, 1).T,
    "indexing": lambda t, x, y: x[1] * x[:, 2:3] + x[[0, 2]].sum(0) + x[x > 0.1].sum(),
    "clone detach": lambda t, x, y: x.clone() * 2 + x.detach(),
    "softmax": lambda t, x, y: t.softmax(x, 1) + t.log_softmax(x, 0),
    "cat stack": lambda t, x, y: t.cat([x, y]).sum(0) + t.stack([x, y], 1).sum(1),
    "unsqueeze expand": lambda t, x, y: x.unsqueeze(0).expand(2, 3, 4).sum(0),
}


def _dual_run(torch, case, dtype):
    import torch.autograd.forward_ad as fwad_torch  # noqa: F401 - only to skip without torch

    from playground.npgrad.autograd import forward_ad as fwad_numpy

    fwad = fwad_torch if torch.__name__ == "torch" else fwad_numpy
    rng = np.random.default_rng(3)
    x, x_t, y = (torch.tensor(rng.standard_normal((3, 4)), dtype=dtype) for _ in range(3))
    with fwad.dual_level():
        out = case(torch, fwad.make_dual(x, x_t), y)
        primal, tangent = fwad.unpack_dual(out)
        return primal.detach().numpy().copy(), tangent.numpy().copy()


@pytest.mark.parametrize("precision", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_tangents_match_torch(name, precision):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    want = _dual_run(torch, CASES[name], getattr(torch, precision))
    got = _dual_run(npgrad, CASES[name], getattr(npgrad, precision))
    tolerance = 1e-5 if precision == "float32" else 1e-12
    for expected, actual in zip(want, got, strict=True):
        assert actual.dtype == expected.dtype
        np.testing.assert_allclose(actual, expected, rtol=tolerance, atol=tolerance)


IN_PLACE = """
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    primal = torch.ones(4)
    dual = fwAD.make_dual(primal, torch.tensor([1.0, 2.0, 3.0, 4.0]))
    dual.add_(1)  # make_dual's view: its own tangent changes, the primal gets none
    dual[1:3].mul_(10)  # a view of the primal: the dual's tangent changes there
    print(fwAD.unpack_dual(dual), fwAD.unpack_dual(primal).tangent, primal)
    copy = dual * 1
    copy.clamp_(0, 15).sin_()
    copy[0:2].mul_(5)  # a view of a tensor with a tangent: that tangent changes there
    print(fwAD.unpack_dual(copy).tangent)
    zeros = torch.zeros(4)
    zeros[1:].add_(dual[1:])  # a view of a tensor without one: it gets one, zeros elsewhere
    print(fwAD.unpack_dual(zeros).tangent)
print(torch.ones(2) * 3)  # (the fast paths are back)
"""


def test_in_place_writes_on_dual_tensors_carry_tangents_as_torchs():
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    assert run_printing(IN_PLACE, npgrad) == run_printing(IN_PLACE, torch)


def test_every_forward_rule_is_tied_to_a_row_of_the_rule_table():
    """An op's forward-mode fact lives in its row (``forward=ELEMENT_WISE``, torch's
    ``auto_element_wise``) or is a rule of _forward.py for an op the table has: no table of
    op names stands apart from it."""
    from playground.npgrad import _forward
    from playground.npgrad._rules import ELEMENT_WISE, RULES

    element_wise = {op for op, rule in RULES.items() if rule.forward == ELEMENT_WISE}
    assert element_wise == set(_forward._ELEMENT_WISE) and element_wise
    assert set(_forward._RULES) <= set(RULES), set(_forward._RULES) - set(RULES)
    for op in element_wise:  # what the row promises, the rule derived from it keeps
        assert _forward._RULES[op].__qualname__.startswith("_element_wise"), op


DUAL_PARAMETERS = """
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call

torch.manual_seed(0)
inputs = torch.randn(6, 5)
model = torch.nn.Linear(5, 3)
params = dict(model.named_parameters())
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():  # the tutorial's way: the module's own parameters made dual
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    print(fwAD.unpack_dual(model(inputs)).tangent.detach()[:2])

model = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
params = dict(model.named_parameters())
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():  # and with functional_call
    duals = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    print(fwAD.unpack_dual(functional_call(model, duals, inputs)).tangent.detach()[:2])


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x.exp()

    @staticmethod
    def jvp(ctx, gx):
        (x,) = ctx.saved_tensors
        return gx * x.exp() * FACTOR


x = torch.randn(3, dtype=torch.double, requires_grad=True)
for FACTOR in (1, 2):
    try:
        print(torch.autograd.gradcheck(Exp.apply, (x,), check_forward_ad=True,
                                       check_backward_ad=False, check_undefined_grad=False,
                                       check_batched_grad=False))
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_dual_parameters_through_modules_and_a_jvp_only_gradcheck_print_as_torch():
    """Forward-mode AD through modules whose parameters are dual (torch's forward-AD
    tutorial), and gradcheck of a Function that has a jvp and no backward (the check of
    forward mode only, its mismatch said as torch says it)."""
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    assert run_printing(DUAL_PARAMETERS, npgrad) == run_printing(DUAL_PARAMETERS, torch)
