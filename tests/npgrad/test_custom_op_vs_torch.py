"""torch.library.custom_op against torch run here, as PyTorch's "Custom Python Operators"
tutorial uses it: a NumPy-backed operator with register_fake and register_autograd (its node
GeneratedBackwardFor_<ns>_<op>_defaultBackward, the kernel's inputs detached), several
outputs and a keyword input, an operator without a formula (its backward's error), a wrong
number of gradients, an output that aliases an input, a mutating operator (its version
bump), torch.ops.<ns>.<op>, torch's errors for a missing annotation and namespace, and
torch.library.opcheck's four checks (an undeclared mutation, a missing fake function, a
missing formula)."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import numpy as np
import torch
from torch import Tensor

@torch.library.custom_op("lesson::cube", mutates_args=())
def cube(x: Tensor) -> Tensor:
    return torch.from_numpy(x.numpy() ** 3)

@cube.register_fake
def _(x):
    return torch.empty_like(x)

def keep_input(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])

def cube_backward(ctx, grad):
    x, = ctx.saved_tensors
    return grad * 3 * x ** 2

cube.register_autograd(cube_backward, setup_context=keep_input)
torch.manual_seed(5)
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
y = cube(x)
print(y, type(y.grad_fn).__name__, type(y.grad_fn).__module__, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, torch.allclose(x.grad, 3 * x.detach() ** 2))
print(cube, type(cube), torch.ops.lesson.cube, torch.ops.lesson.cube.default)
print(torch.ops.lesson.cube(torch.tensor([2.0])), cube(torch.tensor([2.0])).requires_grad)
with torch.no_grad():
    print(cube(x).grad_fn)

@torch.library.custom_op("lesson::affine", mutates_args=())
def affine(x: Tensor, scale: float, shift: Tensor) -> tuple[Tensor, Tensor]:
    return x * scale + shift, x.clone()

def remember(ctx, inputs, output):
    print("inputs", [type(i).__name__ for i in inputs], "outputs", len(output))
    ctx.scale = inputs[1]

def affine_backward(ctx, g_out, g_copy):
    return g_out * ctx.scale + g_copy, None, g_out

affine.register_autograd(affine_backward, setup_context=remember)
a = torch.ones(3, requires_grad=True)
s = torch.zeros(3, requires_grad=True)
out, copy = affine(a, 2.5, shift=s)
(out * torch.arange(3.0) + copy).sum().backward()
print(out, copy, a.grad, s.grad)
affine.register_autograd(lambda ctx, g1, g2: g1, setup_context=remember)
try:
    affine(a, 1.0, s)[0].sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)

@torch.library.custom_op("lesson::no_formula", mutates_args=())
def no_formula(x: Tensor) -> Tensor:
    return x.sin()
z = no_formula(a)
print(z)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)

@torch.library.custom_op("lesson::same", mutates_args=())
def same(x: Tensor) -> Tensor:
    return x
try:
    same(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError", str(e).split(": ", 1)[1])

@torch.library.custom_op("lesson::double_", mutates_args={"x"})
def double_(x: Tensor) -> None:
    np.multiply(x.numpy(), 2, out=x.numpy())
t = torch.tensor([1.0, 3.0])
before = t._version
print(double_(t), t, t._version - before)
for make in (lambda: torch.library.custom_op("lesson::bare", mutates_args=())(lambda x: x),
             lambda: torch.ops.lesson.missing):
    try:
        make()
    except (ValueError, AttributeError) as e:
        print(type(e).__name__, e)

print(torch.library.opcheck(cube, (torch.randn(3, dtype=torch.float64, requires_grad=True),)))
no_formula.register_fake(lambda x: torch.empty_like(x))

@torch.library.custom_op("lesson::sneaky", mutates_args=())
def sneaky(x: Tensor) -> Tensor:
    x.numpy()[0] = 0.0
    return x.clone()
for op, rg in ((no_formula, False), (no_formula, True), (same, False), (sneaky, False),
               (torch.ops.lesson.affine, True)):
    sample = (torch.randn(2, requires_grad=rg), 2.0, torch.ones(2)) if op is not no_formula \
        and op is not same and op is not sneaky else (torch.randn(2, requires_grad=rg),)
    try:
        print(torch.library.opcheck(op, sample))
    except Exception as e:
        print(type(e).__module__, type(e).__name__, str(e).split(" (with implementation")[0])
result = torch.library.opcheck(sneaky, (torch.ones(2),), raise_exception=False)
print({name: type(value).__name__ for name, value in result.items()})
print(torch.randn(2))
'''


def test_custom_ops_run_and_differentiate_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
