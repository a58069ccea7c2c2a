# In the style of: fast.ai part 2: matmul from scratch, broadcasting, einsum (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: fastai
import torch
torch.manual_seed(5)
torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)
x_valid = torch.randn(5, 784)
weights = torch.randn(784, 10)
bias = torch.zeros(10)
m1 = x_valid
m2 = weights

def matmul_loops(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i, :] * b[:, j]).sum()
    return c

def matmul_bcast(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i, :, None] * b).sum(dim=0)
    return c

t1 = matmul_loops(m1, m2)
t2 = matmul_bcast(m1, m2)
t3 = torch.einsum('ik,kj->ij', m1, m2)
print(t1)
print(torch.allclose(t1, t2, rtol=1e-3, atol=1e-3), torch.allclose(t1, t3, atol=1e-3))
a = torch.tensor([10., 6, -4])
c = torch.tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
print(a > 0, (a > 0).float().mean())
print(c + a, c * a[:, None])
print(a.expand_as(c))
print(a.expand_as(c).stride(), a.unsqueeze(0).shape, a[None].shape, a[..., None].shape)
print(c.untyped_storage().nbytes(), c.element_size(), c.data_ptr() == c.view(-1).data_ptr())
print(torch.einsum('i,j->ij', a, a))
print(c.frobenius_norm() if hasattr(c, 'frobenius_norm') else (c * c).sum().sqrt())
print(c[None, :, :].shape, c[:, None].shape)
print(m2)
print(x_valid[0].view(28, 28)[10:14, 10:16])
torch.set_printoptions(precision=4, linewidth=80, sci_mode=None)
print(torch.tensor([1e-8, 1.0, 12345.678]))
print(torch.tensor([1.5, 2.25]).half(), torch.tensor([3, 4]).to(torch.int64) / 2)
print(torch.tensor([[True, False]]), torch.tensor(3.5, dtype=torch.float64))
