# In the style of: Hamiltonian and Lagrangian neural network posts (an HNN whose vector field
# is dH/dp, -dH/dq from torch.autograd.grad with a permutation matrix, trained on a spring,
# rolled out with a symplectic leapfrog; then a Lagrangian's equations of motion for two
# coupled masses through torch.autograd.functional.hessian and jacobian)
# Family: scientific-ml
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, jacobian

torch.manual_seed(42)


class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim):
        super().__init__()
        self.linear1 = nn.Linear(input_dim, hidden_dim)
        self.linear2 = nn.Linear(hidden_dim, hidden_dim)
        self.linear3 = nn.Linear(hidden_dim, output_dim, bias=None)
        for l in [self.linear1, self.linear2, self.linear3]:
            nn.init.orthogonal_(l.weight)

    def forward(self, x):
        h = torch.tanh(self.linear1(x))
        h = torch.tanh(self.linear2(h))
        return self.linear3(h)


class HNN(nn.Module):
    def __init__(self, input_dim, differentiable_model):
        super().__init__()
        self.differentiable_model = differentiable_model
        self.M = self.permutation_tensor(input_dim)

    def forward(self, x):
        return self.differentiable_model(x)

    def time_derivative(self, x):
        H = self.forward(x)
        dH = torch.autograd.grad(H.sum(), x, create_graph=True)[0]
        return dH @ self.M.t()

    def permutation_tensor(self, n):
        M = torch.eye(n)
        return torch.cat([M[n // 2:], -M[:n // 2]])


# Ideal spring: H = (q^2 + p^2) / 2, so dq/dt = p and dp/dt = -q; noisy observations.
def get_dataset(n):
    radii = torch.rand(n, 1) * 0.9 + 0.1
    angles = torch.rand(n, 1) * 2 * torch.pi
    x = torch.cat([radii * torch.cos(angles), radii * torch.sin(angles)], dim=1)
    dxdt = torch.cat([x[:, 1:], -x[:, :1]], dim=1)
    return x + 0.01 * torch.randn_like(x), dxdt


x, dxdt = get_dataset(64)
model = HNN(2, MLP(2, 32, 1))
print(model.M)
optim = torch.optim.Adam(model.parameters(), 1e-2, weight_decay=1e-4)
for step in range(40):
    x_req = x.clone().requires_grad_(True)
    dxdt_hat = model.time_derivative(x_req)
    loss = (dxdt - dxdt_hat).pow(2).mean()
    loss.backward()
    grad = torch.cat([p.grad.flatten() for p in model.parameters()]).clone()
    optim.step()
    optim.zero_grad()
    if step % 10 == 0 or step == 39:
        print("step {}, train_loss {:.4e}, grad norm {:.4e}".format(step, loss.item(),
                                                                     grad @ grad))


def leapfrog(dH, q, p, dt, steps):
    """Kick-drift-kick: symplectic, so the energy of the learned H stays bounded."""
    traj = [torch.stack([q, p])]
    for _ in range(steps):
        p = p - 0.5 * dt * dH(q, p)[0]
        q = q + dt * dH(q, p)[1]
        p = p - 0.5 * dt * dH(q, p)[0]
        traj.append(torch.stack([q, p]))
    return torch.stack(traj)


def learned_dH(q, p):
    state = torch.stack([q, p]).view(1, 2).requires_grad_(True)
    H = model(state)
    dHdq, dHdp = torch.autograd.grad(H, state)[0].view(2)
    return dHdq.detach(), dHdp.detach()


def true_dH(q, p):
    return q, p


q0, p0 = torch.tensor(1.0), torch.tensor(0.0)
traj = leapfrog(true_dH, q0, p0, 0.1, 30)
energy = 0.5 * (traj ** 2).sum(dim=1)
print(traj[-1], f"{(energy.max() - energy.min()).item():.6f}")
traj_hnn = leapfrog(learned_dH, q0, p0, 0.1, 30)
print(traj_hnn[::10])
with torch.no_grad():
    H_along = model(traj_hnn).squeeze(1)
print(f"learned H drift {(H_along.max() - H_along.min()).item():.5f}")


# Two masses on springs: wall -k- m1 -k- m2. L = T - V.
m = torch.tensor([1.0, 2.0], dtype=torch.float64)
k = 3.0


def lagrangian(q, q_t):
    T = 0.5 * (m * q_t ** 2).sum()
    V = 0.5 * k * (q[0] ** 2 + (q[1] - q[0]) ** 2)
    return T - V


def equation_of_motion(lagrangian, q, q_t):
    n = q.shape[0]
    state = torch.cat([q, q_t])
    L = lambda s: lagrangian(s[:n], s[n:])
    H = hessian(L, state, create_graph=True)
    J = jacobian(L, state, create_graph=True)
    # q_tt = (d2L/dq_t2)^-1 (dL/dq - d2L/(dq_t dq) q_t)
    return torch.linalg.pinv(H[n:, n:]) @ (J[:n] - H[n:, :n] @ q_t)


q = torch.tensor([0.3, -0.2], dtype=torch.float64)
q_t = torch.tensor([0.0, 0.5], dtype=torch.float64)
q_tt = equation_of_motion(lagrangian, q, q_t)
K = torch.tensor([[2 * k, -k], [-k, k]], dtype=torch.float64)
print(q_tt, -(K @ q) / m)
print(hessian(lambda s: lagrangian(s[:2], s[2:]), torch.cat([q, q_t])))
inputs = (q, q_t)
jac = jacobian(lagrangian, inputs)
hes = hessian(lagrangian, inputs, vectorize=True)
print(type(jac).__name__, jac[0], jac[1])
print(len(hes), len(hes[0]), hes[0][1], hes[1][1])

# A Lagrangian network: the learned L is an MLP of (q, q_t); one loss step on accelerations.
lnn = nn.Sequential(nn.Linear(4, 16), nn.Softplus(), nn.Linear(16, 16), nn.Softplus(),
                    nn.Linear(16, 1)).double()
learned_L = lambda q, q_t: lnn(torch.cat([q, q_t])).squeeze()
states = torch.randn(3, 4, dtype=torch.float64)
pred = torch.stack([equation_of_motion(learned_L, s[:2], s[2:]) for s in states])
target = torch.stack([-(K @ s[:2]) / m for s in states])
loss = (pred - target).pow(2).mean()
loss.backward()
print(f"lnn loss {loss.item():.6f}", pred.grad_fn.name(), lnn[0].weight.grad.norm() > 0)
