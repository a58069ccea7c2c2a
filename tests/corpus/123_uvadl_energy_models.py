# In the style of: UvA DL notebooks, "Deep Energy-Based Generative Models" (a Swish CNN as the
# energy, a replay-buffer Sampler doing Langevin dynamics on the input: noise.normal_, .data
# updates, clamped x.grad, set_grad_enabled; contrastive divergence + regularisation, Adam)
# Family: uvadl
import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class CNNModel(nn.Module):
    def __init__(self, hidden_features=4, out_dim=1, **kwargs):
        super().__init__()
        c_hid1 = hidden_features
        c_hid2 = hidden_features
        c_hid3 = hidden_features * 2

        self.cnn_layers = nn.Sequential(
            nn.Conv2d(1, c_hid1, kernel_size=5, stride=2, padding=4),  # [6x6]
            Swish(),
            nn.Conv2d(c_hid1, c_hid2, kernel_size=3, stride=2, padding=1),  # [3x3]
            Swish(),
            nn.Conv2d(c_hid2, c_hid3, kernel_size=3, stride=2, padding=1),  # [2x2]
            Swish(),
            nn.Flatten(),
            nn.Linear(c_hid3 * 4, c_hid3),
            Swish(),
            nn.Linear(c_hid3, out_dim)
        )

    def forward(self, x):
        x = self.cnn_layers(x).squeeze(dim=-1)
        return x


class Sampler:
    def __init__(self, model, img_shape, sample_size, max_len=16):
        super().__init__()
        self.model = model
        self.img_shape = img_shape
        self.sample_size = sample_size
        self.max_len = max_len
        self.examples = [(torch.rand((1,) + img_shape) * 2 - 1) for _ in range(self.sample_size)]

    def sample_new_exmps(self, steps=60, step_size=10):
        # Choose 95% of the batch from the buffer, 5% generate from scratch
        n_new = np.random.binomial(self.sample_size, 0.05)
        rand_imgs = torch.rand((n_new,) + self.img_shape) * 2 - 1
        old_imgs = torch.cat(random.choices(self.examples, k=self.sample_size - n_new), dim=0)
        inp_imgs = torch.cat([rand_imgs, old_imgs], dim=0).detach()

        # Perform MCMC sampling
        inp_imgs = Sampler.generate_samples(self.model, inp_imgs, steps=steps,
                                            step_size=step_size)

        # Add new images to the buffer and remove old ones if needed
        self.examples = list(inp_imgs.to(torch.device("cpu")).chunk(self.sample_size,
                                                                    dim=0)) + self.examples
        self.examples = self.examples[:self.max_len]
        return inp_imgs

    @staticmethod
    def generate_samples(model, inp_imgs, steps=60, step_size=10, return_img_per_step=False):
        # Before MCMC: set model parameters to "required_grad=False"
        is_training = model.training
        model.eval()
        for p in model.parameters():
            p.requires_grad = False
        inp_imgs.requires_grad = True

        # Enable gradient calculation if not already the case
        had_gradients_enabled = torch.is_grad_enabled()
        torch.set_grad_enabled(True)

        # We use a buffer tensor in which we generate noise each loop iteration.
        noise = torch.randn(inp_imgs.shape, device=inp_imgs.device)

        imgs_per_step = []

        for _ in range(steps):
            # Part 1: Add noise to the input.
            noise.normal_(0, 0.005)
            inp_imgs.data.add_(noise.data)
            inp_imgs.data.clamp_(min=-1.0, max=1.0)

            # Part 2: calculate gradients for the current input.
            out_imgs = -model(inp_imgs)
            out_imgs.sum().backward()
            # For stabilizing and preventing too high gradients
            inp_imgs.grad.data.clamp_(-0.03, 0.03)

            # Apply gradients to our current samples
            inp_imgs.data.add_(-step_size * inp_imgs.grad.data)
            inp_imgs.grad.detach_()
            inp_imgs.grad.zero_()
            inp_imgs.data.clamp_(min=-1.0, max=1.0)

            if return_img_per_step:
                imgs_per_step.append(inp_imgs.clone().detach())

        # Reactivate gradients for parameters for training
        for p in model.parameters():
            p.requires_grad = True
        model.train(is_training)

        # Reset gradient calculation to setting before this function
        torch.set_grad_enabled(had_gradients_enabled)

        if return_img_per_step:
            return torch.stack(imgs_per_step, dim=0)
        else:
            return inp_imgs


random.seed(42)
np.random.seed(42)
torch.manual_seed(42)
img_shape, alpha = (1, 8, 8), 0.1
cnn = CNNModel()
sampler = Sampler(cnn, img_shape=img_shape, sample_size=4)
optimizer = optim.Adam(cnn.parameters(), lr=1e-3, betas=(0.0, 0.999))
scheduler = optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.97)
data = torch.rand(12, *img_shape) * 2 - 1

for step in range(3):
    real_imgs = data[4 * step:4 * step + 4].clone()
    # Add minimal noise to the original images to prevent the model from focusing on purely
    # "clean" inputs
    small_noise = torch.randn_like(real_imgs) * 0.005
    real_imgs.add_(small_noise).clamp_(min=-1.0, max=1.0)

    # Obtain samples
    fake_imgs = sampler.sample_new_exmps(steps=6, step_size=10)

    # Predict energy score for all images
    inp_imgs = torch.cat([real_imgs, fake_imgs], dim=0)
    real_out, fake_out = cnn(inp_imgs).chunk(2, dim=0)

    # Calculate losses
    reg_loss = alpha * (real_out ** 2 + fake_out ** 2).mean()
    cdiv_loss = fake_out.mean() - real_out.mean()
    loss = reg_loss + cdiv_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step} loss {loss.item():.5f} loss_regularization {reg_loss.item():.5f} "
          f"loss_contrastive_divergence {cdiv_loss.item():.5f}")

print(fake_imgs.requires_grad, fake_imgs.grad.abs().sum().item(), fake_imgs[0, 0, 0])
print(len(sampler.examples), torch.is_grad_enabled(), cnn.training)
with torch.no_grad():
    start = torch.rand((2,) + img_shape) * 2 - 1
print(torch.is_grad_enabled())
chain = Sampler.generate_samples(cnn, start, steps=3, step_size=10, return_img_per_step=True)
print(chain.shape, torch.is_grad_enabled(), chain.requires_grad, f"{chain.mean():.5f}")
print(-cnn(chain[-1]).detach())
