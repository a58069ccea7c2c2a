# expect: exception
# error: ValueError
# message: hook failed
import torch
x = torch.ones(2, requires_grad=True)
def hook(g):
    raise ValueError('hook failed')
x.register_hook(hook)
(x * 2).sum().backward()
