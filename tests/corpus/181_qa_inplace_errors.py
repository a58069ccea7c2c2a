# In the style of: Q&A: in-place modification errors, leaf moved into graph interior, non-leaf .grad warning, requires_grad on slices (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import warnings
import torch
torch.manual_seed(16)
def show(fn):
    try:
        r = fn()
        print('ok', r)
    except RuntimeError as e:
        print('RuntimeError:', str(e).split('\n')[0])
a = torch.randn(3, requires_grad=True)
def inplace_after_use():
    b = a.sigmoid()
    b.mul_(2)
    b.sum().backward()
show(inplace_after_use)
def inplace_exp():
    x = a * 1
    y = x.exp()
    y += 1
    return torch.autograd.grad(y.sum(), a)[0].shape
show(inplace_exp)
def leaf_inplace():
    w = torch.ones(2, requires_grad=True)
    w += 1
show(leaf_inplace)
def leaf_slice():
    w = torch.zeros(3, requires_grad=True)
    w[0] = 5.0
show(leaf_slice)
def leaf_moved():
    w = torch.ones(3, requires_grad=True)
    v = w[:2]
    v.mul_(2)
    return v
show(leaf_moved)
def backward_twice():
    y = (a ** 2).sum()
    y.backward(); y.backward()
show(backward_twice)
def nonscalar():
    (a * 2).backward()
show(nonscalar)
def no_grad_tensor():
    torch.ones(2).sum().backward()
show(no_grad_tensor)
def int_requires_grad():
    torch.tensor([1, 2], requires_grad=True)
show(int_requires_grad)
def view_of_leaf_ok():
    x = torch.ones(4, requires_grad=True)
    y = x.clone()
    y[1:3] = torch.tensor([5.0, 6.0])
    (y * y).sum().backward()
    return x.grad
show(view_of_leaf_ok)
def slice_requires_grad():
    x = torch.ones(4)
    s = x[1:3]
    s.requires_grad_()
    return s.is_leaf, s.requires_grad
show(slice_requires_grad)
def slice_of_graph():
    x = torch.ones(4, requires_grad=True)
    x[1:3].requires_grad_(False)
show(slice_of_graph)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.sum().backward()
    print(y.grad, x.grad)
    print(len(w), str(w[0].message)[:70] if w else None)
m = torch.ones(2, 2, requires_grad=True)
n = m.t()
n[0, 1].item()
print(n._version, m._version, m.grad_fn, n.grad_fn.name())
