# In the style of: fast.ai "from the foundations" (part 2) Learner lesson (a Learner whose
# training loop is run by callbacks via a with_cbs decorator and Cancel*Exceptions, with
# torch.utils.data loaders, a metrics callback and an LR finder using ExponentialLR)
# Family: fastai
import math
from functools import partial
from operator import attrgetter

import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset, default_collate


class CancelFitException(Exception):
    pass


class CancelBatchException(Exception):
    pass


class CancelEpochException(Exception):
    pass


class Callback:
    order = 0


def run_cbs(cbs, method_nm, learn=None):
    for cb in sorted(cbs, key=attrgetter("order")):
        method = getattr(cb, method_nm, None)
        if method is not None:
            method(learn)


class with_cbs:
    def __init__(self, nm):
        self.nm = nm

    def __call__(self, f):
        def _f(o, *args, **kwargs):
            try:
                o.callback(f"before_{self.nm}")
                f(o, *args, **kwargs)
                o.callback(f"after_{self.nm}")
            except globals()[f"Cancel{self.nm.title()}Exception"]:
                pass
            finally:
                o.callback(f"cleanup_{self.nm}")
        return _f


class DataLoaders:
    def __init__(self, *dls):
        self.train, self.valid = dls[:2]


class Learner:
    def __init__(self, model, dls=(0,), loss_func=F.mse_loss, lr=0.1, cbs=None,
                 opt_func=optim.SGD):
        self.model, self.dls, self.loss_func, self.lr = model, dls, loss_func, lr
        self.cbs, self.opt_func = list(cbs or []), opt_func

    @with_cbs("batch")
    def _one_batch(self):
        self.predict()
        self.callback("after_predict")
        self.get_loss()
        self.callback("after_loss")
        if self.training:
            self.backward()
            self.callback("after_backward")
            self.step()
            self.callback("after_step")
            self.zero_grad()

    @with_cbs("epoch")
    def _one_epoch(self):
        for self.iter, self.batch in enumerate(self.dl):
            self._one_batch()

    def one_epoch(self, training):
        self.model.train(training)
        self.dl = self.dls.train if training else self.dls.valid
        self._one_epoch()

    @with_cbs("fit")
    def _fit(self, train, valid):
        for self.epoch in self.epochs:
            if train:
                self.one_epoch(True)
            if valid:
                torch.no_grad()(self.one_epoch)(False)

    def fit(self, n_epochs=1, train=True, valid=True, cbs=None, lr=None):
        cbs = list(cbs or [])
        for cb in cbs:
            self.cbs.append(cb)
        try:
            self.n_epochs = n_epochs
            self.epochs = range(n_epochs)
            if lr is None:
                lr = self.lr
            if self.opt_func:
                self.opt = self.opt_func(self.model.parameters(), lr)
            self._fit(train, valid)
        finally:
            for cb in cbs:
                self.cbs.remove(cb)

    def __getattr__(self, name):
        if name in ("predict", "get_loss", "backward", "step", "zero_grad"):
            return partial(self.callback, name)
        raise AttributeError(name)

    def callback(self, method_nm):
        run_cbs(self.cbs, method_nm, self)

    @property
    def training(self):
        return self.model.training


class TrainCB(Callback):
    def __init__(self, n_inp=1):
        self.n_inp = n_inp

    def predict(self, learn):
        learn.preds = learn.model(*learn.batch[:self.n_inp])

    def get_loss(self, learn):
        learn.loss = learn.loss_func(learn.preds, *learn.batch[self.n_inp:])

    def backward(self, learn):
        learn.loss.backward()

    def step(self, learn):
        learn.opt.step()

    def zero_grad(self, learn):
        learn.opt.zero_grad()


class Mean:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def update(self, value, weight=1):
        self.total += value * weight
        self.count += weight

    def compute(self):
        return self.total / self.count


class MetricsCB(Callback):
    def __init__(self):
        self.loss, self.acc = Mean(), Mean()

    def before_epoch(self, learn):
        self.loss, self.acc = Mean(), Mean()

    def after_batch(self, learn):
        x, y = learn.batch
        n = len(x)
        self.loss.update(learn.loss.item(), weight=n)
        self.acc.update((learn.preds.argmax(dim=1) == y).float().mean().item(), weight=n)

    def after_epoch(self, learn):
        log = dict(accuracy=f"{self.acc.compute():.3f}", loss=f"{self.loss.compute():.3f}",
                   epoch=learn.epoch, train="train" if learn.model.training else "eval")
        print(log)


class CompletionCB(Callback):
    def before_fit(self, learn):
        self.count = 0

    def after_batch(self, learn):
        self.count += 1

    def after_fit(self, learn):
        print(f"Completed {self.count} batches")


class SingleBatchCB(Callback):
    order = 1

    def after_batch(self, learn):
        raise CancelFitException()


class LRFinderCB(Callback):
    def __init__(self, gamma=1.3, max_mult=3):
        self.gamma, self.max_mult = gamma, max_mult

    def before_fit(self, learn):
        self.sched = optim.lr_scheduler.ExponentialLR(learn.opt, self.gamma)
        self.lrs, self.losses = [], []
        self.min = math.inf

    def after_batch(self, learn):
        if not learn.training:
            raise CancelEpochException()
        self.lrs.append(learn.opt.param_groups[0]["lr"])
        loss = learn.loss.item()
        self.losses.append(loss)
        if loss < self.min:
            self.min = loss
        if math.isnan(loss) or (loss > self.min * self.max_mult):
            raise CancelFitException()
        self.sched.step()


torch.manual_seed(0)
n_classes = 3
centres = torch.randn(n_classes, 4) * 2
y_all = torch.randint(0, n_classes, (96,))
x_all = centres[y_all] + torch.randn(96, 4)
train_ds, valid_ds = TensorDataset(x_all[:64], y_all[:64]), TensorDataset(x_all[64:], y_all[64:])
print(len(train_ds), train_ds[0])
dls = DataLoaders(DataLoader(train_ds, batch_size=16, shuffle=True,
                             generator=torch.Generator().manual_seed(1)),
                  DataLoader(valid_ds, batch_size=32))
xb, yb = next(iter(dls.valid))
print(xb.shape, yb.dtype, yb[:10])
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 0)]))


def get_model():
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, n_classes))


model = get_model()
learn = Learner(model, dls, F.cross_entropy, lr=0.2, cbs=[TrainCB(), MetricsCB(),
                                                          CompletionCB()])
learn.fit(2)

learn = Learner(get_model(), dls, F.cross_entropy, lr=0.2, cbs=[TrainCB(), CompletionCB()])
learn.fit(1, cbs=[SingleBatchCB()])
print(len(learn.cbs), learn.preds.shape, learn.loss.grad_fn.name())
try:
    learn.no_such_thing
except AttributeError as e:
    print("AttributeError:", e)

learn = Learner(get_model(), dls, F.cross_entropy, lr=1e-4, cbs=[TrainCB()])
lrf = LRFinderCB(gamma=3.0)
learn.fit(10, cbs=[lrf])
print(len(lrf.lrs), [f"{lr:.2e}" for lr in lrf.lrs][:6], f"{lrf.min:.4f}")
print(lrf.sched.get_last_lr(), learn.epoch)
