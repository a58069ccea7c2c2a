# In the style of: custom Dataset/collate_fn/WeightedRandomSampler tutorial snippets (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-tutorials
import torch
from torch.utils.data import Dataset, DataLoader, WeightedRandomSampler, Subset, ConcatDataset, TensorDataset, default_collate
torch.manual_seed(0)
class Toy(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 2); self.y = (torch.arange(n) % 3 == 0).long()
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.y[i], "id": i, "name": f"s{i}"}
ds = Toy(10)
print(default_collate([ds[0], ds[1]]))
weights = torch.where(ds.y == 1, 3.0, 1.0)
sampler = WeightedRandomSampler(weights, num_samples=8, replacement=True, generator=torch.Generator().manual_seed(1))
print(list(sampler))
dl = DataLoader(ds, batch_size=3, sampler=sampler)
for b in dl:
    print(b["id"], b["y"], b["name"])
def pad_collate(batch):
    seqs = [torch.arange(int(item["id"]) % 4 + 1) for item in batch]
    return torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1), torch.tensor([len(s) for s in seqs])
for xb, lens in DataLoader(ds, batch_size=4, collate_fn=pad_collate):
    print(xb.tolist(), lens)
sub = Subset(ds, [1, 3, 5]); cat = ConcatDataset([sub, TensorDataset(torch.ones(2, 2))])
print(len(cat), cat[3], sub[0]["id"])
dl2 = DataLoader(TensorDataset(torch.arange(7.)), batch_size=3, shuffle=True, drop_last=True, generator=torch.Generator().manual_seed(5))
print([b[0].tolist() for b in dl2], len(dl2))
g = torch.Generator().manual_seed(42)
print(torch.randperm(6, generator=g), torch.rand(2, generator=g), torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 5, replacement=True, generator=g))
dl3 = DataLoader(list(range(5)), batch_size=2)
print(list(dl3), next(iter(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))))
