# In the style of: the PyTorch docs' autograd notes on complex numbers (the gradient of a real
# loss by a complex tensor is the conjugate Wirtinger derivative, dL/dRe + i dL/dIm, and
# gradient descent with it minimises the loss) and the complex numbers tutorial
# Family: pytorch-docs
import torch

z = torch.tensor([1.0 + 2.0j, -0.5 + 0.5j, 3.0 - 1.0j], requires_grad=True)
loss = (z * z.conj()).real.sum()
loss.backward()
print("|z|^2 gradient (2z):", z.grad)

x = torch.tensor([1.0, -0.5, 3.0], requires_grad=True)
y = torch.tensor([2.0, 0.5, -1.0], requires_grad=True)
w = torch.complex(x, y)
(w.abs() ** 2).sum().backward()
print("by the parts:", x.grad, y.grad)

c = torch.tensor(0.5 + 0.5j)
z = torch.zeros(1, dtype=torch.cfloat, requires_grad=True)
optimizer = torch.optim.SGD([z], lr=0.25)
for step in range(6):
    optimizer.zero_grad()
    loss = (z - c).abs().pow(2).sum()
    loss.backward()
    optimizer.step()
    print(step, z.detach(), round(loss.item(), 6))

a = torch.randn(2, 2, dtype=torch.cfloat, generator=torch.Generator().manual_seed(1))
print(a)
print(torch.view_as_real(a).shape, a.real.dtype, a.abs().dtype, a.angle().dtype)
print(torch.polar(torch.tensor([2.0]), torch.tensor([torch.pi / 2])).real.abs() < 1e-6)
print(a.mH, torch.vdot(a[0], a[1]))
