"""The errors of everyday mistakes, on npgrad against real torch, run here: factory sizes
(negative sides, floats, a stray argument after the tuple: NumPy's words or nothing at all
before), arange's bounds and step, linspace's steps, view's invalid sides, permute's
duplicates, detach_ of a view, float and out-of-range index tensors (torch's dimension is
the index tensor's place), cat of nothing, numpy() of a tensor that requires grad under
no_grad (allowed), and no_grad's exit without an entry (grad mode off, as torch's)."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import torch

show("int requires_grad", lambda: torch.tensor([1, 2], requires_grad=True))
show("int requires_grad_", lambda: torch.tensor([1, 2]).requires_grad_())
show("bool rg", lambda: torch.ones(2, dtype=torch.bool).requires_grad_())
show('grad assign shape',
     lambda: setattr(torch.ones(2, requires_grad=True), 'grad', torch.ones(3)))
show('grad assign dtype',
     lambda: setattr(torch.ones(2, requires_grad=True), 'grad', torch.ones(2, dtype=torch.float64)))
show('grad assign int',
     lambda: setattr(torch.ones(2, requires_grad=True), 'grad', torch.ones(2, dtype=torch.long)))
show("grad assign list", lambda: setattr(torch.ones(2, requires_grad=True), "grad", [1., 2.]))
show("nonscalar", lambda: (torch.ones(2, requires_grad=True) * 2).backward())
show("grad nonleaf warn", lambda: (torch.ones(2, requires_grad=True) * 2).grad)
show('backward twice',
     lambda: (lambda y: (y.backward(), y.backward()))(
         torch.ones(2, requires_grad=True).exp().sum()))
show("grad wrong shape", lambda: (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(3)))
show('grad unused',
     lambda: torch.autograd.grad((torch.ones(1, requires_grad=True) * 2).sum(),
                                 torch.ones(1, requires_grad=True)))
show('grad no rg',
     lambda: torch.autograd.grad(torch.ones(1).sum(), torch.ones(1, requires_grad=True)))
show("detach_ view", lambda: torch.ones(2, requires_grad=True)[0:1].detach_())
x = torch.ones(2, requires_grad=True)
show("set_ data", lambda: (setattr(x, "data", torch.zeros(2)), x, x.requires_grad)[1:])
show("data shape change", lambda: (setattr(x, "data", torch.zeros(3)), x.shape)[1])
show('hook return wrong',
     lambda: (lambda t: (t.register_hook(lambda g: g[:1]), (t * 2).sum().backward()))(
         torch.ones(2, requires_grad=True)))
show("hook on no-grad", lambda: torch.ones(2).register_hook(lambda g: g))
show("retain_grad leaf", lambda: torch.ones(2, requires_grad=True).retain_grad())
show("retain_grad nograd", lambda: torch.ones(2).retain_grad())
show("item grad", lambda: torch.ones(1, requires_grad=True).item())
show("numpy grad", lambda: torch.ones(1, requires_grad=True).numpy())
show("bool nonscalar", lambda: bool(torch.ones(2)))
show("int nonscalar", lambda: int(torch.ones(2)))
show('float of int',
     lambda: (float(torch.tensor(3)), int(torch.tensor(3.9)), int(torch.tensor(-3.9)),
              complex(torch.tensor(2.0))))
show("index float", lambda: torch.ones(3)[torch.tensor(1.)])
show("index out", lambda: torch.ones(3)[torch.tensor([0, 5])])
show("index neg out", lambda: torch.ones(3)[-4])
show("view bad", lambda: torch.ones(2, 3).t().view(-1))
show("view size", lambda: torch.ones(6).view(4, -1))
show("reshape bad", lambda: torch.ones(6).reshape(4, 2))
show("expand bad", lambda: torch.ones(2, 3).expand(3, 3))
show("cat dim", lambda: torch.cat([torch.ones(2), torch.ones(2)], dim=1))
show("cat empty", lambda: torch.cat([]))
show("stack empty", lambda: torch.stack([]))
show("matmul dims", lambda: torch.ones(2, 3) @ torch.ones(2, 3))
show("matmul 0d", lambda: torch.tensor(1.) @ torch.ones(2))
show("mm 1d", lambda: torch.mm(torch.ones(2), torch.ones(2)))
show("bmm bad", lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2)))
show("dot bad", lambda: torch.dot(torch.ones(2), torch.ones(3)))
show("dot dtype", lambda: torch.dot(torch.ones(2), torch.ones(2, dtype=torch.float64)))
show("linear bad", lambda: torch.nn.functional.linear(torch.ones(2, 3), torch.ones(4, 2)))
show("squeeze dim", lambda: torch.ones(2, 1).squeeze(0).shape)
show("permute bad", lambda: torch.ones(2, 3).permute(0, 0))
show("transpose bad", lambda: torch.ones(2, 3).transpose(0, 2))
show("gather bad", lambda: torch.ones(2, 3).gather(1, torch.tensor([[0, 3]])))
show("scatter dtype", lambda: torch.zeros(3).scatter_(0, torch.tensor([0.]), 1.))
show("one_hot bad", lambda: torch.nn.functional.one_hot(torch.tensor([1.])))
show("embedding oob", lambda: torch.nn.Embedding(3, 2)(torch.tensor([3])))
show('ce bad target',
     lambda: torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 3])))
show('ce float target shape',
     lambda: torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0.0, 1.0])))
show("max dim bad", lambda: torch.ones(2).max(1))
show("sum dim bad", lambda: torch.ones(2).sum(2))
show("arange bad", lambda: torch.arange(0, 10, -1))
show("linspace steps", lambda: torch.linspace(0, 1, -1))
show("randn neg", lambda: torch.randn(-1))
show("zeros float size", lambda: torch.zeros(2.5))
show("ones tuple mix", lambda: torch.ones((2, 3), 4))
for f in ('torch.zeros', 'torch.ones', 'torch.empty', 'torch.rand', 'torch.randn'):
    for args in ('(-1)', '(2, -3)', '((2, -3))', '(2.5)', '(2, 3.0)', '([2, -1])',
                 '(torch.tensor(2))', '(torch.tensor(-2))'):
        show(f + args, lambda: eval(f + args).shape)
for f in ('torch.zeros', 'torch.ones', 'torch.empty'):
    show(f + "((2, 3), 4)", lambda: eval(f + "((2, 3), 4)").shape)
show('full neg', lambda: torch.full((-1,), 1.))
show('full float', lambda: torch.full((2.0,), 1.))
show('randint neg', lambda: torch.randint(0, 3, (-1,)))
show('new_zeros', lambda: torch.zeros(2).new_zeros(-1))
show('view neg', lambda: torch.ones(2).view(-2))
show('detach_ plain view', lambda: torch.ones(3)[0:1].detach_())
show('detach_ view nograd', lambda: torch.ones(3, requires_grad=True).detach()[0:1].detach_())
show('detach_ leaf', lambda: torch.ones(3, requires_grad=True).detach_())
show('detach_ nonleaf', lambda: (torch.ones(3, requires_grad=True) * 2).detach_())
show('detach_ view of nonleaf', lambda: (torch.ones(3, requires_grad=True) * 2)[1:].detach_())
for e in ('torch.arange(0, 10, -1)', 'torch.arange(10, 0)', 'torch.arange(0, 10, 0)',
          'torch.arange(5, 5)', 'torch.arange(float("nan"))', 'torch.arange(0, float("inf"))',
          'torch.linspace(0, 1, -1)', 'torch.logspace(0, 1, -2)'):
    show(e, lambda: eval(e))
show("index float", lambda: torch.ones(3)[torch.tensor(1.)])
show("index float list", lambda: torch.ones(3)[torch.tensor([1., 0.])])
show("index out", lambda: torch.ones(3)[torch.tensor([0, 5])])
show("index out 2d", lambda: torch.ones(2, 3)[:, torch.tensor([3])])
show("index out neg", lambda: torch.ones(3)[torch.tensor([-4])])
show("cat empty", lambda: torch.cat([]))
show("permute bad", lambda: torch.ones(2, 3).permute(0, 0))
show("permute bad2", lambda: torch.ones(2, 3).permute(1, 0, 2))
show('no_grad exit',
     lambda: (torch.no_grad().__exit__(None, None, None), torch.is_grad_enabled(),
              torch.set_grad_enabled(True))[1])
show('enable_grad exit',
     lambda: (torch.enable_grad().__exit__(None, None, None), torch.is_grad_enabled())[1])
show("index 2 tensors", lambda: torch.ones(3, 4)[torch.tensor([0]), torch.tensor([4])])
show('index mask then t',
     lambda: torch.ones(3, 4, 5)[torch.tensor([True, False, True]), :, torch.tensor([7, 0])])
show("index ellipsis", lambda: torch.ones(3, 4, 5)[..., torch.tensor([5])])
show("index list", lambda: torch.ones(3)[[0, 3]])
show("index 2d t", lambda: torch.ones(3, 4)[torch.tensor([[0, 1], [2, 3]])])
show("index neg ok", lambda: torch.arange(3)[torch.tensor([-1, -3])])
show("setitem out", lambda: torch.ones(3).__setitem__(torch.tensor([4]), 0.))
"""


def test_everyday_mistakes_raise_torch_errors(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
