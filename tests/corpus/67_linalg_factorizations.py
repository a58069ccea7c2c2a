# In the style of: numerical linear algebra notes (least squares by QR, PCA by SVD, Cholesky)
# Family: scientific-ml
import torch

torch.manual_seed(1)
X = torch.randn(20, 3, dtype=torch.float64)
true_w = torch.tensor([1.5, -2.0, 0.5], dtype=torch.float64)
y = X @ true_w + 0.01 * torch.randn(20, dtype=torch.float64)

Q, R = torch.linalg.qr(X)  # least squares: R w = Q^T y
w = torch.linalg.solve(R, Q.T @ y)
print("least squares:", [round(v, 4) for v in w.tolist()])

A = X.clone().requires_grad_()
S = torch.linalg.svdvals(A)
print("singular values:", [round(v, 4) for v in S.tolist()], S.grad_fn.name())
S[0].backward()  # the largest singular value's gradient is u1 v1^T
U, _, Vh = torch.linalg.svd(A.detach(), full_matrices=False)
print(torch.allclose(A.grad, torch.outer(U[:, 0], Vh[0])))

C = X.T @ X / 20
evals = torch.linalg.eigvalsh(C)
print("covariance eigenvalues:", [round(v, 4) for v in evals.tolist()])
L = torch.linalg.cholesky(C)
print(torch.allclose(L @ L.T, C), L.grad_fn)
