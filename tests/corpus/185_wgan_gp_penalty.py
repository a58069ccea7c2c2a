# In the style of: a WGAN-GP post: the critic's gradient penalty through autograd.grad(create_graph=True) on interpolates (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
import torch.nn as nn
import torch.autograd as autograd

torch.manual_seed(0)

class Critic(nn.Module):
    def __init__(self, d=4, h=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.LeakyReLU(0.2), nn.Linear(h, h), nn.LeakyReLU(0.2), nn.Linear(h, 1))
    def forward(self, x):
        return self.net(x)

G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 4))
D = Critic()
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
lambda_gp = 10.0

def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1).expand_as(real)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interp = D(interp)
    grads = autograd.grad(outputs=d_interp, inputs=interp,
                          grad_outputs=torch.ones_like(d_interp),
                          create_graph=True, retain_graph=True, only_inputs=True)[0]
    grads = grads.view(grads.size(0), -1)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean(), grads

for step in range(4):
    real = torch.randn(8, 4) * 0.5 + 1.0
    z = torch.randn(8, 2)
    fake = G(z).detach()
    gp, grads = gradient_penalty(D, real, fake)
    d_loss = D(fake).mean() - D(real).mean() + lambda_gp * gp
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    print(f"step {step} d_loss={d_loss.item():.6f} gp={gp.item():.6f} grad_fn={d_loss.grad_fn.name()}")
    print("  grads shape", tuple(grads.shape), "grads.grad_fn", type(grads.grad_fn).__name__)
    print("  D last bias grad", D.net[4].bias.grad)
    if step % 2 == 1:
        z = torch.randn(8, 2)
        g_loss = -D(G(z)).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print(f"  g_loss={g_loss.item():.6f}", G[2].weight.grad.abs().sum().item())
print(D.net[0].weight[:2])
