# expect: exception
# error: RuntimeError
# message: grad can be implicitly created only for scalar outputs
import torch
x = torch.ones(3, requires_grad=True)
(x * 2).backward()
