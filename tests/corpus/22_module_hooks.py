# In the style of: blog posts on module hooks (register_forward_hook to capture activations,
# register_full_backward_hook to look at gradients flowing through a layer)
# Family: blogs-and-qa
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
activations = {}


def save_activation(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
        print("forward", name, type(module).__name__, [tuple(i.shape) for i in inputs],
              tuple(output.shape))
    return hook


def backward_hook(module, grad_input, grad_output):
    print("backward", type(module).__name__,
          [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])


h1 = net[0].register_forward_hook(save_activation("fc1"))
h2 = net[2].register_forward_hook(save_activation("fc2"))
h3 = net[2].register_full_backward_hook(backward_hook)

x = torch.randn(5, 4, requires_grad=True)
out = net(x)
out.pow(2).mean().backward()
print(activations["fc1"])
print(activations["fc2"].sum(dim=0))
print(x.grad[0])

for h in (h1, h2, h3):
    h.remove()
net(x)
print(len(activations))
