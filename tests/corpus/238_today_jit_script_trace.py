# In the style of: TorchScript tutorial snippets still pasted today: torch.jit.script / torch.jit.trace and calling them (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import torch
import torch.nn as nn
torch.manual_seed(0)
@torch.jit.script
def fused(x, y):
    if bool(x.sum() > 0):
        return x * y + 1
    return x - y
a = torch.randn(3); b = torch.randn(3)
print(fused(a, b).round(decimals=4), type(fused).__name__)
class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x, h):
        return torch.tanh(self.lin(x) + h)
cell = Cell()
x, h = torch.randn(3, 4), torch.randn(3, 4)
traced = torch.jit.trace(cell, (x, h))
print(type(traced).__name__, torch.allclose(traced(x, h), cell(x, h)))
scripted = torch.jit.script(cell)
out = scripted(x, h)
out.sum().backward()
print(out.grad_fn is not None, cell.lin.bias.grad.round(decimals=4))
print(torch.jit.is_scripting(), isinstance(scripted, torch.jit.ScriptModule))
