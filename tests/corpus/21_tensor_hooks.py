# In the style of: blog posts on autograd hooks (register_hook on tensors, retain_grad,
# a hook that changes the gradient, removing a hook)
# Family: blogs-and-qa
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b.sin()
d = c.sum()

b.retain_grad()


def show(name):
    def hook(grad):
        print("grad of", name, grad)
    return hook


b.register_hook(show("b"))
c.register_hook(show("c"))
handle = a.register_hook(lambda grad: grad * 10)
d.backward(retain_graph=True)
print("a.grad", a.grad)
print("b.grad", b.grad)
print(b.retains_grad, c.retains_grad)

handle.remove()
a.grad = None
d.backward()
print("a.grad after remove", a.grad)
