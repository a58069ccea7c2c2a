# In the style of: makemore part 5, "building a WaveNet" (layers as plain classes, a
# FlattenConsecutive view, batch norm over dims (0, 1) of a 3-d input)
# Family: karpathy
import torch
import torch.nn.functional as F


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out)) / fan_in ** 0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)

    def __call__(self, x):
        dim = 0 if x.ndim == 2 else (0, 1)
        xmean = x.mean(dim, keepdim=True)
        xvar = x.var(dim, keepdim=True)
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps)
        self.out = self.gamma * xhat + self.beta
        with torch.no_grad():
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class FlattenConsecutive:
    def __init__(self, n):
        self.n = n

    def __call__(self, x):
        B, T, C = x.shape
        x = x.view(B, T // self.n, C * self.n)
        if x.shape[1] == 1:
            x = x.squeeze(1)
        self.out = x
        return self.out

    def parameters(self):
        return []


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


torch.manual_seed(42)
vocab, n_embd, n_hidden = 9, 4, 8
C = torch.randn((vocab, n_embd))
layers = [FlattenConsecutive(2), Linear(n_embd * 2, n_hidden, bias=False), BatchNorm1d(n_hidden),
          Tanh(), FlattenConsecutive(2), Linear(n_hidden * 2, vocab)]
parameters = [C] + [p for layer in layers for p in layer.parameters()]
for p in parameters:
    p.requires_grad = True
Xb, Yb = torch.randint(0, vocab, (6, 4)), torch.randint(0, vocab, (6,))
x = C[Xb]
for layer in layers:
    x = layer(x)
loss = F.cross_entropy(x, Yb)
loss.backward()
print(f"loss {loss.item():.4f}")
for layer in layers:
    print(layer.__class__.__name__, tuple(layer.out.shape))
print(layers[2].running_mean.shape, f"{sum(p.grad.abs().sum() for p in parameters):.4f}")
