# In the style of: "Extending torch.func with autograd.Function" docs (setup_context, generate_vmap_rule, vmap staticmethod, jvp) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import torch
from torch.func import vmap, grad, jacrev, jvp
torch.manual_seed(0)

class MySquare(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x):
        return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved_tensors
        return 2 * x * gy
    @staticmethod
    def jvp(ctx, tx):
        (x,) = ctx.saved_tensors
        return 2 * x * tx

class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, ind, ind_inv, dim):
        return torch.tensor(x.detach().numpy().take(ind.numpy(), axis=dim))
    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim
    @staticmethod
    def backward(ctx, g):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(g, ind_inv, ind, ctx.dim), None, None, None
    @staticmethod
    def vmap(info, in_dims, x, ind, ind_inv, dim):
        x_bdim, ind_bdim, ind_inv_bdim, _ = in_dims
        logical_dim = x.dim() if x_bdim is None else x_bdim - 1
        dim = dim if dim >= 0 else dim + logical_dim
        def maybe_expand(t, b):
            if b is None:
                return t.expand(info.batch_size, *t.shape)
            return t.movedim(b, 0)
        x = maybe_expand(x, x_bdim)
        ind = maybe_expand(ind, ind_bdim)
        ind_inv = maybe_expand(ind_inv, ind_inv_bdim)
        out = torch.stack([NumpyTake.apply(x[i], ind[i], ind_inv[i], dim) for i in range(info.batch_size)])
        return out, 0

x = torch.randn(3, requires_grad=True)
print(MySquare.apply(x).grad_fn.name())
print(grad(lambda t: MySquare.apply(t).sum())(x).round(decimals=4))
print(vmap(MySquare.apply)(torch.arange(6.).view(2, 3)))
print(jacrev(MySquare.apply)(x).round(decimals=4))
p, t = jvp(MySquare.apply, (x.detach(),), (torch.ones(3),))
print(p.round(decimals=4), t.round(decimals=4))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    dx = fwAD.make_dual(x.detach(), torch.tensor([1.0, 0.0, 2.0]))
    print(fwAD.unpack_dual(MySquare.apply(dx)).tangent.round(decimals=4))
ind = torch.tensor([2, 0, 1]); inv = torch.argsort(ind)
xs = torch.randn(4, 3)
print(vmap(NumpyTake.apply, in_dims=(0, None, None, None))(xs, ind, inv, 0).round(decimals=4))
w = torch.randn(3, requires_grad=True)
y = NumpyTake.apply(w, ind, inv, 0)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(w.grad, y.grad_fn.name())
print(grad(lambda t: (NumpyTake.apply(t, ind, inv, 0) * torch.arange(3.)).sum())(torch.randn(3)))
