# In the style of: ARENA's ResNet exercises, without einops (a BatchNorm2d written by hand with
# register_buffer running statistics, checked against nn.BatchNorm2d in train and eval mode,
# then used in a residual block whose state_dict is loaded into a torch.nn twin)
# Family: arena
# tolerance: 1e-5 (torch's batch-norm backward adds a channel's gradients in its own
#   order: a bias gradient summed over three backward passes differs in the 7th digit)
import torch as t
from torch import Tensor, nn


class BatchNorm2d(nn.Module):
    running_mean: Tensor
    running_var: Tensor
    num_batches_tracked: Tensor

    def __init__(self, num_features: int, eps=1e-05, momentum=0.1):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.weight = nn.Parameter(t.ones(num_features))
        self.bias = nn.Parameter(t.zeros(num_features))
        self.register_buffer("running_mean", t.zeros(num_features))
        self.register_buffer("running_var", t.ones(num_features))
        self.register_buffer("num_batches_tracked", t.tensor(0))

    def forward(self, x: Tensor) -> Tensor:
        if self.training:
            mean = x.mean(dim=(0, 2, 3), keepdim=True)
            var = x.var(dim=(0, 2, 3), unbiased=False, keepdim=True)
            n = x.numel() / x.shape[1]
            with t.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean.squeeze())
                unbiased = var.squeeze() * n / (n - 1)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * unbiased)
            self.num_batches_tracked += 1
        else:
            mean = self.running_mean.reshape(1, -1, 1, 1)
            var = self.running_var.reshape(1, -1, 1, 1)
        weight = self.weight.reshape(1, -1, 1, 1)
        bias = self.bias[None, :, None, None]
        return (x - mean) / t.sqrt(var + self.eps) * weight + bias

    def extra_repr(self) -> str:
        return ", ".join(f"{key}={getattr(self, key)}"
                         for key in ["num_features", "eps", "momentum"])


t.manual_seed(1)
mine, theirs = BatchNorm2d(3), nn.BatchNorm2d(3)
print(mine)
print(theirs)
for step in range(3):
    x = t.randn(4, 3, 5, 5) * (step + 1) + 2
    x1, x2 = x.clone().requires_grad_(), x.clone().requires_grad_()
    out1, out2 = mine(x1), theirs(x2)
    (out1 ** 3).sum().backward()
    (out2 ** 3).sum().backward()
    print(step, t.allclose(out1, out2, atol=1e-5), t.allclose(x1.grad, x2.grad, atol=1e-3),
          out2.grad_fn.name())
print(mine.running_mean, theirs.running_mean, sep="\n")
print(mine.running_var, theirs.running_var, sep="\n")
print(mine.num_batches_tracked, theirs.num_batches_tracked)
print(t.allclose(mine.weight.grad, theirs.weight.grad, atol=1e-3), theirs.bias.grad)
mine.eval()
theirs.eval()
x = t.randn(2, 3, 2, 2)
print("eval:", t.allclose(mine(x), theirs(x), atol=1e-5), mine.num_batches_tracked.item())
print(list(mine.state_dict().keys()) == list(theirs.state_dict().keys()))
print({k: v.dtype for k, v in theirs.state_dict().items()})

# momentum=None: a cumulative moving average in torch's BatchNorm
cma = nn.BatchNorm2d(2, momentum=None, affine=False)
for i in range(3):
    cma(t.full((1, 2, 2, 2), float(i)) + t.arange(2.0).reshape(1, 2, 1, 1) * t.randn(1, 2, 2, 2))
print("momentum=None:", cma.running_mean, cma.num_batches_tracked.item())


class ResidualBlock(nn.Module):
    def __init__(self, in_feats: int, out_feats: int, first_stride=1, bn=BatchNorm2d):
        super().__init__()
        self.left = nn.Sequential(
            nn.Conv2d(in_feats, out_feats, kernel_size=3, stride=first_stride, padding=1,
                      bias=False),
            bn(out_feats),
            nn.ReLU(),
            nn.Conv2d(out_feats, out_feats, kernel_size=3, stride=1, padding=1, bias=False),
            bn(out_feats),
        )
        if first_stride > 1:
            self.right = nn.Sequential(
                nn.Conv2d(in_feats, out_feats, kernel_size=1, stride=first_stride, bias=False),
                bn(out_feats),
            )
        else:
            self.right = nn.Identity()
        self.relu = nn.ReLU()

    def forward(self, x: Tensor) -> Tensor:
        return self.relu(self.left(x) + self.right(x))


class AveragePool(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return t.mean(x, dim=(2, 3))


t.manual_seed(2)
block = nn.Sequential(ResidualBlock(3, 4, first_stride=2), AveragePool(), nn.Linear(4, 2))
twin = nn.Sequential(ResidualBlock(3, 4, first_stride=2, bn=nn.BatchNorm2d),
                     nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(4, 2))
print(block)
sd = block.state_dict()
print(len(sd), [k for k in sd if "running" in k])
twin_keys = list(twin.state_dict().keys())
# the pooling layer shifts the Linear's index by one, so map the keys in order
result = twin.load_state_dict(dict(zip(twin_keys, sd.values())))
print(result)
x = t.randn(2, 3, 8, 8)
y1, y2 = block(x), twin(x)
print(y1.shape, t.allclose(y1, y2, atol=1e-5))
print(y2)
block.eval()
twin.eval()
print(t.allclose(block(x), twin(x), atol=1e-5))
print(block[0].left[1].running_var)
try:
    twin.load_state_dict({k: v for k, v in zip(twin_keys, sd.values()) if "bias" not in k})
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
print(twin.load_state_dict(dict(zip(twin_keys[:-1], list(sd.values())[:-1])), strict=False))
