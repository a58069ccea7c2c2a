# In the style of: torch.func docs: grad, vmap, jacrev, jacfwd, hessian, functional_call (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, functional_call, grad_and_value, vjp
torch.manual_seed(13)
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(cos_x, neg_sin_x)
batch_size, feature_size = 3, 5
def model(weights, feature_vec):
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()
def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) ** 2).mean()
weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(*inputs)
print(grad_weight_per_example)
print(vmap(torch.dot)(torch.randn(2, 5), torch.randn(2, 5)))
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)
print(jacfwd(torch.sin)(x).diagonal())
def f(x):
    return x.sin().sum()
print(hessian(f)(torch.randn(2, 3)).shape)
print(vmap(jacrev(torch.sin))(torch.randn(4, 3)).shape)
def g2(x, y):
    return (x ** 2 * y).sum()
print(jacrev(g2, argnums=(0, 1))(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
gv = grad_and_value(g2, argnums=1)(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
print(gv)
lin = torch.nn.Linear(3, 2)
params = dict(lin.named_parameters())
xin = torch.randn(4, 3)
def loss_fn(params, x):
    return functional_call(lin, params, (x,)).pow(2).sum()
gparams = grad(loss_fn)(params, xin)
print({k: v.shape for k, v in gparams.items()})
ref = torch.autograd.grad(loss_fn(params, xin), list(params.values()))
print(torch.allclose(gparams['weight'], ref[0]))
out, vjp_fn = vjp(torch.sin, torch.tensor([0.5, 1.0]))
print(out, vjp_fn(torch.ones(2)))
print(vmap(lambda a: a * 2, in_dims=1, out_dims=1)(torch.arange(6.).view(2, 3)))
