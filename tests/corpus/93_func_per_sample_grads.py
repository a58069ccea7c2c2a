# In the style of: PyTorch's torch.func "Per-sample-gradients" tutorial (functional_call, grad,
# vmap over the batch, compared with a loop of backward calls)
# Family: pytorch-func-and-recipes
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
data, targets = torch.randn(5, 4), torch.randint(0, 3, (5,))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.cross_entropy(predictions, target.unsqueeze(0))


per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
loop = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]).backward()
    loop.append(model[0].weight.grad.clone())
print({name: tuple(g.shape) for name, g in per_sample.items()})
print(torch.allclose(per_sample["0.weight"], torch.stack(loop), atol=1e-6))
print(per_sample["2.bias"])
