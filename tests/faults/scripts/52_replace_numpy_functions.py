# expect: ok
import numpy as np
import torch
x = torch.ones(2, requires_grad=True)
(x * 3).sum().backward()
print(x.grad)
np.asarray = np.array = np.ascontiguousarray = None
