# In the style of: CS231n's softmax classifier assignment (a vectorised loss, its gradient, and a
# numerical gradient check)
# Family: stanford-cs231n-cs224n
import torch

torch.manual_seed(0)
N, D, K = 10, 5, 3
X = torch.randn(N, D, dtype=torch.float64)
y = torch.randint(0, K, (N,))
W = (0.01 * torch.randn(D, K, dtype=torch.float64)).requires_grad_()
reg = 0.1


def softmax_loss(W):
    scores = X @ W
    scores = scores - scores.max(dim=1, keepdim=True).values
    probs = scores.exp() / scores.exp().sum(dim=1, keepdim=True)
    data_loss = -probs[torch.arange(N), y].log().mean()
    return data_loss + reg * (W * W).sum()


loss = softmax_loss(W)
loss.backward()
print(f"loss {loss.item():.6f} (about -log(1/3) = {torch.log(torch.tensor(3.0)).item():.6f})")
h = 1e-5
for i, j in [(0, 0), (2, 1), (4, 2)]:
    with torch.no_grad():
        W[i, j] += h
        plus = softmax_loss(W)
        W[i, j] -= 2 * h
        minus = softmax_loss(W)
        W[i, j] += h
    numerical = (plus - minus) / (2 * h)
    print(f"({i},{j}) analytic {W.grad[i, j].item():+.6f} numerical {numerical.item():+.6f}")
