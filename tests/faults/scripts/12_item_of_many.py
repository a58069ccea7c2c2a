# expect: exception
# error: RuntimeError
# message: a Tensor with 3 elements cannot be converted to Scalar
import torch
torch.ones(3).item()
