# In the style of: EMA of weights via torch.optim.swa_utils.AveragedModel (get_ema_multi_avg_fn), SWALR, update_bn (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, SWALR, get_ema_multi_avg_fn, update_bn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9), use_buffers=True)
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
X = torch.randn(64, 4); Y = X.sum(1, keepdim=True)
for epoch in range(6):
    for i in range(0, 64, 16):
        loss = (model(X[i:i + 16]) - Y[i:i + 16]).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        ema.update_parameters(model)
    swa.update_parameters(model)
    swa_sched.step()
    print(epoch, f"{loss.item():.5f}", round(opt.param_groups[0]["lr"], 5))
print(ema.n_averaged, swa.n_averaged)
print(ema.module[0].weight[0].detach().round(decimals=4))
print(swa.module[3].bias.detach().round(decimals=4))
print(list(ema.state_dict().keys())[:4])
loader = [(X[i:i + 16],) for i in range(0, 64, 16)]
update_bn(loader, swa)
print(swa.module[1].running_mean[:4].round(decimals=4), swa.module[1].num_batches_tracked)
swa.eval()
print(swa(X[:3]).detach().round(decimals=4).flatten())
ema2 = AveragedModel(model, avg_fn=lambda avg, cur, n: 0.5 * avg + 0.5 * cur)
ema2.update_parameters(model); ema2.update_parameters(model)
print(torch.allclose(ema2.module[0].weight, model[0].weight))
