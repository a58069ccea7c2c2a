# In the style of: Scientific ML: solve y' = -2y, y(0)=1 with a trial-solution MLP, plus harmonic oscillator energy grad (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: scientific-ml
import torch
from torch import nn
torch.manual_seed(11)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(1, 16); self.l2 = nn.Linear(16, 1)
    def forward(self, t):
        return self.l2(torch.sigmoid(self.l1(t)))
net = Net()
t = torch.linspace(0, 1, 20).reshape(-1, 1)
t.requires_grad = True
opt = torch.optim.Adam(net.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.99)
for epoch in range(150):
    y = 1 + t * net(t)
    dy = torch.autograd.grad(y.sum(), t, create_graph=True)[0]
    loss = torch.mean((dy + 2 * y) ** 2)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    if epoch % 50 == 0:
        print(epoch, loss.item())
with torch.no_grad():
    tt = torch.tensor([[0.0], [0.5], [1.0]])
    pred = 1 + tt * net(tt)
    print(pred.squeeze(), torch.exp(-2 * tt).squeeze())
    print('max err', (pred - torch.exp(-2 * tt)).abs().max())
# Hamiltonian: q' = dH/dp, p' = -dH/dq
q = torch.tensor([1.0, 0.0], requires_grad=True)
p = torch.tensor([0.0, 1.0], requires_grad=True)
traj = []
dt = 0.1
for step in range(10):
    H = 0.5 * (p ** 2).sum() + 0.5 * (q ** 2).sum() + 0.1 * (q ** 4).sum()
    dHdq, dHdp = torch.autograd.grad(H, (q, p))
    with torch.no_grad():
        p_new = p - dt * dHdq
        q_new = q + dt * p_new
    q = q_new.requires_grad_(); p = p_new.requires_grad_()
    traj.append(H.item())
print([round(h, 6) for h in traj])
print(q, p)
sol = torch.linalg.solve(torch.tensor([[3., 1.], [1., 2.]]), torch.tensor([9., 8.]))
print(sol, torch.linalg.eigvalsh(torch.tensor([[2., 1.], [1., 2.]])), torch.linalg.norm(sol), torch.linalg.det(torch.eye(3) * 2))
A = torch.randn(4, 4, dtype=torch.float64); A = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
L = torch.linalg.cholesky(A)
print(torch.dist(L @ L.T, A) < 1e-10, (torch.linalg.inv(A) @ A - torch.eye(4, dtype=A.dtype)).abs().max() < 1e-12)
U, S, Vh = torch.linalg.svd(torch.tensor([[1., 2.], [3., 4.], [5., 6.]]), full_matrices=False)
print(S, torch.linalg.matrix_rank(torch.ones(3, 3)), torch.linalg.qr(torch.eye(2)).R)
