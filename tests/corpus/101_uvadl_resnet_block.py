# In the style of: UvA DL notebooks, "Inception, ResNet and DenseNet" (a ResNet block with
# BatchNorm2d, a 1x1 downsampling shortcut, and the residual sum)
# Family: uvadl
import torch
import torch.nn as nn


class ResNetBlock(nn.Module):
    def __init__(self, c_in, act_fn, subsample=False, c_out=-1):
        super().__init__()
        if not subsample:
            c_out = c_in
        self.net = nn.Sequential(
            nn.Conv2d(c_in, c_out, kernel_size=3, padding=1, stride=1 if not subsample else 2,
                      bias=False),
            nn.BatchNorm2d(c_out),
            act_fn(),
            nn.Conv2d(c_out, c_out, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(c_out),
        )
        self.downsample = nn.Conv2d(c_in, c_out, kernel_size=1, stride=2) if subsample else None
        self.act_fn = act_fn()

    def forward(self, x):
        z = self.net(x)
        if self.downsample is not None:
            x = self.downsample(x)
        return self.act_fn(z + x)


torch.manual_seed(0)
block = ResNetBlock(2, nn.ReLU, subsample=True, c_out=4)
x = torch.randn(3, 2, 6, 6)
out = block(x)
out.mean().backward()
print(out.shape, f"{out.mean().item():.5f}")
print(f"{block.net[0].weight.grad.norm():.5f} {block.downsample.weight.grad.norm():.5f}")
print(block.net[1].running_mean, sum(p.numel() for p in block.parameters()))
block.eval()
print(f"{block(x).mean().item():.5f}")
