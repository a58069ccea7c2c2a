# In the style of: an einsum post: attention and bilinear forms by einsum, einops-like reshapes (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(20)

def rearrange_patches(img, p):
    # 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)'
    b, c, H, W = img.shape
    x = img.reshape(b, c, H // p, p, W // p, p)
    x = x.permute(0, 2, 4, 3, 5, 1)
    return x.reshape(b, (H // p) * (W // p), p * p * c)

class MiniViT(nn.Module):
    def __init__(self, p=4, c=3, d=16, heads=2, n_cls=3, n_patches=4):
        super().__init__()
        self.p, self.h = p, heads
        self.proj = nn.Linear(p * p * c, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n_patches + 1, d) * 0.02)
        self.qkv = nn.Linear(d, 3 * d)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_cls)
    def forward(self, img):
        x = self.proj(rearrange_patches(img, self.p))
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
        b, n, d = x.shape
        qkv = self.qkv(self.norm(x)).unflatten(-1, (3, self.h, d // self.h))
        q, k, v = qkv.unbind(2)
        att = torch.einsum("bihd,bjhd->bhij", q, k) * (d // self.h) ** -0.5
        att = att.softmax(-1)
        o = torch.einsum("bhij,bjhd->bihd", att, v).flatten(2)
        x = x + o
        return self.head(x[:, 0]), att

torch.set_printoptions(precision=6, sci_mode=False)
vit = MiniViT()
opt = torch.optim.Adam(vit.parameters(), lr=1e-2)
imgs = torch.randn(5, 3, 8, 8)
labels = torch.tensor([0, 1, 2, 1, 0])
for it in range(5):
    logits, att = vit(imgs)
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"it {it} loss {loss.item():.6f}")
print(att.shape, att.sum(-1)[0, 0])
print(vit.cls.grad.squeeze()[:6], vit.pos.grad.shape)
A = torch.randn(2, 3, 4, requires_grad=True)
B = torch.randn(4, 5, requires_grad=True)
C = torch.einsum("bij,jk->bik", A, B)
tr = torch.einsum("bii->b", torch.einsum("bij,bkj->bik", A, A))
bil = torch.einsum("bn,anm,bm->ba", A[:, 0], torch.randn(2, 4, 4), A[:, 1])
outer = torch.einsum("i,j->ij", B[:, 0], B[0])
(C.sum() + tr.sum() + bil.pow(2).sum() + outer.mean()).backward()
print(C.grad_fn.name(), tr, bil.shape)
print(A.grad[0], B.grad[:, 0])
x = torch.arange(24.).view(2, 3, 4)
print(x.movedim(1, -1).shape, x.flatten(0, 1).unflatten(0, (3, 2))[1, 0], torch.einsum("...ij->...ji", x).shape)
print(torch.tensordot(x, x, dims=([1, 2], [1, 2])))
