# In the style of: CS231n PyTorch tutorial: two-layer net with manual backward, then autograd (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: stanford-cs231n-cs224n
import torch
torch.manual_seed(0)
dtype = torch.float64
N, D_in, H, D_out = 64, 1000, 100, 10
x = torch.randn(N, D_in, dtype=dtype)
y = torch.randn(N, D_out, dtype=dtype)
w1 = torch.randn(D_in, H, dtype=dtype)
w2 = torch.randn(H, D_out, dtype=dtype)
learning_rate = 1e-6
for t in range(50):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum().item()
    if t % 10 == 9:
        print(t, loss)
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= learning_rate * grad_w1
    w2 -= learning_rate * grad_w2

w1a = w1.clone().requires_grad_()
w2a = w2.clone().requires_grad_()
y_pred = x.mm(w1a).clamp(min=0).mm(w2a)
loss = (y_pred - y).pow(2).sum()
loss.backward()
h = x.mm(w1); hr = h.clamp(min=0); gy = 2.0 * (hr.mm(w2) - y)
gw1 = x.t().mm((gy.mm(w2.t())) * (h > 0))
print('max diff w1', (gw1 - w1a.grad).abs().max().item())
print('allclose', torch.allclose(gw1, w1a.grad))
print(w2a.grad[:2])

# softmax classifier loss with vectorized svm, cs231n style
scores = torch.randn(5, 3, dtype=torch.float32)
yy = torch.tensor([0, 1, 2, 1, 0])
correct = scores[torch.arange(5), yy].unsqueeze(1)
margins = torch.clamp(scores - correct + 1, min=0)
margins[torch.arange(5), yy] = 0
print('svm loss', margins.sum() / 5)
print(scores.log_softmax(dim=1).gather(1, yy.view(-1, 1)).squeeze())
