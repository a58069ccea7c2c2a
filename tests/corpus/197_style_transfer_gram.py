# In the style of: PyTorch's neural style transfer tutorial: gram matrices, content and style losses, AdaIN statistics (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
# tolerance: 1e-5 (float32 convolutions (oneDNN) add in their own order: the losses' last digits)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(12)

class Features(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.AvgPool2d(2)
    def forward(self, x):
        f1 = F.relu(self.c1(x))
        f2 = F.relu(self.c2(self.pool(f1)))
        return [f1, f2]

def gram_matrix(feat):
    b, c, h, w = feat.size()
    f = feat.view(b, c, h * w)
    return torch.bmm(f, f.transpose(1, 2)) / (c * h * w)

def tv_loss(img):
    return (img[:, :, 1:, :] - img[:, :, :-1, :]).abs().mean() + (img[:, :, :, 1:] - img[:, :, :, :-1]).abs().mean()

net = Features().eval()
for p in net.parameters():
    p.requires_grad_(False)
content = torch.rand(1, 3, 16, 16)
style = torch.rand(1, 3, 16, 16)
with torch.no_grad():
    c_feats = net(content)
    s_grams = [gram_matrix(f) for f in net(style)]
print([g.shape for g in s_grams])

img = content.clone().requires_grad_(True)
opt = torch.optim.Adam([img], lr=0.05)
for it in range(6):
    feats = net(img)
    c_loss = F.mse_loss(feats[1], c_feats[1])
    s_loss = sum(F.mse_loss(gram_matrix(f), g) for f, g in zip(feats, s_grams))
    loss = c_loss + 1e3 * s_loss + 0.1 * tv_loss(img)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        img.clamp_(0, 1)
    print(f"it {it} content {c_loss.item():.6f} style {s_loss.item():.8f} total {loss.item():.6f}")
print(img.grad.abs().mean(), img.grad.shape, loss.grad_fn.name())
print(net.c1.weight.grad is None, img.is_leaf)
g = gram_matrix(feats[0])
print(g.grad_fn.name(), g[0, :3, :3])
# channel-wise mean/std (AdaIN)
def adain(c, s, eps=1e-5):
    cm, cs = c.mean((2, 3), keepdim=True), c.std((2, 3), keepdim=True) + eps
    sm, ss = s.mean((2, 3), keepdim=True), s.std((2, 3), keepdim=True) + eps
    return (c - cm) / cs * ss + sm
out = adain(feats[1], c_feats[1])
print(out.mean().item(), out.std().item(), out.grad_fn.name())
