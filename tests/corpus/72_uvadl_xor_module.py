# In the style of: UvA DL notebooks, "Introduction to PyTorch" (a small XOR classifier as an
# nn.Module with BCEWithLogitsLoss)
# Family: uvadl
import torch
import torch.nn as nn


class SimpleClassifier(nn.Module):
    def __init__(self, num_inputs, num_hidden, num_outputs):
        super().__init__()
        self.linear1 = nn.Linear(num_inputs, num_hidden)
        self.act_fn = nn.Tanh()
        self.linear2 = nn.Linear(num_hidden, num_outputs)

    def forward(self, x):
        return self.linear2(self.act_fn(self.linear1(x)))


torch.manual_seed(42)
model = SimpleClassifier(num_inputs=2, num_hidden=4, num_outputs=1)
print(model)
for name, param in model.named_parameters():
    print(f"Parameter {name}, shape {param.shape}")
data = torch.randint(0, 2, (64, 2)).float()
label = (data.sum(dim=1) == 1).float()
data = data + 0.1 * torch.randn(data.shape)
loss_module = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    preds = model(data).squeeze(dim=1)
    loss = loss_module(preds, label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        print(f"epoch {epoch:3d} loss {loss.item():.4f}")
accuracy = ((torch.sigmoid(model(data).squeeze(1)) >= 0.5).float() == label).float().mean()
print(f"accuracy {accuracy.item():.3f}")
