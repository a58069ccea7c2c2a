# In the style of: CS231n's two-layer network assignment (forward pass, softmax loss with L2
# regularisation, the backward pass by hand, compared with autograd)
# Family: stanford-cs231n-cs224n
import torch

torch.manual_seed(0)
N, D, H, C, reg = 5, 4, 10, 3, 0.05
X = torch.randn(N, D, dtype=torch.float64)
y = torch.tensor([0, 1, 2, 2, 1])
double = torch.float64
params = {"W1": 1e-1 * torch.randn(D, H, dtype=double), "b1": torch.zeros(H, dtype=double),
          "W2": 1e-1 * torch.randn(H, C, dtype=double), "b2": torch.zeros(C, dtype=double)}
for p in params.values():
    p.requires_grad_()
hidden = torch.clamp(X @ params["W1"] + params["b1"], min=0)
scores = hidden @ params["W2"] + params["b2"]
shifted = scores - scores.max(dim=1, keepdim=True).values
probs = shifted.exp() / shifted.exp().sum(dim=1, keepdim=True)
penalty = reg * ((params["W1"] ** 2).sum() + (params["W2"] ** 2).sum())
loss = -probs[torch.arange(N), y].log().mean() + penalty
loss.backward()
with torch.no_grad():
    dscores = probs.clone()
    dscores[torch.arange(N), y] -= 1
    dscores /= N
    dW2 = hidden.T @ dscores + 2 * reg * params["W2"]
    dhidden = dscores @ params["W2"].T
    dhidden[hidden <= 0] = 0
    dW1 = X.T @ dhidden + 2 * reg * params["W1"]
print(f"loss {loss.item():.6f}")
print(torch.allclose(dW2, params["W2"].grad), torch.allclose(dW1, params["W1"].grad))
# (the difference itself is rounding noise, which each machine's matrix products make their own)
difference = (dW1 - params["W1"].grad).abs().max().item()
print("max difference below 1e-12:", difference < 1e-12, params["b2"].grad)
