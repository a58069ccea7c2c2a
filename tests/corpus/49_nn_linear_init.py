# In the style of: PyTorch "Build the Neural Network" tutorial (nn.Linear's initial weights after
# manual_seed, a small Sequential, printing the model and its parameters)
# Family: pytorch-tutorials
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
print(layer.weight)
print(layer.bias)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.stack = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3))

    def forward(self, x):
        return self.stack(self.flatten(x))


model = NeuralNetwork()
print(model)
X = torch.rand(2, 2, 2)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
print(pred_probab)
print(pred_probab.argmax(1))
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:1]}")
