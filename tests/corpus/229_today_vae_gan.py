# In the style of: PyTorch VAE example (reparametrisation, BCE sum, KLD) + DCGAN-style step with detach and BCEWithLogits pos_weight (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-examples
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 8); self.fc21 = nn.Linear(8, 2); self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8); self.fc4 = nn.Linear(8, 16)
    def encode(self, x):
        h1 = F.relu(self.fc1(x)); return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar); eps = torch.randn_like(std); return mu + eps * std
    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 16)); z = self.reparameterize(mu, logvar); return self.decode(z), mu, logvar
def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 16), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD
vae = VAE(); opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
data = torch.rand(8, 1, 4, 4)
for ep in range(3):
    recon, mu, logvar = vae(data)
    loss = loss_function(recon, data, mu, logvar)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"vae ep {ep} loss {loss.item() / len(data):.5f}")
print(recon.grad_fn.name(), mu.grad_fn.name(), vae.fc22.bias.grad.round(decimals=4))
G = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 4), nn.Tanh())
Dn = nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
oG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999)); oD = torch.optim.Adam(Dn.parameters(), lr=2e-4, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5]))
real = torch.randn(6, 4)
for it in range(3):
    z = torch.randn(6, 3); fake = G(z)
    lossD = crit(Dn(real), torch.ones(6, 1)) + crit(Dn(fake.detach()), torch.zeros(6, 1))
    oD.zero_grad(); lossD.backward(); oD.step()
    print("G grads after D step:", all(p.grad is None for p in G.parameters()))
    lossG = crit(Dn(fake), torch.ones(6, 1))
    oG.zero_grad(); lossG.backward(); oG.step()
    print(f"it {it} D {lossD.item():.5f} G {lossG.item():.5f}")
print(F.binary_cross_entropy_with_logits(torch.tensor([2.0, -1.0]), torch.tensor([1.0, 0.0]), weight=torch.tensor([1.0, 3.0]), reduction="none"))
try:
    F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
