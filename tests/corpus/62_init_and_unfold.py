# In the style of: initialisation notebooks (orthogonal weights for RNNs, skip_init) and a
# sliding-window post (Tensor.unfold for moving averages, with its gradient)
# Family: blogs-and-qa
import torch

torch.manual_seed(8)
w = torch.empty(4, 6)
torch.nn.init.orthogonal_(w)
print(torch.allclose(w @ w.T, torch.eye(4), atol=1e-5), w[:2])
layer = torch.nn.utils.skip_init(torch.nn.Linear, 6, 2)
with torch.no_grad():
    layer.weight.copy_(w[:2])
    layer.bias.fill_(0.5)
print(layer(torch.ones(6)))
signal = torch.arange(10.0, requires_grad=True)
windows = signal.unfold(0, 4, 2)
moving = windows.mean(dim=1)
print(windows, moving)
moving.sum().backward()
print(signal.grad, windows.stride(), windows.is_contiguous())
print(torch.rand(2))
