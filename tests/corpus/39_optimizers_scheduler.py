# In the style of: PyTorch optim docs (RMSprop, Adagrad, AdamW, StepLR) on a tiny quadratic
# Family: pytorch-docs
import torch
from torch import optim

target = torch.tensor([1.0, -2.0])


def train(make_optimizer, steps=6, scheduler=None):
    w = torch.zeros(2, requires_grad=True)
    opt = make_optimizer([w])
    sched = scheduler(opt) if scheduler else None
    for _ in range(steps):
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        opt.step()
        if sched:
            sched.step()
    return w.detach(), opt


for name, make in [("RMSprop", lambda p: optim.RMSprop(p, lr=0.1)),
                   ("Adagrad", lambda p: optim.Adagrad(p, lr=0.5)),
                   ("AdamW", lambda p: optim.AdamW(p, lr=0.1, weight_decay=0.01)),
                   ("Adam", lambda p: optim.Adam(p, lr=0.1)),
                   ("SGD", lambda p: optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True))]:
    w, _ = train(make)
    print(name, w)

w, opt = train(lambda p: optim.SGD(p, lr=0.2), steps=7,
               scheduler=lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
print("StepLR", w, opt.param_groups[0]["lr"])

p = torch.zeros(1, requires_grad=True)
opt = optim.SGD([p], lr=1.0)
sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
for epoch in range(5):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr())
