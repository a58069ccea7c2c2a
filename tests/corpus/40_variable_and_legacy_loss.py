# In the style of: older autograd tutorials (torch.autograd.Variable, MSELoss(size_average=False))
# Family: pytorch-tutorials
import warnings

import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
y = x + 2
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)
print(isinstance(x, torch.Tensor), type(x).__name__)
print(x.data)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss_fn = torch.nn.MSELoss(size_average=False)
print(loss_fn.reduction)
print([(w.category.__name__, str(w.message)) for w in caught])

pred = Variable(torch.tensor([1.0, 2.0, 3.0]), requires_grad=True)
loss = loss_fn(pred, torch.zeros(3))
loss.backward()
print(loss, pred.grad)
