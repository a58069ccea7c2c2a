# expect: exception
# error: RuntimeError
# message: The differentiated Tensor at index 0 appears to not have been used in the graph
import torch
x = torch.ones(2, requires_grad=True)
z = torch.ones(2, requires_grad=True)
torch.autograd.grad((x * 2).sum(), z)
