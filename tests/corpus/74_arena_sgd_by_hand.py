# In the style of: ARENA's optimisers exercises (an SGD with momentum and weight decay written by
# hand, tested against torch.optim.SGD)
# Family: arena
import torch


class MySGD:
    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0):
        self.params = list(params)
        self.lr, self.mu, self.lmda = lr, momentum, weight_decay
        self.b = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.inference_mode()
    def step(self):
        for i, p in enumerate(self.params):
            g = p.grad
            if self.lmda != 0:
                g = g + self.lmda * p
            if self.mu != 0:
                self.b[i] = self.mu * self.b[i] + g if self.b[i].abs().sum() > 0 else g
                g = self.b[i]
            p -= self.lr * g


def rosenbrock(x, y):
    return (1 - x) ** 2 + 10 * (y - x ** 2) ** 2


def trajectory(optimizer_class, **kwargs):
    xy = torch.tensor([-1.0, 2.0], requires_grad=True)
    optimizer = optimizer_class([xy], **kwargs)
    for _ in range(30):
        optimizer.zero_grad()
        rosenbrock(xy[0], xy[1]).backward()
        optimizer.step()
    return xy.detach()


for kwargs in ({"lr": 0.001}, {"lr": 0.001, "momentum": 0.9}, {"lr": 0.001, "momentum": 0.5,
                                                                "weight_decay": 0.05}):
    mine, theirs = trajectory(MySGD, **kwargs), trajectory(torch.optim.SGD, **kwargs)
    print(kwargs, [round(v, 4) for v in theirs.tolist()], torch.allclose(mine, theirs))
