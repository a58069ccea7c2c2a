# In the style of: ARENA's "build your own backpropagation" exercises (forward functions recorded
# in a graph by hand, topological sort, gradients checked against torch's)
# Family: arena
import torch


def log_back(grad_out, out, x):
    return grad_out / x


def multiply_back0(grad_out, out, x, y):
    return grad_out * y


def multiply_back1(grad_out, out, x, y):
    return grad_out * x


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([2.0, 3.0, 1.0], requires_grad=True)
c = a * b
d = torch.log(c)
e = d * a
e.sum().backward()
grad_e = torch.ones(3)
grad_d = multiply_back0(grad_e, e, d, a)
grad_a = multiply_back1(grad_e, e, d, a)
grad_c = log_back(grad_d, d, c)
grad_a = grad_a + multiply_back0(grad_c, c, a, b)
grad_b = multiply_back1(grad_c, c, a, b)
print(grad_a, a.grad, torch.allclose(grad_a, a.grad))
print(grad_b, b.grad, torch.allclose(grad_b, b.grad))


def topological_sort(node):
    order, seen = [], set()

    def visit(n):
        if n is None or n in seen:
            return
        seen.add(n)
        for child, _ in n.next_functions:
            visit(child)
        order.append(n.name())

    visit(node)
    return order


print(topological_sort(e.grad_fn))
