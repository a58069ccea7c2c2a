"""Code that compiles its model (torch.jit.script, torch.jit.trace, fork, freeze, save and
load) and code that extends torch with ``__torch_function__`` (tensor subclasses, tensor-like
objects), printed as torch prints it: the compiled copies share the model's parameters, keep
their own training flags and attributes and call the model as often as torch's checked trace
does; a subclass's __torch_function__ is handed what torch hands it and its results keep its
type. Each script runs as a program of its own (TorchScript reads source files; dispatch, once
on, stays on in its process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPTS = {
    "torch.jit.script and trace of a module and of functions": """
import torch.nn as nn
torch.manual_seed(0)
class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4, dtype=DTYPE)
        self.drop = nn.Dropout(0.5)
        self.calls = 0
    def forward(self, x, h):
        self.calls += 1
        return torch.tanh(self.drop(self.lin(x)) + self.helper(h))
    def helper(self, h):
        return h * 2
cell = Cell().eval()
x, h = torch.randn(3, 4, dtype=DTYPE), torch.randn(3, 4, dtype=DTYPE)
traced = torch.jit.trace(cell, (x, h))
print(cell.calls, traced, type(traced).__name__, traced.training)
cell.train()
scripted = torch.jit.script(cell)
print(scripted, type(scripted).__name__, scripted.calls, scripted.lin.weight is cell.lin.weight)
print(scripted.lin, scripted.original_name, scripted.lin.in_features)
out = scripted(x, h)
out.sum().backward()
print(out, cell.lin.bias.grad, scripted.calls, cell.calls)
scripted.eval()
print(cell.training, scripted.training, scripted.drop.training,
      torch.equal(scripted(x, h), cell.eval()(x, h)))
print(isinstance(scripted, torch.jit.ScriptModule), isinstance(traced, torch.jit.ScriptModule),
      isinstance(scripted, nn.Module))
print(list(scripted.state_dict().keys()), len(list(scripted.parameters())),
      [n for n, _ in scripted.named_modules()])
@torch.jit.script
def fused(a, b):
    if bool(a.sum() > 0):
        return a * b + 1
    return a - b
print(type(fused).__name__, fused.name, fused(x, h))
tf = torch.jit.trace(lambda a: a * 3, x[0])
print(type(tf).__name__, tf(x[0]))
fut = torch.jit.fork(fused, x, h)
print(torch.jit.wait(fut).shape, fut.done(), fut.then(lambda f: f.value().sum()).wait())
print(torch.jit.is_scripting(), torch.jit.is_tracing(), torch.jit.script(scripted) is scripted)
for bad in (cell, scripted.train()):
    try:
        torch.jit.freeze(bad)
    except RuntimeError as error:
        print(error)
frozen = torch.jit.freeze(scripted.eval())
print(type(frozen).__name__, torch.equal(frozen(x, h), scripted(x, h)))
try:
    scripted.nothing_here
except AttributeError as error:
    print(error)
""",
    "a compiled model saved and loaded back": """
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(3, 2, dtype=DTYPE), torch.nn.ReLU())
    def forward(self, x):
        return self.body(x).sum(-1)
net = Net()
torch.jit.script(net).save("model.pt")
loaded = torch.jit.load("model.pt")
x = torch.randn(4, 3, dtype=DTYPE)
print(type(loaded).__name__, loaded)
print(torch.equal(loaded(x), net(x)), [p.requires_grad for p in loaded.parameters()])
torch.jit.save(torch.jit.trace(net, x), "traced.pt")
print(torch.jit.load("traced.pt"))
""",
    "trace draws the model's random numbers as often as torch's checked trace": """
torch.manual_seed(1)
draws = []
def noisy(a):
    draws.append(1)
    return a + torch.rand(2, dtype=DTYPE)
traced = torch.jit.trace(noisy, torch.zeros(2, dtype=DTYPE), check_trace=False)
print(len(draws), torch.rand(1, dtype=DTYPE))
lin = torch.nn.Linear(2, 2, dtype=DTYPE)
calls = []
lin.register_forward_hook(lambda *args: calls.append(1))
torch.jit.trace(lin, torch.ones(1, 2, dtype=DTYPE))
print(len(calls), torch.rand(1, dtype=DTYPE))
""",
    "a logging tensor subclass sees each call, keeps its type and its graph": """
import torch.nn.functional as F
torch.manual_seed(0)
log = []
class Logged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        log.append((func.__name__, func is getattr(torch.Tensor, func.__name__, None),
                    len(args), type(kwargs).__name__))
        return super().__torch_function__(func, types, args, kwargs)
base = torch.randn(3, dtype=DTYPE, requires_grad=True)
t = base.as_subclass(Logged)
print(type(t).__name__, type(t.grad_fn).__name__, t.requires_grad, t.is_leaf, log)
steps = {"t*2": lambda: t * 2, "2*t": lambda: 2 * t, "1-t": lambda: 1 - t, "2/t": lambda: 2 / t,
         "t**2": lambda: t ** 2, "t@t": lambda: t @ t, "-t": lambda: -t, "t==1": lambda: t == 1,
         "t<1": lambda: t < 1, "t[0]": lambda: t[0], "t.sum()": lambda: t.sum(),
         "torch.sum": lambda: torch.sum(t), "torch.add": lambda: torch.add(base, t),
         "torch.cat": lambda: torch.cat([t, base]), "F.relu": lambda: F.relu(t),
         "t.shape": lambda: t.shape, "len": lambda: len(t), "iter": lambda: list(t),
         "in": lambda: 1.0 in t, "detach": lambda: t.detach(), "clone": lambda: t.clone(),
         "to": lambda: t.to(torch.float64), "repr": lambda: repr(t), "t.data": lambda: t.data}
for name, step in steps.items():
    log.clear()
    result = step()
    print(name, log, type(result).__name__, getattr(result, "grad_fn", None).__class__.__name__)
log.clear()
(t * t).sum().backward()
print(log, base.grad, t * 2)
class Plain(torch.Tensor):
    pass
p = torch.ones(2, dtype=DTYPE).as_subclass(Plain)
print(type(p + 1).__name__, type(torch.add(p, 1)).__name__, p + 1, repr(p))
print(torch.overrides.has_torch_function((p,)), torch.overrides.has_torch_function((base,)),
      torch.overrides.is_tensor_like(p), torch.overrides.is_tensor_like(3))
""",
    "objects with __torch_function__ of their own, and Parameter subclasses": """
torch.manual_seed(0)
class Scaled:
    def __init__(self, n, v):
        self.n, self.v = n, v
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.mean:
            return float(args[0].v)
        if func is torch.add:
            return "added"
        return NotImplemented
print(torch.mean(Scaled(3, 2.5)), torch.add(Scaled(1, 1), 2),
      torch.add(torch.ones(1), Scaled(1, 1)))
try:
    torch.sum(Scaled(1, 1))
except TypeError as error:
    print(error)
class MyParam(torch.nn.Parameter):
    pass
mp = MyParam(torch.ones(2, dtype=DTYPE))
w = torch.randn(2, dtype=DTYPE, requires_grad=True)
out = torch.mul(w, mp) + w * mp
out.sum().backward()
print(type(mp).__name__, mp.requires_grad, type(mp + 1).__name__, mp.grad, w.grad)
print(type(torch.nn.Parameter(torch.ones(1)) * 2).__name__, isinstance(mp, torch.Tensor))
try:
    print(f"{torch.nn.Parameter(torch.tensor(1.5)):.2f}")
except TypeError as error:
    print(error)
with torch._C.DisableTorchFunctionSubclass():
    print(type(torch.ones(1).as_subclass(MyParam) + 1).__name__)
""",
    "a subclass that prints each call: the kernel's reading of the tensors after the run "
    "prints nothing more": """
class Loud(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        print("called", func.__name__)
        return super().__torch_function__(func, types, args, kwargs)
w = torch.ones(2, dtype=DTYPE, requires_grad=True)
loud = w.as_subclass(Loud)
out = (loud * 3).sum()
out.backward()
print(w.grad)
""",
}


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize("name", list(SCRIPTS))
def test_compiling_code_prints_what_torch_prints(name, dtype, tmp_path):
    """Each script run as a program, by python and by ``playground run`` (TorchScript reads a
    function's source, so torch can compile only code saved in a file)."""
    pytest.importorskip("torch")
    script = tmp_path / "compiling.py"
    script.write_text("import torch\n" + SCRIPTS[name].replace("DTYPE", dtype), encoding="utf-8")
    printed = []
    for command in ([sys.executable, str(script)],
                    [sys.executable, "-m", "playground", "run", "--engine", "numpy", str(script)]):
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout)
    assert printed[0].count("\n") >= 2 and printed[0] == printed[1]
