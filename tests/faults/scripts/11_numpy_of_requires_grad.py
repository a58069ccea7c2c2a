# expect: exception
# error: RuntimeError
# message: Can't call numpy() on Tensor that requires grad
import torch
torch.ones(2, requires_grad=True).numpy()
