# In the style of: neural-ODE posts written without a library (a fixed-step RK4 solver through
# which autograd backpropagates, fitting a decay rate)
# Family: scientific-ml
import torch

rate = torch.tensor(0.5, requires_grad=True)


def dynamics(t, y):
    return -rate * y + torch.sin(t)


def rk4(f, y0, t0, t1, steps):
    h = (t1 - t0) / steps
    t, y = torch.tensor(t0), y0
    for _ in range(steps):
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t = t + h
    return y


optimizer = torch.optim.SGD([rate], lr=0.5)
target = torch.tensor(0.8)
for step in range(4):
    y1 = rk4(dynamics, torch.tensor(1.0), 0.0, 2.0, 20)
    loss = (y1 - target) ** 2
    optimizer.zero_grad()
    loss.backward()
    print(f"step {step}: y(2) = {y1.item():.5f}, rate = {rate.item():.5f}, "
          f"grad = {rate.grad.item():.5f}")
    optimizer.step()
