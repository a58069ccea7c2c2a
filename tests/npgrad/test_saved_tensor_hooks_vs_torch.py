"""torch.autograd.graph's saved-tensor hooks on npgrad against real torch, run here: which
tensors each op packs and in what order (torch's generated code saves inputs by name, then
outputs), when the unpack hook runs (each read: backward, a retained second backward,
``grad_fn._saved_self``, a custom Function's ``saved_tensors``, create_graph), and torch's
behaviour around them: no version check, no_grad, nesting, disabling, save_on_cpu's copies,
a pack hook that changes its input, an unpack hook that returns no tensor."""

from __future__ import annotations

import pytest

from tests.oracle import run_printing

PRELUDE = """
import torch
a = torch.tensor([1., 2.], requires_grad=True); b = torch.tensor([3., 4.], requires_grad=True)
M = torch.ones(2, 2, requires_grad=True)
names = {id(a): "a", id(b): "b", id(M): "M"}
def pack(x):
    made = "new" + str(tuple(x.shape)) + (x.grad_fn.name() if x.grad_fn else "")
    print("  pack", names.get(id(x), made))
    return ("P", x)
def unpack(p):
    print("  unpack", p[1])
    return p[1]
"""

SCRIPTS = {
    "each op packs what torch packs, in torch's order, and unpacks as backward reads": """
for label, f in [("mul", lambda: a * b), ("div", lambda: a / b), ("pow", lambda: a ** b),
                 ("matmul", lambda: M @ a), ("sigmoid", lambda: a.sigmoid()),
                 ("atan2", lambda: torch.atan2(a, b)), ("sub", lambda: a - b),
                 ("max", lambda: torch.maximum(a, b)), ("exp", lambda: a.exp()),
                 ("square", lambda: a * a), ("scalar", lambda: a * 2), ("tanh", lambda: a.tanh()),
                 ("einsum", lambda: torch.einsum("ij,j->i", M, a)), ("addmm", lambda: torch.addmm(
                     b, M, M)), ("softmax", lambda: a.softmax(0)), ("linear", lambda: torch.nn.
                     functional.linear(M, M, b))]:
    print(label)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = f()
    y.sum().backward()
print(a.grad, b.grad)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = a * b
print(y.grad_fn._saved_self, y.grad_fn._saved_other)
""",
    "in-place changes after packing go unchecked; no_grad packs nothing": """
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    c = a * 1
    d = c * c
c.add_(1)
d.sum().backward(); print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack), torch.no_grad():
    e = a * b
""",
    "a pack hook must not change its input; save_on_cpu keeps copies": """
def bad(x): x.add_(1); return x
with torch.autograd.graph.saved_tensors_hooks(bad, lambda x: x):
    try:
        f = (a * 1) * b
    except RuntimeError as e: print("ERR", e)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    c = a * 1
    g = (c * b).sum()
c.add_(5)
a.grad = None; g.backward(); print(a.grad)
""",
    "retained graphs unpack again; the innermost hooks apply; disabled hooks raise": """
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    h = (a * b).sum()
h.backward(retain_graph=True); h.backward()
with torch.autograd.graph.saved_tensors_hooks(lambda x: print("outer") or x, lambda x: x):
    with torch.autograd.graph.saved_tensors_hooks(lambda x: print("inner") or x, lambda x: x):
        k = a * b
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
    except RuntimeError as e: print("ERR", e)
""",
    "what unpack returns is used, and must be a tensor; custom Functions and create_graph": """
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 1, lambda x: x * 10):
    m = (a * b).sum()
a.grad = None; m.backward(); print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: 5):
    m = (a * b).sum()
try: m.backward()
except Exception as e: print(type(e).__name__, e)
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x); return x * 2
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors; return g * x
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    o = F.apply(a).sum()
o.backward()
x = torch.tensor([0.5, 1.5], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    (g,) = torch.autograd.grad((x.sin() * x).sum(), x, create_graph=True)
g.sum().backward(); print(x.grad)
""",
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_saved_tensor_hooks_print_what_torch_prints(name, torch, engine):
    code = PRELUDE + SCRIPTS[name]
    assert run_printing(code, engine) == run_printing(code, torch)
