# In the style of: PyTorch "Forward-mode Automatic Differentiation" tutorial (dual tensors)
# Family: pytorch-tutorials
import torch
import torch.autograd.forward_ad as fwAD

primal = torch.tensor([0.5, 1.0, 2.0])
tangent = torch.tensor([1.0, 0.0, 1.0])


def fn(x, y):
    return x**2 + y.sin()


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    out = fn(dual_input, primal)
    jvp = fwAD.unpack_dual(out).tangent
    print(fwAD.unpack_dual(out).primal)
    print(jvp)

print(2 * primal * tangent)
