# In the style of: training-loop recipes: AdamW amsgrad + gradient accumulation + clip_grad_norm_ + optimizer state round trip (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.SiLU(), nn.Dropout(0.0), nn.Linear(12, 3))
decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
nodecay = [p for n, p in model.named_parameters() if p.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": nodecay, "weight_decay": 0.0}],
                        lr=3e-3, betas=(0.9, 0.95), amsgrad=True, eps=1e-8)
X = torch.randn(32, 6); Y = torch.randint(0, 3, (32,))
accum = 4
for step in range(3):
    opt.zero_grad(set_to_none=True)
    total = 0.0
    for micro in range(accum):
        xb, yb = X[micro * 8:(micro + 1) * 8], Y[micro * 8:(micro + 1) * 8]
        loss = F.cross_entropy(model(xb), yb) / accum
        loss.backward()
        total += loss.item()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5, foreach=True)
    opt.step()
    print(f"step {step} loss {total:.5f} gradnorm {norm.item():.5f}")
sd = opt.state_dict()
print(sorted(sd["state"][0].keys()), sd["param_groups"][0]["amsgrad"], sd["param_groups"][1]["params"])
print(sd["state"][0]["step"], sd["state"][0]["max_exp_avg_sq"].shape)
buf = io.BytesIO(); torch.save(sd, buf); buf.seek(0)
opt2 = torch.optim.AdamW(model.parameters(), lr=1.0)
try:
    opt2.load_state_dict(torch.load(buf))
except ValueError as e:
    print("ValueError:", e)
for name, cls, kw in [("NAdam", torch.optim.NAdam, {"decoupled_weight_decay": True, "weight_decay": 0.01}),
                      ("RAdam", torch.optim.RAdam, {"decoupled_weight_decay": True, "weight_decay": 0.01}),
                      ("Adamax", torch.optim.Adamax, {}), ("Adagrad", torch.optim.Adagrad, {"lr_decay": 0.01}),
                      ("Adadelta", torch.optim.Adadelta, {}), ("ASGD", torch.optim.ASGD, {}), ("Rprop", torch.optim.Rprop, {})]:
    torch.manual_seed(1)
    w = torch.randn(4, requires_grad=True)
    o = cls([w], lr=0.05, **kw) if name != "Adadelta" else cls([w], **kw)
    for _ in range(5):
        o.zero_grad(); (w - torch.arange(4.)).pow(2).sum().backward(); o.step()
    print(name, w.detach().round(decimals=5))
print(torch.nn.utils.clip_grad_value_(model.parameters(), 0.01), model[0].weight.grad.abs().max())
print(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).round(decimals=5))
