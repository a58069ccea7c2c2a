# In the style of: "Einsum is all you need" posts (attention and a bilinear form in einsum)
# Family: blogs-and-qa
import torch

torch.manual_seed(0)
q = torch.randn(2, 3, 4, requires_grad=True)  # batch, queries, features
k = torch.randn(2, 5, 4, requires_grad=True)  # batch, keys, features
v = torch.randn(2, 5, 4, requires_grad=True)

scores = torch.einsum("bqd,bkd->bqk", q, k) / 4 ** 0.5
weights = scores.softmax(dim=-1)
out = torch.einsum("bqk,bkd->bqd", weights, v)
print(type(scores.grad_fn).__name__, tuple(scores.shape), tuple(out.shape))
print(weights.sum(dim=-1))

out.pow(2).sum().backward()
print(f"|dq| = {q.grad.norm():.4f}  |dk| = {k.grad.norm():.4f}  |dv| = {v.grad.norm():.4f}")

x = torch.tensor([1.0, 2.0], requires_grad=True)
A = torch.tensor([[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]], requires_grad=True)
y = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
form = torch.einsum("i,ij,j->", x, A, y)  # x^T A y
form.backward()
print(form, x.grad, y.grad, A.grad, sep="\n")
