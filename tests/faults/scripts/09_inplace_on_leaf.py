# expect: exception
# error: RuntimeError
# message: a leaf Variable that requires grad is being used in an in-place operation
import torch
w = torch.ones(2, requires_grad=True)
w += 1
