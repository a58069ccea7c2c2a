# In the style of: autograd explainers (gradients of broadcast operands are summed back to their
# shape; backward twice accumulates; walking grad_fn.next_functions)
# Family: blogs-and-qa
import torch

a = torch.ones(2, 3, requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = torch.tensor(2.0, requires_grad=True)
out = (a * b + c).sum()
out.backward(retain_graph=True)
print(a.grad, b.grad, c.grad, sep="\n")
out.backward()
print(b.grad, c.grad)


def walk(fn, depth=0):
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        if nxt is not None:
            walk(nxt, depth + 1)


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
loss = torch.relu(x * w - 1).mean()
walk(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0].name())
