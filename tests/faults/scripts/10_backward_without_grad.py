# expect: exception
# error: RuntimeError
# message: element 0 of tensors does not require grad and does not have a grad_fn
import torch
x = torch.ones(2)
x.sum().backward()
