# In the style of: Gaussian-process regression posts (an RBF kernel from torch.cdist, a Cholesky
# solve, and the marginal likelihood's gradient with respect to the length scale)
# Family: scientific-ml
import torch

torch.manual_seed(2)
x = torch.linspace(0, 5, 8, dtype=torch.float64).unsqueeze(1)
y = torch.sin(x).squeeze(1) + 0.05 * torch.randn(8, dtype=torch.float64)
log_length = torch.tensor(0.0, dtype=torch.float64, requires_grad=True)
noise = 1e-2
distances = torch.cdist(x, x)
K = torch.exp(-0.5 * distances ** 2 / torch.exp(log_length) ** 2)
K = K + noise * torch.eye(8, dtype=torch.float64)
L = torch.linalg.cholesky(K)
alpha = torch.cholesky_solve(y.unsqueeze(1), L)
nll = 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + L.diagonal().log().sum()
nll.backward()
print(f"negative log likelihood {nll.item():.4f}")
print(f"d/d log_length {log_length.grad.item():.4f}")
print(torch.cdist(x[:3], x[:2], p=1))
