# expect: exception
# error: RuntimeError
# message: Trying to backward through the graph a second time
import torch
x = torch.ones(2, requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
