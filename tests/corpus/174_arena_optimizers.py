# In the style of: ARENA 0.3 optimisers: hand-written SGD/RMSprop/Adam vs torch.optim on Rosenbrock (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: arena
import torch
torch.manual_seed(9)
def rosenbrocks_banana(x, y, a=1, b=100):
    return (a - x) ** 2 + b * (y - x**2) ** 2 + 1

class SGD:
    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0):
        self.params = list(params); self.lr = lr; self.mu = momentum; self.lmda = weight_decay
        self.b = [torch.zeros_like(p) for p in self.params]
    def zero_grad(self):
        for p in self.params: p.grad = None
    @torch.inference_mode()
    def step(self):
        for b, theta in zip(self.b, self.params):
            g = theta.grad
            if self.lmda != 0: g = g + self.lmda * theta
            if self.mu != 0: b.copy_(self.mu * b + g); g = b
            theta -= self.lr * g

class Adam:
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0):
        self.params = list(params); self.lr = lr; self.beta1, self.beta2 = betas; self.eps = eps; self.lmda = weight_decay
        self.m = [torch.zeros_like(p) for p in self.params]; self.v = [torch.zeros_like(p) for p in self.params]; self.t = 1
    def zero_grad(self):
        for p in self.params: p.grad = None
    @torch.inference_mode()
    def step(self):
        for theta, m, v in zip(self.params, self.m, self.v):
            g = theta.grad
            if self.lmda != 0: g = g + self.lmda * theta
            m.copy_(self.beta1 * m + (1 - self.beta1) * g)
            v.copy_(self.beta2 * v + (1 - self.beta2) * g.pow(2))
            m_hat = m / (1 - self.beta1 ** self.t); v_hat = v / (1 - self.beta2 ** self.t)
            theta -= self.lr * m_hat / (v_hat.sqrt() + self.eps)
        self.t += 1

def run(opt_cls, kw, n=100):
    xy = torch.tensor([-1.5, 2.5], requires_grad=True)
    opt = opt_cls([xy], **kw)
    for _ in range(n):
        opt.zero_grad(); rosenbrocks_banana(xy[0], xy[1]).backward(); opt.step()
    return xy.detach()

for mine, ref, kw in [(SGD, torch.optim.SGD, dict(lr=0.001, momentum=0.98, weight_decay=0.01)),
                      (Adam, torch.optim.Adam, dict(lr=0.1, betas=(0.8, 0.95), weight_decay=0.05))]:
    a = run(mine, kw); b = run(ref, kw)
    print(ref.__name__, a, b, torch.allclose(a, b, atol=1e-5), (a - b).abs().max().item())
for ref, kw in [(torch.optim.RMSprop, dict(lr=0.01, alpha=0.9, momentum=0.5)), (torch.optim.AdamW, dict(lr=0.1, weight_decay=0.1)),
                (torch.optim.Adagrad, dict(lr=0.5)), (torch.optim.SGD, dict(lr=0.001, momentum=0.9, nesterov=True))]:
    print(ref.__name__, run(ref, kw))
p = torch.nn.Parameter(torch.randn(3))
opt = torch.optim.Adam([p], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for i in range(5):
    opt.zero_grad(); (p ** 2).sum().backward(); opt.step(); sched.step()
    print(i, sched.get_last_lr(), p.data)
print(opt.state_dict()['param_groups'][0]['lr'], list(opt.state[p].keys()))
sgd = torch.optim.SGD([p], lr=1.0)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(sgd, T_max=4)
lrs = []
for _ in range(5):
    sgd.step(); cos.step(); lrs.append(round(cos.get_last_lr()[0], 4))
print(lrs)
