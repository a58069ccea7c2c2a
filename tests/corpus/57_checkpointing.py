# In the style of: the gradient checkpointing docs and blog posts (recompute activations in
# backward; the function runs twice; the gradients are the same)
# Family: pytorch-docs
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(4)
calls = []


def block(x):
    calls.append(len(calls))
    return torch.tanh(x @ weight) * 2


weight = torch.randn(3, 3, requires_grad=True)
x = torch.randn(2, 3, requires_grad=True)
plain = block(x).sum()
plain.backward()
expected = weight.grad.clone()
weight.grad = None
for reentrant in (True, False):
    out = checkpoint(block, x, use_reentrant=reentrant).sum()
    out.backward()
    print(reentrant, type(out.grad_fn).__name__, torch.allclose(weight.grad, expected))
    weight.grad = None
print("block ran", len(calls), "times")
model = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(4)])
inputs = torch.randn(2, 4, requires_grad=True)
output = checkpoint_sequential(model, 2, inputs, use_reentrant=False)
output.sum().backward()
print(output, inputs.grad)
