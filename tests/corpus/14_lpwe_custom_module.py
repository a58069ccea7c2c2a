# In the style of: PyTorch "Learning PyTorch with Examples", custom nn Modules (Polynomial3 with
# nn.Parameter scalars, SGD); fewer steps
# Family: pytorch-tutorials
import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x**2 + self.d * x**3

    def string(self):
        return (f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2"
                f" + {self.d.item():.4f} x^3")


x = torch.linspace(-math.pi, math.pi, 500)
y = torch.sin(x)

torch.manual_seed(0)
model = Polynomial3()
print(model.string())
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(300):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 100 == 99:
        print(t, round(loss.item(), 3))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
print([name for name, _ in model.named_parameters()])
