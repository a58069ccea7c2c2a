# In the style of: nn.Module hooks docs (2.x): forward pre-hooks with kwargs, always_call, full backward pre-hooks, post-accumulate-grad hooks, global hooks (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
torch.manual_seed(0)
class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
    def forward(self, x, scale=1.0):
        return self.lin(x) * scale
m = Scaled()
def pre(mod, args, kwargs):
    print("pre-hook", type(mod).__name__, [a.shape for a in args], kwargs)
    kwargs = dict(kwargs); kwargs["scale"] = 2.0
    return args, kwargs
def post(mod, args, kwargs, out):
    print("post-hook kwargs", kwargs, out.shape)
    return out + 1
h1 = m.register_forward_pre_hook(pre, with_kwargs=True)
h2 = m.register_forward_hook(post, with_kwargs=True, always_call=True)
x = torch.randn(4, 3, requires_grad=True)
y = m(x, scale=0.5)
print(y.detach().round(decimals=4)[0])
h1.remove(); h2.remove()
def bpre(mod, grad_output):
    print("backward pre", [g.shape for g in grad_output])
    return (grad_output[0] * 10,)
def bfull(mod, gin, gout):
    print("full backward", [None if g is None else g.shape for g in gin], [g.shape for g in gout])
m.lin.register_full_backward_pre_hook(bpre)
m.lin.register_full_backward_hook(bfull)
m(x).sum().backward()
print(x.grad[0].round(decimals=4), m.lin.bias.grad)
acc = []
m.lin.weight.register_post_accumulate_grad_hook(lambda p: acc.append(p.grad.norm().item()))
m(x).sum().backward()
print([round(a, 4) for a in acc])
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook
seen = []
g = register_module_forward_hook(lambda mod, i, o: seen.append(type(mod).__name__))
nn.Sequential(nn.Linear(3, 3), nn.Tanh())(torch.randn(1, 3))
g.remove()
print(seen)
def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "extra"] = torch.tensor(7)
m.register_state_dict_post_hook(sd_hook) if hasattr(m, "register_state_dict_post_hook") else m._register_state_dict_hook(sd_hook)
print(sorted(m.state_dict().keys()))
t = torch.ones(2, requires_grad=True)
hh = t.register_hook(lambda g: g * 3)
(t * 2).sum().backward()
print(t.grad, type(hh).__name__)
