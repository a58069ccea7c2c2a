# expect: exception
# error: RuntimeError
# message: Only Tensors of floating point and complex dtype can require gradients
import torch
torch.tensor([1, 2], requires_grad=True)
