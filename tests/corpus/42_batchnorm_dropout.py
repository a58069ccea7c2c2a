# In the style of: tutorials on train() and eval() (nn.BatchNorm1d's running statistics,
# nn.Dropout seeded in training and a no-op in evaluation)
# Family: blogs-and-qa
import torch
from torch import nn

torch.manual_seed(0)
bn = nn.BatchNorm1d(3)
x = torch.randn(4, 3) * 2 + 1
out = bn(x)
print(out)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(x))

drop = nn.Dropout(p=0.5)
ones = torch.ones(2, 6)
torch.manual_seed(1)
print(drop(ones))
drop.eval()
print(drop(ones))
print(drop.training, bn.training)

model = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Dropout(0.2))
model.eval()
print([m.training for m in model])
w = torch.arange(12.0).reshape(4, 3).requires_grad_()
bn.train()
bn(w)[0].sum().backward()
print(w.grad)
