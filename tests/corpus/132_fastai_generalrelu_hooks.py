# In the style of: fast.ai "from the foundations" (part 2) initialisation lesson (a GeneralRelu
# that is leaky, subtracted and clamped, kaiming_normal_ applied with model.apply, and
# activation means, stds and histc histograms gathered by forward hooks in a Hooks context)
# Family: fastai
from functools import partial

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn import init


class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak, self.sub, self.maxv = leak, sub, maxv

    def forward(self, x):
        x = F.leaky_relu(x, self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None:
            x -= self.sub
        if self.maxv is not None:
            x.clamp_max_(self.maxv)
        return x


def conv(ni, nf, ks=3, stride=2, act=nn.ReLU):
    res = nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2)
    if act:
        res = nn.Sequential(res, act())
    return res


def get_model(act=nn.ReLU, nfs=None):
    if nfs is None:
        nfs = [1, 4, 8, 16]
    layers = [conv(nfs[i], nfs[i + 1], act=act) for i in range(len(nfs) - 1)]
    return nn.Sequential(*layers, conv(nfs[-1], 3, act=None, stride=1), nn.Flatten())


def init_weights(m, leaky=0.0):
    if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
        init.kaiming_normal_(m.weight, a=leaky)


class Hook:
    def __init__(self, m, f):
        self.hook = m.register_forward_hook(partial(f, self))

    def remove(self):
        self.hook.remove()

    def __del__(self):
        self.remove()


def append_stats(hook, mod, inp, outp):
    if not hasattr(hook, "stats"):
        hook.stats = ([], [], [])
    acts = outp.detach().cpu()
    hook.stats[0].append(acts.mean())
    hook.stats[1].append(acts.std())
    hook.stats[2].append(acts.abs().histc(40, 0, 10))


class Hooks(list):
    def __init__(self, ms, f):
        super().__init__([Hook(m, f) for m in ms])

    def __enter__(self, *args):
        return self

    def __exit__(self, *args):
        self.remove()

    def __del__(self):
        self.remove()

    def __delitem__(self, i):
        self[i].remove()
        super().__delitem__(i)

    def remove(self):
        for h in self:
            h.remove()


def get_hist(h):
    return torch.stack(h.stats[2]).t().float().log1p()


def get_min(h):
    h1 = torch.stack(h.stats[2]).t().float()
    return h1[0] / h1.sum(0)


torch.manual_seed(1)
gr = GeneralRelu(leak=0.1, sub=0.4, maxv=2.0)
x = torch.linspace(-4, 4, 9)
print(gr(x))
print(F.leaky_relu(x, 0.1), F.leaky_relu(x))
xg = x.clone().requires_grad_()
gr(xg).sum().backward()
print(xg.grad)

# kaiming_normal_ with a leak: the std it aims for is gain / sqrt(fan_in)
w = torch.empty(64, 32, 3, 3)
init.kaiming_normal_(w, a=0.1)
fan_in = 32 * 9
print(f"{w.std().item():.4f}", f"{init.calculate_gain('leaky_relu', 0.1) / fan_in ** 0.5:.4f}")
init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(f"{w.std().item():.4f}", f"{(2 / (64 * 9)) ** 0.5:.4f}")

xb = torch.randn(32, 1, 16, 16)
yb = torch.randint(0, 3, (32,))
for name, act, leaky in [("relu", nn.ReLU, 0.0),
                         ("general", partial(GeneralRelu, leak=0.1, sub=0.4), 0.1)]:
    torch.manual_seed(2)
    model = get_model(act).apply(partial(init_weights, leaky=leaky))
    print(name, model(xb).shape)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    with Hooks([m for m in model if isinstance(m, nn.Sequential)], append_stats) as hooks:
        for step in range(4):
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            opt.zero_grad()
        print(f"  loss {loss.item():.4f}, {len(hooks)} hooks,",
              len(model[0]._forward_hooks), "registered on layer 0")
        for i, h in enumerate(hooks):
            means = [f"{m:.3f}" for m in h.stats[0]]
            stds = [f"{s:.3f}" for s in h.stats[1]]
            print(f"  layer {i} means {means} stds {stds}")
        print("  hist", get_hist(hooks[0]).shape, hooks[0].stats[2][-1][:8])
        print("  fraction near zero", get_min(hooks[-1]))
        del hooks[0]
        print("  after del:", len(hooks), len(model[0]._forward_hooks))
    print("  after with:", sum(len(m._forward_hooks) for m in model))

print(model[0][1])
print(torch.tensor([0.5, 1.5, 2.5, 9.99, 10.0, 11.0, -1.0]).histc(bins=4, min=0, max=10))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4))
