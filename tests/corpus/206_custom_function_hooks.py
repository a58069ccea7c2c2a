# In the style of: the docs' extending-autograd notes: a custom Function with tensor and module hooks (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
from torch.autograd import Function
from torch.autograd.function import once_differentiable

torch.manual_seed(21)

class StraightThroughRound(Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()
    @staticmethod
    def backward(ctx, g):
        return g

class GradReverse(Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)
    @staticmethod
    def backward(ctx, g):
        return g.neg() * ctx.lambd, None

class ClampedExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.clamp(max=5).exp()
        ctx.save_for_backward(y, x)
        return y
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        y, x = ctx.saved_tensors
        return g * y * (x <= 5).to(g.dtype)

feat = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
cls = nn.Linear(8, 2)
dom = nn.Linear(8, 1)
acts = {}
h1 = feat[0].register_forward_hook(lambda m, i, o: acts.__setitem__("lin", o.detach().clone()))
h2 = cls.register_full_backward_hook(lambda m, gi, go: print("  bwd hook go", tuple(go[0].shape), round(go[0].abs().sum().item(), 6)))
x = torch.randn(6, 4)
y = torch.tensor([0, 1, 1, 0, 1, 0])
d = torch.tensor([0., 0., 0., 1., 1., 1.])
opt = torch.optim.SGD(list(feat.parameters()) + list(cls.parameters()) + list(dom.parameters()), lr=0.1)
for it in range(3):
    f = feat(x)
    f.register_hook(lambda g: print("  feature grad norm", round(g.norm().item(), 6)))
    lc = nn.functional.cross_entropy(cls(f), y)
    ld = nn.functional.binary_cross_entropy_with_logits(dom(GradReverse.apply(f, 0.5)).squeeze(1), d)
    loss = lc + ld
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"it {it} lc {lc.item():.6f} ld {ld.item():.6f}", acts["lin"].shape)
h1.remove(); h2.remove()
z = torch.randn(5, requires_grad=True)
q = StraightThroughRound.apply(z * 3)
e = ClampedExp.apply(z * 4)
(q.sum() + e.sum()).backward()
print(q, q.grad_fn.name() if hasattr(q.grad_fn, "name") else type(q.grad_fn).__name__)
print(type(e.grad_fn).__name__, z.grad)
print(torch.autograd.gradcheck(lambda t: ClampedExp.apply(t), (torch.randn(3, dtype=torch.double, requires_grad=True),)))
w = torch.randn(3, requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("  post-acc", p.grad))
(w * 2).sum().backward()
