# In the style of: pytorch/examples' word language model (tied weights, a GRU) with a parameter EMA by torch._foreach_ ops (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-examples
# tolerance: 1e-5 (torch's GRU runs its gates' sigmoid and tanh in place on strided chunks (other float32 bits), and matrix products (MKL): the losses' last digits)
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(19)

class TinyLM(nn.Module):
    def __init__(self, vocab=30, d=12):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab, bias=False)
        self.out.weight = self.emb.weight  # weight tying
    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)

model = TinyLM()
ema = copy.deepcopy(model)
for p in ema.parameters():
    p.requires_grad_(False)
print("tied", model.out.weight is model.emb.weight, len(list(model.parameters())))

@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.lerp_(pm, 1 - decay)
    for be, bm in zip(ema.buffers(), model.buffers()):
        be.copy_(bm)

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
seq = torch.randint(1, 30, (4, 9))
seq[0, -3:] = 0
for it in range(5):
    logits = model(seq[:, :-1])
    loss = F.cross_entropy(logits.transpose(1, 2), seq[:, 1:], ignore_index=0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(ema, model, decay=0.9)
    print(f"it {it} loss {loss.item():.6f} emb.grad[0] zero {bool((model.emb.weight.grad[0] == 0).all())}")
print(model.emb.weight.grad[1, :4])
diff = sum((a - b).abs().sum() for a, b in zip(ema.parameters(), model.parameters()))
print("ema-model diff", diff.item())
print(ema.emb.weight[2, :4], model.emb.weight[2, :4])
print(logits.grad_fn.name(), logits.shape)

# EMA with torch._foreach and manual addcmul
ema_params = [p.detach().clone() for p in model.parameters()]
torch._foreach_mul_(ema_params, 0.99)
torch._foreach_add_(ema_params, [p.detach() for p in model.parameters()], alpha=0.01)
print(torch.allclose(ema_params[0], model.emb.weight.detach()))
v = torch.zeros(3)
v.addcmul_(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, 0.5, 0.5]), value=2.0)
print(v)
sd = ema.state_dict()
print(sorted(sd.keys()))
print(model.rnn.weight_hh_l0.grad.shape, model.rnn.bias_ih_l0.grad[:3])
