# In the style of: "torch.compile introduction" tutorial pasted on a CPU box (backend="eager"/"aot_eager" to stay fast) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import torch
import torch.nn as nn
torch.manual_seed(0)
def foo(x, y):
    a = torch.sin(x)
    b = torch.cos(y)
    return a + b
opt_foo = torch.compile(foo, backend="eager")
x = torch.randn(4, 4); y = torch.randn(4, 4)
print(torch.allclose(opt_foo(x, y), foo(x, y)), opt_foo(x, y)[0].round(decimals=4))
class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)
    def forward(self, x):
        return torch.nn.functional.relu(self.lin(x))
mod = MyModule()
opt_mod = torch.compile(mod, backend="aot_eager")
print(type(opt_mod).__name__, opt_mod(x).shape)
out = opt_mod(x)
print(out.grad_fn is not None, out.requires_grad)
out.sum().backward()
print(mod.lin.weight.grad.round(decimals=4))
@torch.compile(backend="eager", fullgraph=False, dynamic=False)
def step(w, x):
    if x.sum() > 0:
        return (w * x).sum()
    return (w - x).sum()
w = torch.randn(4, requires_grad=True)
l = step(w, torch.ones(4)) + step(w, -torch.ones(4))
l.backward()
print(l.item(), w.grad)
mod.compile(backend="eager")
print(mod(x).sum().round(decimals=4))
print(torch.compiler.is_compiling(), callable(torch._dynamo.reset))
torch._dynamo.reset()
