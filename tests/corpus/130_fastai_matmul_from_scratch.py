# In the style of: fast.ai "from the foundations" (part 2) matrix multiplication lesson (a
# triple loop, then elementwise, broadcasting and einsum versions compared with @, plus the
# broadcasting rules shown with expand_as, strides, None indexing and an outer product)
# Family: fastai
import math

import torch
from torch import tensor

torch.set_printoptions(precision=2, linewidth=140, sci_mode=False)


# fast.ai's random number generator from scratch (Wichmann-Hill), before torch.manual_seed
rnd_state = None


def seed(a):
    global rnd_state
    a, x = divmod(a, 30268)
    a, y = divmod(a, 30306)
    a, z = divmod(a, 30322)
    rnd_state = int(x) + 1, int(y) + 1, int(z) + 1


def rand():
    global rnd_state
    x, y, z = rnd_state
    x = (171 * x) % 30269
    y = (172 * y) % 30307
    z = (170 * z) % 30323
    rnd_state = x, y, z
    return (x / 30269 + y / 30307 + z / 30323) % 1.0


seed(457428938475)
print([round(rand(), 4) for _ in range(3)])

torch.manual_seed(42)
x_valid = torch.rand(5, 12)  # five flattened "images"
weights = torch.randn(12, 10)
bias = torch.zeros(10)
m1, m2 = x_valid[:5], weights
print(m1.shape, m2.shape)


def matmul_loops(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            for k in range(ac):
                c[i, j] += a[i, k] * b[k, j]
    return c


def matmul_elementwise(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = (a[i, :] * b[:, j]).sum()
    return c


def matmul_dot(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        for j in range(bc):
            c[i, j] = torch.dot(a[i, :], b[:, j])
    return c


def matmul_broadcast(a, b):
    (ar, ac), (br, bc) = a.shape, b.shape
    c = torch.zeros(ar, bc)
    for i in range(ar):
        c[i] = (a[i, :, None] * b).sum(dim=0)
    return c


def matmul_einsum(a, b):
    return torch.einsum("ik,kj->ij", a, b)


def test_close(a, b, eps=1e-5):
    assert torch.allclose(a, b, rtol=0, atol=eps), f"near: {a}\n{b}"


t1 = matmul_loops(m1, m2)
print(t1)
print(t1.shape)
for f in (matmul_elementwise, matmul_dot, matmul_broadcast, matmul_einsum):
    test_close(t1, f(m1, m2))
    print(f.__name__, "ok")
test_close(t1, m1 @ m2)
test_close(t1, m1.matmul(m2))
print("all close to @")
mr = torch.einsum("ik,kj->ikj", m1, m2)
print(mr.shape, torch.allclose(mr.sum(1), t1, atol=1e-5))
try:
    test_close(t1, t1 + 1e-3)
except AssertionError as e:
    print("AssertionError:", str(e).splitlines()[0][:25])

# broadcasting, as in the lesson
a = tensor([10., 6, -4])
b = tensor([2., 8, 7])
print(a + b, (a < b).float().mean())
m = tensor([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
sf = (m * m).sum()
print(sf, sf.sqrt(), m[2, :], m[:, 2], m[2])
c = tensor([10., 20, 30])
print(m + c)
print(c + m)
t = c.expand_as(m)
print(t)
print(t.stride(), t.shape, c.unsqueeze(0), c.shape, c.unsqueeze(1), c[None, :].shape)
print(c[:, None].shape, c[None].shape, c[..., None].shape)
print(c[:, None].expand_as(m))
print(m + c[:, None])
print(c[None, :] * c[:, None])
print(c[None] > c[:, None])

# the "time it" numbers the lesson prints are replaced by a flop count
ar, ac = m1.shape
bc = m2.shape[1]
print(f"{ar * bc * ac} multiply-adds, {ar * bc} dot products of length {ac}")
torch.manual_seed(1)
x = torch.randn(50, 784) / math.sqrt(784)
w = torch.randn(784, 10)
print(f"{(x @ w).std().item():.2f}", torch.allclose(matmul_broadcast(x, w), x @ w, atol=1e-5))
print(w)
sub = m[1:, 1:]
print(sub.storage_offset(), sub.stride(), sub.is_contiguous(), m.T.stride(),
      m.T.is_contiguous(), m.T.contiguous().stride())
torch.set_printoptions(profile="default")
print(x[0, :8], weights.numel())
