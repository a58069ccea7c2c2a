# In the style of: "patch extraction with nn.Unfold/nn.Fold" Q&A + PixelUnshuffle/ChannelShuffle + overlap-add (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 5, 5, requires_grad=True)
unfold = nn.Unfold(kernel_size=(2, 3), dilation=1, padding=1, stride=(2, 1))
patches = unfold(x)
print(unfold, patches.shape, patches.grad_fn.name())
fold = nn.Fold(output_size=(5, 5), kernel_size=(2, 3), padding=1, stride=(2, 1))
recon = fold(patches)
ones = fold(unfold(torch.ones_like(x)))
print(ones[0, 0])
print(torch.allclose(recon / ones, x))
(recon * torch.arange(25.).view(1, 1, 5, 5)).sum().backward()
print(x.grad[0, 1].round(decimals=3))
# overlap-add as in audio: frames -> signal
frames = torch.randn(1, 4, 4)
sig = F.fold(frames, output_size=(1, 10), kernel_size=(1, 4), stride=(1, 2))
print(sig.shape, sig.flatten().round(decimals=4))
ps = nn.PixelShuffle(2); pu = nn.PixelUnshuffle(2)
t = torch.arange(32.).view(1, 8, 2, 2)
print(ps(t).shape, torch.equal(pu(ps(t)), t), ps(t)[0, 0])
cs = nn.ChannelShuffle(2)
print(cs(torch.arange(4.).view(1, 4, 1, 1)).flatten())
# im2col conv equals conv2d
w = torch.randn(3, 2, 2, 3)
cols = F.unfold(x.detach(), (2, 3), padding=1, stride=(2, 1))
out = (w.view(3, -1) @ cols).view(1, 3, 3, 5)
print(torch.allclose(out, F.conv2d(x.detach(), w, padding=1, stride=(2, 1)), atol=1e-5))
print(F.pad(torch.arange(6.).view(1, 2, 3), (2, 1), mode="reflect"), F.pad(torch.arange(4.).view(1, 1, 2, 2), (1, 1, 1, 1), mode="replicate")[0, 0])
print(F.pad(torch.arange(3.).view(1, 1, 3), (2, 2), mode="circular"))
