# In the style of: the SIREN explore_siren notebook and the Fourier-feature-networks demo
# (sine layers with omega_0 and their uniform init, fitting an image on a meshgrid, its gradient
# and Laplacian through autograd.grad; then sin/cos of a random Gaussian projection of the
# coordinates against no mapping, for a ReLU MLP)
# Family: scientific-ml
import math

import torch
from torch import nn


class SineLayer(nn.Module):
    def __init__(self, in_features, out_features, bias=True, is_first=False, omega_0=30):
        super().__init__()
        self.omega_0 = omega_0
        self.is_first = is_first
        self.in_features = in_features
        self.linear = nn.Linear(in_features, out_features, bias=bias)
        self.init_weights()

    def init_weights(self):
        with torch.no_grad():
            if self.is_first:
                self.linear.weight.uniform_(-1 / self.in_features, 1 / self.in_features)
            else:
                self.linear.weight.uniform_(-math.sqrt(6 / self.in_features) / self.omega_0,
                                            math.sqrt(6 / self.in_features) / self.omega_0)

    def forward(self, input):
        return torch.sin(self.omega_0 * self.linear(input))


class Siren(nn.Module):
    def __init__(self, in_features, hidden_features, hidden_layers, out_features,
                 outermost_linear=False, first_omega_0=30, hidden_omega_0=30.):
        super().__init__()
        self.net = []
        self.net.append(SineLayer(in_features, hidden_features, is_first=True,
                                  omega_0=first_omega_0))
        for i in range(hidden_layers):
            self.net.append(SineLayer(hidden_features, hidden_features, is_first=False,
                                      omega_0=hidden_omega_0))
        if outermost_linear:
            final_linear = nn.Linear(hidden_features, out_features)
            with torch.no_grad():
                final_linear.weight.uniform_(-math.sqrt(6 / hidden_features) / hidden_omega_0,
                                             math.sqrt(6 / hidden_features) / hidden_omega_0)
            self.net.append(final_linear)
        else:
            self.net.append(SineLayer(hidden_features, out_features, is_first=False,
                                      omega_0=hidden_omega_0))
        self.net = nn.Sequential(*self.net)

    def forward(self, coords):
        coords = coords.clone().detach().requires_grad_(True)  # allows derivatives w.r.t. input
        output = self.net(coords)
        return output, coords


def get_mgrid(sidelen, dim=2):
    tensors = tuple(dim * [torch.linspace(-1, 1, steps=sidelen)])
    mgrid = torch.stack(torch.meshgrid(*tensors, indexing="ij"), dim=-1)
    mgrid = mgrid.reshape(-1, dim)
    return mgrid


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    grad = torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]
    return grad


def divergence(y, x):
    div = 0.
    for i in range(y.shape[-1]):
        div += torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]),
                                   create_graph=True)[0][..., i:i + 1]
    return div


def laplace(y, x):
    grad = gradient(y, x)
    return divergence(grad, x)


torch.manual_seed(0)
sidelength = 8
coords = get_mgrid(sidelength, 2)
print(coords.shape, coords[:3])
# A small synthetic "cameraman": a smooth pattern plus a sharp edge.
pixels = (torch.sin(3 * coords[:, :1]) * torch.cos(2 * coords[:, 1:])
          + (coords[:, :1] > 0.2).float() * 0.5)

img_siren = Siren(in_features=2, out_features=1, hidden_features=32, hidden_layers=2,
                  outermost_linear=True)
print(img_siren.net[0].linear.weight.abs().max() <= 0.5, img_siren.net[1].omega_0)
optim = torch.optim.Adam(lr=1e-3, params=img_siren.parameters())
total_steps, steps_til_summary = 16, 5
for step in range(total_steps):
    model_output, coords_in = img_siren(coords)
    loss = ((model_output - pixels) ** 2).mean()
    if not step % steps_til_summary or step == total_steps - 1:
        print("Step %d, Total loss %0.6f" % (step, loss.item()))
        img_grad = gradient(model_output, coords_in)
        img_laplacian = laplace(model_output, coords_in)
        print("  grad norm %.4f  laplacian mean %.2f" % (
            img_grad.norm(dim=-1).mean().item(), img_laplacian.mean().item()))
    optim.zero_grad()
    loss.backward()
    optim.step()
print(img_laplacian.shape, img_laplacian.grad_fn.name(), coords_in.is_leaf, coords.grad)


# Fourier features: gamma(v) = [cos(2 pi B v), sin(2 pi B v)] with B ~ N(0, scale^2).
def input_mapping(x, B):
    if B is None:
        return x
    x_proj = (2. * torch.pi * x) @ B.T
    return torch.cat([torch.sin(x_proj), torch.cos(x_proj)], dim=-1)


def make_network(num_layers, in_dim, num_channels):
    layers = [nn.Linear(in_dim, num_channels), nn.ReLU()]
    for _ in range(num_layers - 2):
        layers += [nn.Linear(num_channels, num_channels), nn.ReLU()]
    layers += [nn.Linear(num_channels, 1), nn.Sigmoid()]
    return nn.Sequential(*layers)


mapping_size = 16
B_dict = {"none": None, "basic": torch.eye(2), "gauss_10": torch.randn(mapping_size, 2) * 10.}
x_test = get_mgrid(6, 2) * 0.5 + 0.5
y_test = (torch.sin(4 * x_test[:, :1]) * x_test[:, 1:]).sigmoid()
for name, B in B_dict.items():
    torch.manual_seed(1)
    feats = input_mapping(x_test, B)
    net = make_network(4, feats.shape[-1], 32)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    losses = []
    for it in range(20):
        opt.zero_grad()
        loss = 0.5 * torch.mean((net(feats) - y_test) ** 2)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    psnr = -10 * math.log10(2. * losses[-1])
    print(f"{name:8s} in_dim {feats.shape[-1]:2d}  final loss {losses[-1]:.6f}  psnr {psnr:.2f}")
print(input_mapping(x_test[:2], B_dict["basic"]))
