# In the style of: ARENA's optimiser exercises (Adam written by hand with bias correction,
# stepped alongside torch.optim.Adam on the same parameters)
# Family: arena
import torch


class Adam:
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0):
        self.params = list(params)
        self.lr, (self.beta1, self.beta2), self.eps, self.lmda = lr, betas, eps, weight_decay
        self.m = [torch.zeros_like(p) for p in self.params]
        self.v = [torch.zeros_like(p) for p in self.params]
        self.t = 0

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.inference_mode()
    def step(self):
        self.t += 1
        for i, (p, m, v) in enumerate(zip(self.params, self.m, self.v, strict=True)):
            g = p.grad
            if self.lmda != 0:
                g = g + self.lmda * p
            self.m[i] = self.beta1 * m + (1 - self.beta1) * g
            self.v[i] = self.beta2 * v + (1 - self.beta2) * g.pow(2)
            m_hat = self.m[i] / (1 - self.beta1 ** self.t)
            v_hat = self.v[i] / (1 - self.beta2 ** self.t)
            p -= self.lr * m_hat / (v_hat.sqrt() + self.eps)


def run(optimizer_class, **kwargs):
    torch.manual_seed(0)
    w = torch.randn(4, requires_grad=True)
    optimizer = optimizer_class([w], **kwargs)
    for _ in range(20):
        optimizer.zero_grad()
        loss = ((w - torch.arange(4.0)) ** 2).sum() + w.prod()
        loss.backward()
        optimizer.step()
    return w.detach(), loss.item()


for kwargs in ({"lr": 0.1}, {"lr": 0.05, "betas": (0.8, 0.95), "weight_decay": 0.01}):
    (mine, loss), (theirs, _) = run(Adam, **kwargs), run(torch.optim.Adam, **kwargs)
    print(f"{loss:.5f}", [round(v, 4) for v in theirs.tolist()],
          torch.allclose(mine, theirs, atol=1e-5))
