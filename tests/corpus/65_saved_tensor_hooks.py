# In the style of: PyTorch's "Hooks for saved tensors" tutorial (pack, unpack, save_on_cpu)
# Family: pytorch-tutorials
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)


def pack_hook(tensor):
    print("packing", tuple(tensor.shape), "leaf" if tensor.is_leaf else tensor.grad_fn.name())
    return tensor.detach().clone()  # a copy: later changes to the tensor cannot reach it


def unpack_hook(copy):
    print("unpacking", copy)
    return copy


with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (x * w).exp()
    loss = (y * x).sum()

with torch.no_grad():
    w.mul_(10)  # no error: the hooks keep their own copy, torch checks no version

loss.backward()
print(x.grad, w.grad, sep="\n")

with torch.autograd.graph.save_on_cpu():
    z = (x.sin() * x).sum()
z.backward()
print(x.grad)
