# In the style of: save/load recipes: torch.save/torch.load(weights_only) via BytesIO, strict=False keys, meta-device init + to_empty, load_state_dict(assign=True) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import io
import torch
import torch.nn as nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
        self.head = nn.Linear(4, 2)
        if extra:
            self.aux = nn.Linear(4, 1)
        self.register_buffer("step", torch.tensor(0))
    def forward(self, x):
        return self.head(self.body(x).relu())
net = Net()
net(torch.randn(5, 3))
buf = io.BytesIO()
torch.save({"model": net.state_dict(), "epoch": 3, "note": "hi"}, buf)
print(buf.getbuffer().nbytes > 0)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(list(ck["model"].keys()))
print(ck["epoch"], ck["note"], ck["model"]["body.1.num_batches_tracked"])
net2 = Net(extra=True)
res = net2.load_state_dict(ck["model"], strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
try:
    net2.load_state_dict(ck["model"])
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
sd = dict(ck["model"]); sd["head.weight"] = torch.zeros(3, 4)
try:
    Net().load_state_dict(sd)
except RuntimeError as e:
    print(str(e).split("\n")[1].strip())
with torch.device("meta"):
    big = Net()
print(big.head.weight.device, big.head.weight.shape, big.head.weight.is_meta)
print(big.head.weight)
big.load_state_dict(ck["model"], assign=True)
print(big.head.weight.device, torch.equal(big.head.weight, net.head.weight))
m2 = nn.Linear(2, 2, device="meta").to_empty(device="cpu")
print(m2.weight.device, m2.weight.shape)
buf = io.BytesIO(); torch.save(net, buf); buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__, str(e).split("\n")[0][:80])
buf.seek(0)
whole = torch.load(buf, weights_only=False)
print(type(whole).__name__, torch.equal(whole.head.bias, net.head.bias))
t = torch.arange(6.).view(2, 3)
b2 = io.BytesIO(); torch.save([t, t[0]], b2); b2.seek(0)
a, r = torch.load(b2)
a[0, 0] = 100.0
print(r, a.stride(), r.stride())
