"""torch.compile on the NumPy engine: a module comes back wrapped as torch's OptimizedModule
(its printing, state-dict names and attributes), a function as a function, the decorator
with and without options; the values are the model's own (the graph shows its ops where
torch's shows one CompiledFunctionBackward, which the script does not print)."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

COMPILE = """import torch
torch.manual_seed(0)
m = torch.nn.Linear(2, 3)
c = torch.compile(m)
print(type(c).__name__, c)
print(list(c.state_dict().keys()), c.weight is m.weight, c._orig_mod is m,
      isinstance(c, torch.nn.Module))
print([n for n, _ in c.named_parameters()], c.in_features)
f = lambda x: x * 2
g = torch.compile(f)
print(g is f, type(g).__name__, g(torch.ones(2)))
@torch.compile
def h(x):
    return x + 1
print(h(torch.ones(1)), h.__name__)
k = torch.compile(mode="reduce-overhead", fullgraph=True)(torch.nn.ReLU())
print(k, torch.compile(m, dynamic=False, backend="inductor")(torch.ones(1, 2)).shape)
y = c(torch.ones(1, 2))
y.sum().backward()
print(y.detach(), m.weight.grad)
"""


def test_compiled_models_and_functions_print_and_run_as_torchs(tmp_path):
    assert_playground_prints_as_torch(COMPILE, tmp_path)
