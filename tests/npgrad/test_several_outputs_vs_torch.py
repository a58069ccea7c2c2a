"""Custom Functions with several differentiable outputs, and once_differentiable, on npgrad:
the same values, gradients, nodes, output numbers and errors as torch."""

from __future__ import annotations

import pytest

from tests.oracle import run_printing

SCRIPTS = {
    "forward and setup_context apart, one gradient per output": """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x, output[1])

    @staticmethod
    def backward(ctx, grad, grad_dx):
        x, dx = ctx.saved_tensors
        print("backward got", grad, grad_dx)
        return grad * dx + grad_dx * 6 * x

x = torch.tensor([0.5, -2.0, 1.5], dtype=DTYPE, requires_grad=True)
y, dy = Cube.apply(x)
print(y, dy, y.grad_fn is dy.grad_fn, y.output_nr, dy.output_nr, y.grad_fn.next_functions)
h = dy * 2
print(h.grad_fn.next_functions[0][1], (y + dy).grad_fn.next_functions)
dy.sum().backward(retain_graph=True)
print(x.grad)
x.grad = None
(y.sum() + (dy * y).sum()).backward(retain_graph=True)
print(x.grad)
print(torch.autograd.grad(y.sum(), dy, allow_unused=True))
print(torch.autograd.grad((y * dy).sum(), [y, dy]))
dy.backward(torch.ones(3, dtype=DTYPE))
print(x.grad)
with torch.no_grad():
    print(Cube.apply(x)[1].requires_grad)
print(Cube.apply(torch.ones(2, dtype=DTYPE)))
""",
    "materialized zeros, None without them, non-differentiable outputs": """
class Three(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        doubled = x * 2
        ctx.mark_non_differentiable(doubled)
        return x.clone(), x * 3, doubled, (x > 0)

    @staticmethod
    def backward(ctx, a, b, c, d):
        print("got", a, b, c, d)
        a = torch.zeros_like(b) if a is None else a
        b = torch.zeros_like(a) if b is None else b
        return a + 3 * b, None

x = torch.tensor([1.0, -2.0], dtype=DTYPE, requires_grad=True)
for materialize in (True, False):
    a, b, c, d = Three.apply(x, materialize)
    print(a, b, c, d, c.requires_grad, d.requires_grad, a.output_nr, b.output_nr)
    a.sum().backward()
    b.sum().backward()
    print(x.grad)
""",
    "hooks, retain_grad and views on one output": """
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2].clone(), x[2:].clone()

    @staticmethod
    def backward(ctx, first, second):
        return torch.cat([first, second])

x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], dtype=DTYPE, requires_grad=True)
left, right = Split.apply(x)
left.register_hook(lambda g: print("left hook", g))
right.retain_grad()
right.register_hook(lambda g: g * 10)
doubled = right.view(3) * 2
print(right, right.grad_fn, doubled.grad_fn.next_functions[0][0].next_functions)
(left.sum() * 2 + (doubled ** 2).sum()).backward()
print(x.grad, right.grad, left.grad_fn.name())
""",
    "double backward through several outputs": """
class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, grad_sin, grad_cos):
        (x,) = ctx.saved_tensors
        return grad_sin * x.cos() - grad_cos * x.sin()

x = torch.tensor([0.25, 1.0], dtype=DTYPE, requires_grad=True)
s, c = SinCos.apply(x)
(g,) = torch.autograd.grad((s * s + c).sum(), x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)
""",
    "once_differentiable: no graph, or an Error node under create_graph": """
from torch.autograd.function import once_differentiable

class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(-1, 1)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)

z = torch.tensor([0.3, 2.0], dtype=DTYPE, requires_grad=True)
(g,) = torch.autograd.grad(Clip.apply(z).sum(), z, create_graph=True)
print(g, g.requires_grad)
v = torch.ones(2, dtype=DTYPE, requires_grad=True)
(g,) = torch.autograd.grad(Clip.apply(z), z, v, create_graph=True)
print(g, g.requires_grad, g.grad_fn, g.grad_fn.name(), g.is_leaf)
for attempt in (lambda: g.sum().backward(), lambda: torch.autograd.grad(g.sum(), v)):
    try:
        attempt()
    except RuntimeError as error:
        print(type(error).__name__, error)
(g,) = torch.autograd.grad(Clip.apply(z * 1), z, v, create_graph=True)
print(g)
""",
}


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_several_outputs_print_what_torch_prints(name, dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    code = SCRIPTS[name].replace("DTYPE", dtype)
    expected = run_printing(code, torch)
    assert run_printing(code, npgrad) == expected
