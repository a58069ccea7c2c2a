# In the style of: fast.ai: init scale (kaiming), learner with callbacks, hooks for stats (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: fastai
import math
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(6)

x = torch.randn(200, 100)
for i in range(50):
    a = torch.randn(100, 100)
    x = x @ a
print('no init', x.mean(), x.std())
x = torch.randn(200, 100)
for i in range(50):
    x = x @ (torch.randn(100, 100) * math.sqrt(2 / 100))
    x = x.clamp_min(0.)
print('kaiming', x.mean().item() > 0, f"{x.std():.3f}")
w = torch.zeros(50, 100)
nn.init.kaiming_normal_(w, mode='fan_out')
print(f"{w.std():.4f}")
w2 = torch.empty(3, 5)
nn.init.xavier_uniform_(w2, gain=nn.init.calculate_gain('relu'))
print(w2)

class Callback: order = 0
class MetricsCB(Callback):
    def before_fit(self, learn): self.losses = []
    def after_batch(self, learn): self.losses.append(learn.loss.item())
    def after_epoch(self, learn): print(f"epoch {learn.epoch} mean loss {sum(self.losses)/len(self.losses):.5f}"); self.losses = []
class Learner:
    def __init__(self, model, dl, loss_func, lr, cbs):
        self.model, self.dl, self.loss_func, self.lr, self.cbs = model, dl, loss_func, lr, cbs
    def callback(self, name):
        for cb in sorted(self.cbs, key=lambda c: c.order):
            getattr(cb, name, lambda l: None)(self)
    def fit(self, n):
        self.opt = torch.optim.SGD(self.model.parameters(), self.lr, momentum=0.9)
        self.callback('before_fit')
        for self.epoch in range(n):
            for self.xb, self.yb in self.dl:
                self.preds = self.model(self.xb)
                self.loss = self.loss_func(self.preds, self.yb)
                self.loss.backward(); self.opt.step(); self.opt.zero_grad()
                self.callback('after_batch')
            self.callback('after_epoch')

X = torch.randn(96, 20); Y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
ds = torch.utils.data.TensorDataset(X, Y)
dl = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
model = nn.Sequential(nn.Linear(20, 50), nn.ReLU(), nn.Linear(50, 3))
acts = []
h = model[1].register_forward_hook(lambda m, i, o: acts.append((o.mean().item(), o.std().item())))
learn = Learner(model, dl, F.cross_entropy, 0.1, [MetricsCB()])
learn.fit(3)
h.remove()
print(len(acts), [f"{m:.3f}" for m, s in acts[:3]])
sched = torch.optim.lr_scheduler.OneCycleLR(learn.opt, max_lr=0.1, total_steps=10)
lrs = []
for _ in range(10):
    lrs.append(sched.get_last_lr()[0]); learn.opt.step(); sched.step()
print([round(l, 5) for l in lrs])
