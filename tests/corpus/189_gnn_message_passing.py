# In the style of: UvA DL tutorial 7 (graph neural networks): message passing with index_add_ and scatter_add (a second fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: uvadl
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4)

num_nodes = 6
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 0, 2, 3],
                           [1, 0, 2, 1, 4, 3, 0, 5, 3, 2]])
x = torch.randn(num_nodes, 5)
y = torch.tensor([0, 1, 0, 1, 1, 0])

class GCNLayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(i, o, bias=False)
        self.bias = nn.Parameter(torch.zeros(o))
    def forward(self, x, edge_index):
        n = x.size(0)
        loops = torch.arange(n).unsqueeze(0).repeat(2, 1)
        ei = torch.cat([edge_index, loops], dim=1)
        src, dst = ei
        deg = torch.zeros(n).scatter_add_(0, dst, torch.ones(dst.size(0)))
        dinv = deg.pow(-0.5)
        dinv[torch.isinf(dinv)] = 0
        norm = dinv[src] * dinv[dst]
        h = self.lin(x)
        msg = h[src] * norm.view(-1, 1)
        out = torch.zeros(n, h.size(1)).index_add_(0, dst, msg)
        return out + self.bias

class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = GCNLayer(5, 8)
        self.c2 = GCNLayer(8, 2)
    def forward(self, x, ei):
        h = F.relu(self.c1(x, ei))
        h = F.dropout(h, 0.0, training=self.training)
        return self.c2(h, ei)

model = GNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for ep in range(6):
    out = model(x, edge_index)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (out.argmax(1) == y).float().mean()
    print(f"ep {ep} loss {loss.item():.6f} acc {acc.item():.3f}")
print(model.c1.lin.weight.grad)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())

# scatter-max style pooling via scatter_reduce
batch = torch.tensor([0, 0, 0, 1, 1, 1])
h = model.c1(x, edge_index)
pooled = torch.zeros(2, 8).scatter_reduce(0, batch.unsqueeze(1).expand(-1, 8), h, reduce="amax", include_self=False)
mean_pool = torch.zeros(2, 8).index_add(0, batch, h) / torch.bincount(batch).unsqueeze(1)
s = pooled.sum() + mean_pool.sum()
s.backward()
print(pooled, mean_pool.shape, model.c1.bias.grad)
