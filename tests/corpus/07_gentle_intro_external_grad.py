# In the style of: PyTorch "A Gentle Introduction to torch.autograd" (differentiation in autograd)
# Family: pytorch-tutorials
import torch

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
print(Q)
print(Q.grad_fn.name())

external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)

print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
print(a.grad, b.grad)

# which tensors take part in the graph
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
print("Does `a` require gradients?:", (x + y).requires_grad)
print("Does `b` require gradients?:", (x + z).requires_grad)
