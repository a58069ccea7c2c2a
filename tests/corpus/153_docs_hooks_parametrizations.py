# In the style of: the PyTorch API documentation's examples (torch.autograd.grad with
# is_grads_batched=True, Tensor.register_hook, torch.autograd.graph.Node register_hook and
# register_prehook, nn.utils.parametrize.register_parametrization with a Symmetric module,
# nn.utils.parametrizations.orthogonal, parametrize.cached and remove_parametrizations)
# Family: pytorch-docs
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)

# torch.autograd.grad: a batch of vector-Jacobian products in one call
x = torch.randn(2, 3, requires_grad=True)
y = x.sin() * 2
grad_outputs = torch.eye(6).view(6, 2, 3)
(jac,) = torch.autograd.grad(y, x, grad_outputs, is_grads_batched=True)
print(jac.shape)
print(torch.allclose(jac.view(6, 6).diagonal(), (2 * x.cos()).view(-1)))
print(jac[1])
u = torch.tensor([1., 2., 3.], requires_grad=True)
out = (u ** 3).sum()
(g,) = torch.autograd.grad(out, u, create_graph=True)
(gg,) = torch.autograd.grad(g, u, torch.eye(3), is_grads_batched=True)
print(g, gg)

# torch.Tensor.register_hook
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()  # removes the hook
v.grad = None
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

# torch.autograd.graph.Node.register_hook
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
print(b.grad_fn.name(), b.grad_fn.next_functions[0][0].name())
handle = b.grad_fn.register_hook(lambda gI, gO: (gO[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()  # Removes the hook
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)

# torch.autograd.graph.Node.register_prehook
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
handle = b.grad_fn.register_prehook(lambda gO: (gO[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)


def show(grad_inputs, grad_outputs):
    print('hook sees', [None if t is None else t.shape for t in grad_inputs],
          [t.shape for t in grad_outputs])


c = torch.randn(2, 3, requires_grad=True)
d = (c @ torch.ones(3, 4)).relu()
d.grad_fn.register_hook(show)
d.grad_fn.next_functions[0][0].register_hook(show)
d.sum().backward()
print(c.grad)


# torch.nn.utils.parametrize.register_parametrization
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).T  # Return a symmetric matrix

    def right_inverse(self, A):
        return A.triu()


m = nn.Linear(5, 5)
P.register_parametrization(m, "weight", Symmetric())
print(torch.allclose(m.weight, m.weight.T))  # m.weight is now symmetric
print(P.is_parametrized(m), P.is_parametrized(m, "bias"), type(m).__name__)
print(m)
print([name for name, _ in m.named_parameters()])
A = torch.rand(5, 5)
A = A + A.T  # A is now symmetric
m.weight = A  # Set a new weight to A
print(torch.allclose(m.weight, A))
print(m.parametrizations.weight.original)
with P.cached():
    w1 = m.weight
    w2 = m.weight
    print(w1 is w2)
print(m.weight is m.weight)
m(torch.ones(1, 5)).sum().backward()
print(m.parametrizations.weight.original.grad)
P.remove_parametrizations(m, "weight", leave_parametrized=True)
print(type(m).__name__, [name for name, _ in m.named_parameters()])

# torch.nn.utils.parametrizations.orthogonal
orth_linear = orthogonal(nn.Linear(6, 4))
print(orth_linear)
Q = orth_linear.weight
print(Q.shape, torch.dist(Q @ Q.T, torch.eye(4)) < 1e-5)
opt = torch.optim.SGD(orth_linear.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    loss = orth_linear(torch.ones(2, 6)).pow(2).sum()
    loss.backward()
    opt.step()
    print(f'{loss.item():.4f}', torch.dist(orth_linear.weight @ orth_linear.weight.T,
                                           torch.eye(4)) < 1e-5)
