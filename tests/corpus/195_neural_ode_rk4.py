# In the style of: a neural-ODE post: a hand-written RK4 solver backpropagated through (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: scientific-ml
import torch
import torch.nn as nn

torch.manual_seed(10)

class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
        self.nfe = 0
    def forward(self, t, y):
        self.nfe += 1
        return self.net(y) + 0.1 * torch.sin(t) * y

def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

def odeint(f, y0, ts):
    ys = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        y = rk4_step(f, t0, y, t1 - t0)
        ys.append(y)
    return torch.stack(ys)

true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
ts = torch.linspace(0, 1.0, 11)
y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = odeint(lambda t, y: (y ** 3) @ true_A, y0, ts)
print("true_y", true_y.shape, true_y[-1])

func = ODEFunc()
opt = torch.optim.RMSprop(func.parameters(), lr=1e-3)
for itr in range(5):
    opt.zero_grad()
    pred = odeint(func, y0, ts)
    loss = torch.mean(torch.abs(pred - true_y))
    loss.backward()
    opt.step()
    print(f"itr {itr} loss {loss.item():.6f} nfe {func.nfe}")
print(pred.grad_fn.name(), pred.shape)
print(func.net[2].weight.grad)

# sensitivity of final state wrt initial state
y0v = y0.clone().requires_grad_(True)
yT = odeint(func, y0v, ts)[-1]
J = torch.stack([torch.autograd.grad(yT[0, i], y0v, retain_graph=True)[0][0] for i in range(2)])
print("dyT/dy0", J)
print("jacobian via functional", torch.autograd.functional.jacobian(lambda v: odeint(func, v, ts)[-1], y0).squeeze())
