# In the style of: PyTorch "Datasets & DataLoaders" tutorial (TensorDataset, DataLoader with
# and without shuffling, random_split); in-memory tensors instead of a download
# Family: pytorch-tutorials
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

features = torch.arange(20.0).reshape(10, 2)
labels = torch.arange(10) % 3
dataset = TensorDataset(features, labels)
print(len(dataset), dataset[3])

for xb, yb in DataLoader(dataset, batch_size=4):
    print(xb.shape, yb.tolist())

torch.manual_seed(0)
loader = DataLoader(dataset, batch_size=3, shuffle=True)
for epoch in range(2):
    print(epoch, [yb.tolist() for _, yb in loader])

train, test = random_split(dataset, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(train), len(test), test.indices)
print([int(y) for _, y in test])

loader = DataLoader(train, batch_size=4, shuffle=False, drop_last=True)
print(len(loader), next(iter(loader))[0])
