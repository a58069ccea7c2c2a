# In the style of: ARENA's optimisation exercises (SGD with momentum and RMSprop written by hand
# on the Rosenbrock function, then an SGD/Adam supporting parameter groups, all checked against
# torch.optim, including torch's own param_groups, state and duplicate-parameter error)
# Family: arena
import torch as t
from torch import nn


def rosenbrock(x, y, a=1, b=100):
    return (a - x) ** 2 + b * (y - x ** 2) ** 2 + 1


def opt_fn_with_sgd(fn, xy, lr=0.001, momentum=0.98, n_iters=100):
    assert xy.requires_grad
    xys = t.zeros((n_iters, 2))
    optimizer = t.optim.SGD([xy], lr=lr, momentum=momentum)
    for i in range(n_iters):
        xys[i] = xy.detach()
        out = fn(xy[0], xy[1])
        out.backward()
        optimizer.step()
        optimizer.zero_grad()
    return xys


class SGD:
    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0):
        self.params = list(params)
        self.lr, self.mu, self.lmda = lr, momentum, weight_decay
        self.b = [t.zeros_like(p) for p in self.params]

    def zero_grad(self) -> None:
        for param in self.params:
            param.grad = None

    @t.inference_mode()
    def step(self) -> None:
        for b, theta in zip(self.b, self.params):
            g = theta.grad
            if self.lmda != 0:
                g = g + self.lmda * theta
            if self.mu != 0:
                b.copy_(self.mu * b + g)
                g = b
            theta -= self.lr * g

    def __repr__(self) -> str:
        return f"SGD(lr={self.lr}, momentum={self.mu}, weight_decay={self.lmda})"


class RMSprop:
    def __init__(self, params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0.0, momentum=0.0,
                 centered=False):
        self.params = list(params)
        self.lr, self.alpha, self.eps, self.lmda = lr, alpha, eps, weight_decay
        self.mu, self.centered = momentum, centered
        self.v = [t.zeros_like(p) for p in self.params]
        self.b = [t.zeros_like(p) for p in self.params]
        self.g_ave = [t.zeros_like(p) for p in self.params]

    def zero_grad(self) -> None:
        for p in self.params:
            p.grad = None

    @t.inference_mode()
    def step(self) -> None:
        for theta, v, b, g_ave in zip(self.params, self.v, self.b, self.g_ave):
            g = theta.grad
            if self.lmda != 0:
                g = g + self.lmda * theta
            v.mul_(self.alpha).addcmul_(g, g, value=1 - self.alpha)
            avg = v
            if self.centered:
                g_ave.lerp_(g, 1 - self.alpha)
                avg = v.addcmul(g_ave, g_ave, value=-1)
            if self.mu > 0:
                b.mul_(self.mu).addcdiv_(g, avg.sqrt().add_(self.eps))
                theta.add_(b, alpha=-self.lr)
            else:
                theta.addcdiv_(g, avg.sqrt() + self.eps, value=-self.lr)


xy = t.tensor([-1.5, 2.5], requires_grad=True)
xys = opt_fn_with_sgd(rosenbrock, xy, lr=0.001, momentum=0.98, n_iters=100)
print(xys[::20])
print(f"final {rosenbrock(*xys[-1]).item():.4f}")


def train_on(opt_class, seed, **kwargs):
    t.manual_seed(seed)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    x, y = t.randn(16, 3), t.randn(16, 1)
    opt = opt_class(model.parameters(), **kwargs)
    for _ in range(10):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return [p.detach() for p in model.parameters()], loss.item()


for opt_class, ref_class, kwargs in [
    (SGD, t.optim.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.05)),
    (RMSprop, t.optim.RMSprop, dict(lr=0.01, alpha=0.95, momentum=0.5, weight_decay=0.01)),
    (RMSprop, t.optim.RMSprop, dict(lr=0.01, alpha=0.9, momentum=0.0, centered=True)),
]:
    mine, loss = train_on(opt_class, 3, **kwargs)
    theirs, ref_loss = train_on(ref_class, 3, **kwargs)
    ok = all(t.allclose(a, b, atol=1e-5) for a, b in zip(mine, theirs))
    print(f"{opt_class.__name__:8s} {loss:.5f} {ref_loss:.5f} {ok}")


class SGDGroups:
    def __init__(self, params, **kwargs):
        if not isinstance(params, (list, tuple)):
            params = [{"params": params}]
        default_param_values = dict(momentum=0.0, weight_decay=0.0)
        self.param_groups = []
        params_to_group_idx = {}
        for i, param_group in enumerate(params):
            param_group = {**default_param_values, **kwargs, **param_group}
            assert "lr" in param_group, f"Error: one of the parameter groups has no lr"
            param_group["params"] = list(param_group["params"])
            param_group["b"] = [t.zeros_like(p) for p in param_group["params"]]
            self.param_groups.append(param_group)
            for param in param_group["params"]:
                assert param not in params_to_group_idx, "Error: some parameters appear twice"
                params_to_group_idx[param] = i

    def zero_grad(self) -> None:
        for param_group in self.param_groups:
            for p in param_group["params"]:
                p.grad = None

    @t.inference_mode()
    def step(self) -> None:
        for group in self.param_groups:
            lmda, mu, lr = group["weight_decay"], group["momentum"], group["lr"]
            for b, theta in zip(group["b"], group["params"]):
                g = theta.grad + lmda * theta
                if mu:
                    b.copy_(mu * b + g)
                    g = b
                theta -= lr * g


def groups_for(model):
    return [{"params": model[0].parameters()},
            {"params": model[2].parameters(), "lr": 0.05, "momentum": 0.5}]


results = []
for cls in (SGDGroups, t.optim.SGD):
    t.manual_seed(4)
    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    opt = cls(groups_for(model), lr=0.2, weight_decay=0.01)
    x, y = t.randn(8, 3), t.randint(0, 2, (8,))
    for step in range(5):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    results.append(list(model.parameters()))
    print(cls.__name__, f"{loss.item():.4f}", [g["lr"] for g in opt.param_groups],
          [g["momentum"] for g in opt.param_groups])
print(all(t.allclose(a, b) for a, b in zip(*results)))

sd = opt.state_dict()
print(sd["param_groups"][1])
print(sorted(sd["state"].keys()), list(sd["state"][3].keys()))
print(opt.state[model[2].bias]["momentum_buffer"])
print(model[2].bias.grad)

adam = t.optim.Adam([{"params": [model[0].weight], "lr": 1e-2},
                     {"params": [model[0].bias]}], lr=1e-3, betas=(0.8, 0.9))
adam.add_param_group({"params": model[2].parameters(), "weight_decay": 0.1})
print([(len(g["params"]), g["lr"], g["betas"], g["weight_decay"]) for g in adam.param_groups])
print(adam.defaults["amsgrad"], adam.defaults["eps"])
try:
    t.optim.SGD([{"params": model[0].parameters()}, {"params": [model[0].bias]}], lr=0.1)
except ValueError as e:
    print(type(e).__name__ + ":", e)
try:
    t.optim.SGD(model.parameters(), lr=-0.1)
except ValueError as e:
    print(type(e).__name__ + ":", e)
