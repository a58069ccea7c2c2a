# In the style of: linear algebra with einsum notes (traces, diagonals, outer products)
# Family: blogs-and-qa
import torch

A = torch.arange(9.0).reshape(3, 3).requires_grad_()
trace = torch.einsum("ii", A)
diagonal = torch.einsum("ii->i", A)
outer = torch.einsum("i,j->ij", diagonal, diagonal)
print(trace, diagonal, sep="\n")
print(outer)
(trace + outer.sum()).backward()
print(A.grad)

B = torch.ones(2, 3, 3)
B.diagonal(dim1=1, dim2=2).mul_(4)  # a view: writes into B
print(B[0], torch.einsum("bii->b", B))
print(type(torch.einsum("ij->ji", A).grad_fn).__name__, type(A.diagonal().grad_fn).__name__,
      A.movedim(0, 1).is_contiguous())
