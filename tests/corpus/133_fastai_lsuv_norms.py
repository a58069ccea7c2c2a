# In the style of: fast.ai "from the foundations" (part 2) normalisation lesson (LSUV
# initialisation driven by a forward hook, then a LayerNorm and a BatchNorm written by hand with
# lerp_ running statistics, compared with nn.LayerNorm, nn.GroupNorm and nn.BatchNorm2d)
# Family: fastai
from functools import partial

import torch
import torch.nn.functional as F
from torch import nn, tensor

torch.set_printoptions(precision=4, linewidth=100, sci_mode=False)


class Hook:
    def __init__(self, m, f):
        self.hook = m.register_forward_hook(partial(f, self))

    def remove(self):
        self.hook.remove()


class GeneralRelu(nn.Module):
    def __init__(self, leak=None, sub=None, maxv=None):
        super().__init__()
        self.leak, self.sub, self.maxv = leak, sub, maxv

    def forward(self, x):
        x = F.leaky_relu(x, self.leak) if self.leak is not None else F.relu(x)
        if self.sub is not None:
            x -= self.sub
        if self.maxv is not None:
            x.clamp_(max=self.maxv)
        return x


def conv(ni, nf, ks=3, stride=2, act=nn.ReLU, norm=None, bias=None):
    if bias is None:
        bias = not isinstance(norm, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d))
    layers = [nn.Conv2d(ni, nf, stride=stride, kernel_size=ks, padding=ks // 2, bias=bias)]
    if norm:
        layers.append(norm(nf))
    if act:
        layers.append(act())
    return nn.Sequential(*layers)


def get_model(act=nn.ReLU, nfs=(1, 4, 8, 8), norm=None):
    layers = [conv(nfs[i], nfs[i + 1], act=act, norm=norm) for i in range(len(nfs) - 1)]
    return nn.Sequential(*layers, conv(nfs[-1], 3, act=None, norm=False, bias=True),
                         nn.Flatten())


def _lsuv_stats(hook, mod, inp, outp):
    acts = outp.detach()
    hook.mean = acts.mean()
    hook.std = acts.std()


def lsuv_init(model, m, m_in, xb):
    h = Hook(m, _lsuv_stats)
    steps = 0
    with torch.no_grad():
        while model(xb) is not None and (abs(h.std - 1) > 1e-3 or abs(h.mean) > 1e-3):
            m_in.bias -= h.mean
            m_in.weight.data /= h.std
            steps += 1
    h.remove()
    return steps


torch.manual_seed(0)
xb = torch.randn(16, 1, 12, 12) * 0.3 + 0.1
yb = torch.randint(0, 3, (16,))
act_gr = partial(GeneralRelu, leak=0.1, sub=0.4)
model = get_model(act_gr)
relus = [o for o in model.modules() if isinstance(o, GeneralRelu)]
convs = [o for o in model.modules() if isinstance(o, nn.Conv2d)]
for ms in zip(relus, convs):
    print(ms)
for ms in zip(relus, convs):
    steps = lsuv_init(model, *ms, xb)
    print("lsuv steps", steps)
stats = []
hooks = [Hook(r, _lsuv_stats) for r in relus]
model(xb)
print([(f"{h.mean.item():.4f}", f"{h.std.item():.4f}") for h in hooks])
for h in hooks:
    h.remove()
print(convs[0].bias)


class LayerNorm(nn.Module):
    def __init__(self, dummy, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.mult = nn.Parameter(tensor(1.))
        self.add = nn.Parameter(tensor(0.))

    def forward(self, x):
        m = x.mean((1, 2, 3), keepdim=True)
        v = x.var((1, 2, 3), keepdim=True)
        x = (x - m) / ((v + self.eps).sqrt())
        return x * self.mult + self.add


class BatchNorm(nn.Module):
    def __init__(self, nf, mom=0.1, eps=1e-5):
        super().__init__()
        self.mom, self.eps = mom, eps
        self.mults = nn.Parameter(torch.ones(nf, 1, 1))
        self.adds = nn.Parameter(torch.zeros(nf, 1, 1))
        self.register_buffer("vars", torch.ones(1, nf, 1, 1))
        self.register_buffer("means", torch.zeros(1, nf, 1, 1))

    def update_stats(self, x):
        m = x.mean((0, 2, 3), keepdim=True)
        v = x.var((0, 2, 3), keepdim=True)
        self.means.lerp_(m, self.mom)
        self.vars.lerp_(v, self.mom)
        return m, v

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                m, v = self.update_stats(x)
        else:
            m, v = self.means, self.vars
        x = (x - m) / (v + self.eps).sqrt()
        return x * self.mults + self.adds


torch.manual_seed(1)
x = torch.randn(4, 3, 5, 5) * 2 + 1
ln = LayerNorm(3)
ref_ln = nn.LayerNorm([3, 5, 5], elementwise_affine=False)
gn = nn.GroupNorm(1, 3, affine=False)
print(f"{(ln(x) - ref_ln(x)).abs().max().item():.4f}", torch.allclose(ref_ln(x), gn(x), atol=1e-5))
print(ln(x)[0, 0, 0], ref_ln(x)[0, 0, 0], sep="\n")
xr = x.clone().requires_grad_()
(ln(xr) * torch.arange(25.0).reshape(5, 5)).sum().backward()
print(ln.mult.grad, ln.add.grad, xr.grad.abs().max())

bn, ref_bn = BatchNorm(3), nn.BatchNorm2d(3)
out, ref = bn(x), ref_bn(x)
print(out[1, 2, 0], ref[1, 2, 0], sep="\n")
print(bn.means.flatten(), ref_bn.running_mean)
print(bn.vars.flatten(), ref_bn.running_var)
print([name for name, _ in bn.named_buffers()], [n for n, _ in bn.named_parameters()])
xr = x.clone().requires_grad_()
bn(xr).pow(2).sum().backward()  # the statistics were taken under no_grad
print(xr.grad[0, 0, 0], bn.mults.grad.flatten())
bn.eval()
print(bn(x).mean().item() == ((x - bn.means) / (bn.vars + 1e-5).sqrt()).mean().item())

for norm in (BatchNorm, nn.BatchNorm2d, LayerNorm):
    torch.manual_seed(2)
    model = get_model(partial(GeneralRelu, leak=0.1, sub=0.4), norm=norm)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for step in range(3):
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(f"{loss.item():.4f}")
    print(norm.__name__, losses, model[0][0].bias is None, type(model[0][1]).__name__)
